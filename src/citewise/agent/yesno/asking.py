"""The one reading of a yes/no question's shape, shared by the word-for-word lead
(agent/yesno/polar.py) and the judged one (agent/yesno/lead.py).

A yes/no question's asking clause ("In Table 2, is X ...?" -> "is X ...?") opens with an
auxiliary, asks no wh-question inside it, offers no alternatives ("... A or B?", "A/B";
"yes or no" and "or not" keep it yes/no) and is not a request ("Can you list ...?"). Two
things are read on top, for each reader to weigh:

- `negated`: the question itself is negative ("Doesn't it ...?", "Is it not ...?"): a "No"
  would not say which way, so neither reader leads it;
- `negators`: a negator anywhere in its claim ("Is it done without supervision?"): the
  judged lead reads the claim as asked, the word-for-word one does not settle it;
- `than`: it writes "than", a comparison ("Is A better than B?") or an exclusion ("other
  than X", "rather than Y"): agent/yesno/polar_compare.py tells the two apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.ask.question import focus_sentence
from citewise.agent.yesno.polar_order import tokens
from citewise.agent.yesno.polar_words import words

AUXILIARIES = words("auxiliaries")
NEGATIONS = words("negations")
_WH = re.compile(r"\b(what|which|who|whom|whose|where|when|why|how)\b", re.IGNORECASE)
_REQUEST = re.compile(r"^(can|could|would|will)\s+you\b", re.IGNORECASE)
_POLAR_OR = re.compile(r"\b(yes\s+or\s+no|yes/no|or\s+not)\b", re.IGNORECASE)
_OR = re.compile(r"\bor\b|/", re.IGNORECASE)
_THAN = re.compile(r"\bthan\b", re.IGNORECASE)


def asking_clause(text: str) -> str:
    """The yes/no clause of a question ("In Table 2, is X ...?" -> "is X ...?")."""
    asking = focus_sentence(text).strip()
    head, comma, rest = asking.partition(",")
    opening, then = tokens(head)[:1], tokens(rest)[:1]
    if comma and then and then[0] in AUXILIARIES and opening and opening[0] not in AUXILIARIES:
        return rest.strip()
    return asking


def polar_clause(text: str) -> str:
    """The asking clause without "yes or no" / "or not"."""
    return " ".join(_POLAR_OR.sub(" ", asking_clause(text)).split())


@dataclass(frozen=True)
class YesNoShape:
    clause: str  # the asking clause, "yes or no" / "or not" taken out
    words: tuple[str, ...]
    negated: bool  # "not" or "-n't": the question is itself negative
    negators: bool  # any negator in the clause ("without", "no", "never", "not", ...)
    than: bool  # a comparison or an exclusion with "than"


def yes_no_shape(text: str) -> YesNoShape | None:
    """The question's yes/no shape, or None when it is not answered by yes or no."""
    clause = polar_clause(text)
    said = tokens(clause)
    if not said or said[0] not in AUXILIARIES or _REQUEST.match(clause):
        return None
    if _WH.search(clause) or _OR.search(clause):
        return None
    negative = [w.endswith(("n't", "n’t")) for w in said]
    return YesNoShape(
        clause=clause,
        words=tuple(said),
        negated=any(negative) or "not" in said,
        negators=any(negative) or bool(NEGATIONS.intersection(said)),
        than=bool(_THAN.search(clause)),
    )
