"""Model-assisted extraction (the `extract` role): only where the deterministic patterns
found nothing, a model picks the sentence that states an aspect and copies the value.

The model sees numbered candidate sentences and replies `{"sentence": n, "value": "..."}`
(JSON schema); the value is kept only if it occurs verbatim in sentence n, so a model can
fill a gap but never invent a cell.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from citewise.agent.comparison.extraction import Finding, Unit, section_bonus
from citewise.llm.base import Message, Params
from citewise.llm.client import ModelClient
from citewise.llm.structured import structured_call

CANDIDATES = 8
MAX_VALUE_CHARS = 160
# Words that tell which sentences may state an aspect (the deterministic cues' vocabulary).
KEYWORDS: dict[str, str] = {
    "task": r"aim|goal|purpose|objective|task|problem|address|study|investigat",
    "method": r"propose|present|introduce|method|approach|model|pipeline|design|review",
    "datasets": r"dataset|corpus|data|database|benchmark|sample|participants|patients",
    "metrics": r"metric|measure|score|accuracy|F1|precision|recall|evaluat|rate",
    "main result": r"result|show|find|found|outperform|achiev|improv|significant",
    "limitations": r"limitation|limited|however|future|cannot|fail|lack|drawback|bias",
    "optimizer": r"optimi[sz]|Adam|SGD|momentum|updated?|gradient",
    "learning rate": r"learning rate|lr\b",
    "schedule": r"schedul|decay|warm|anneal",
    "batch size": r"batch",
    "epochs": r"epoch|step|iteration",
    "hardware": r"GPU|TPU|CPU|RAM|hardware|machine|cluster",
    "code availability": r"code|github|available|release|website",
}


class ExtractedValue(BaseModel):
    sentence: int | None = Field(None, description="Number of the sentence that states it.")
    value: str = Field("", description="The value, copied verbatim from that sentence.")


def candidates(aspect: str, paper_units: list[Unit], k: int = CANDIDATES) -> list[Unit]:
    """The k sentences most likely to state the aspect: its keywords, then its sections."""
    words = re.compile(KEYWORDS.get(aspect, re.escape(aspect)), re.I)
    scored = []
    for n, unit in enumerate(paper_units):
        score = len(words.findall(unit.text)) + section_bonus(aspect, unit)
        if score and unit.kind != "table":
            scored.append((score, -n, unit))
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [u for _, _, u in scored[:k]]


def _messages(aspect: str, units: list[Unit]) -> list[Message]:
    listing = "\n".join(f"[{n}] {u.text}" for n, u in enumerate(units))
    return [
        {
            "role": "system",
            "content": "You extract one attribute of a research paper from its sentences. "
            'Reply with JSON {"sentence": n, "value": "..."}: the number of the sentence '
            "that states the attribute and a short value copied exactly from it. If no "
            'sentence states it, reply {"sentence": null, "value": ""}. Never guess.',
        },
        {"role": "user", "content": f"Attribute: {aspect}\n\nSentences:\n{listing}"},
    ]


def model_finding(client: ModelClient, aspect: str, paper_units: list[Unit]) -> Finding | None:
    """The model's value for the aspect, if it occurs verbatim in the sentence it names."""
    units = candidates(aspect, paper_units)
    if not units:
        return None
    reply = structured_call(client, _messages(aspect, units), ExtractedValue, Params(max_tokens=96))
    got = reply.value
    if got is None or got.sentence is None or not 0 <= got.sentence < len(units):
        return None
    value = got.value.strip().strip(".,;:")
    unit = units[got.sentence]
    if not value or len(value) > MAX_VALUE_CHARS or value not in unit.text:
        return None  # not verbatim: a model's paraphrase is not a citation
    return Finding(aspect, value, unit.text, unit.page, unit.block_id, unit.section, 0.5)
