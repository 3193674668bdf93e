"""Within a paper the asker names, retrieval reads deeper (agent/ask/qa.py NAMED_PAPER_DEPTH):
the answer of a question asked of one paper may sit in a paragraph that shares fewer of the
question's words than a dozen others of the same paper."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.ask.qa import NAMED_PAPER_DEPTH
from citewise.api import Library

TOPICS = [
    "The glacier melt model was calibrated on the alpine stations.",
    "Each glacier melt run used the calibrated alpine stations as input.",
    "We compared glacier melt estimates across the alpine valleys.",
    "The glacier melt season length varied between the alpine stations.",
]


def _paper(path: Path) -> Path:
    paragraphs = [
        TOPICS[n % len(TOPICS)] + f" Section note {n} adds detail {n}." for n in range(24)
    ]
    # the paragraph that answers shares few words with the question
    paragraphs.insert(17, "Snowpack readings came from fourteen weather huts run by volunteers.")
    body = "\n\n".join(paragraphs)
    path.write_text(f"# Glacier melt in alpine valleys\n\n## Data\n\n{body}\n", encoding="utf-8")
    return path


def _blocks(hits: list[object]) -> set[str]:
    return {h.block.id for h in hits}  # type: ignore[attr-defined]


def test_a_named_paper_is_read_deeper_than_the_library(tmp_path: Path) -> None:
    lib = Library(tmp_path / "lib", embeddings=False)
    lib.ingest([_paper(tmp_path / "glacier.md")])
    doc = lib.documents()[0].id
    qa = lib.answerer
    asked = "Where did the glacier melt model's alpine station data come from?"
    named, _ = qa.analyse(asked, (doc,))
    unnamed, _ = qa.analyse(asked, ())
    deep = qa.retrieve(named, 8, strict=True)
    shallow = qa.retrieve(unnamed, 8)
    assert len(_blocks(shallow)) <= 8
    assert len(_blocks(deep)) > 8
    assert len(_blocks(deep)) <= NAMED_PAPER_DEPTH * 8
    lib.close()
