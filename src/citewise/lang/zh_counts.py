"""Chinese count questions in the English shape (issue 19): where a Chinese count asks
about a set its clause names first, English says "how many of them"; where it asks on how
many units something holds, English starts with "On how many".

- "…的 N 里，有多少篇没有在 X 中被提及": "For the Ns that …, how many of them are not
  mentioned in X?";
- "S 在多少个 N 上 V O": "On how many Ns does S V O?".
"""

from __future__ import annotations

import re

from citewise.lang.zh import HAN_CHAR, segment
from citewise.lang.zh_phrases import (
    COUNT,
    IN,
    MEASURE,
    Translate,
    lead_clauses,
    participle,
    phrase,
    plural,
    verb,
)
from citewise.lang.zh_words import COUNTED_UNITS

_SET = re.compile(rf"(?:对于|在(?P<loc>.+?){IN})?(?P<rel>.+)的(?P<n>[^的]+?){IN}?")
_PREDICATE = re.compile(
    rf"(?P<neg>没有|没|未|不)?(?:在(?P<where>.+?)(?:{IN}|上))?(?P<pas>被)?(?P<v>[^\s]+)"
)


def _relative(text: str, translate: Translate) -> str:
    """A relative clause ("采用 X 策略"): its leading verb as the paper's verb, then the rest."""
    words = segment(text)
    acting = verb(words[0]) if words else ""
    rest = phrase("".join(words[1:]) if acting else text, translate)
    return f"{acting} {rest}".strip() if acting else rest


def _of_them(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "…的 N 里，有多少篇没有在 X 中被提及" -> "For the Ns that …, how many of them are
    not mentioned in X?": the count's set is the clause before it."""
    found = re.fullmatch(rf"(?:其中)?有?{COUNT}{MEASURE}?(?P<pred>.+)", last)
    if not found or not lead:
        return None
    predicate = _PREDICATE.fullmatch(found["pred"].strip())
    group = _SET.fullmatch(lead[-1])
    if not predicate or not group or not (predicate["neg"] or predicate["pas"]):
        return None
    acting = verb(predicate["v"])
    if not acting:
        return None
    where = f" in {phrase(predicate['where'], translate)}" if predicate["where"] else ""
    place = f" in {phrase(group['loc'], translate)}" if group["loc"] else ""
    members = plural(phrase(group["n"], translate, noun=True))
    said = "not " if predicate["neg"] else ""
    that = _relative(group["rel"], translate)
    return (
        f"{lead_clauses(lead[:-1], translate)}for the {members} that {that}{place}, "
        f"how many of them are {said}{participle(acting)}{where}"
    )


def _on_how_many(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "S 在多少个 N 上 V O" -> "On how many Ns does S V O?"."""
    found = re.fullmatch(
        rf"(?P<s>.+?)在{COUNT}{MEASURE}?(?P<n>[^上中里]+?)(?:上|中|里)(?P<rest>.+)", last
    )
    if not found:
        return None
    words = segment(found["rest"])
    acting = verb(words[0]) if words else ""
    if not acting:
        return None
    units = plural(phrase(found["n"], translate, noun=True))
    done = phrase("".join(words[1:]), translate)
    subject = phrase(found["s"], translate)
    return f"{lead_clauses(lead, translate)}on how many {units} does {subject} {acting} {done}"


def _owned(text: str, translate: Translate) -> str:
    """ "这份报告的章节作者": "the chapter authors of this report" (the head after 的 first)."""
    owner, _, head = text.rpartition("的")
    if not owner:
        return f"the {phrase(text, translate, noun=True)}"
    return f"the {phrase(head, translate, noun=True)} of {phrase(owner, translate)}"


def _of_set(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "X 中有多少人来自 Y" -> "How many of the X come from Y?": the set is named first,
    and what is counted is those of its members the predicate holds for."""
    found = re.fullmatch(
        rf"(?P<set>.+?){IN}有?{COUNT}(?:{MEASURE}|人)?(?P<pred>.+)", last.replace(" ", "")
    )
    if not found:
        return None
    words = segment(found["pred"])
    acting = verb(words[0]) if words else ""
    if not acting:
        return None
    members = _owned(found["set"], translate)
    rest = phrase("".join(words[1:]), translate)
    return f"{lead_clauses(lead, translate)}how many of {members} {acting} {rest}"


def _in_place(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "this paper 共有多少幅图" / "Table 2 中有多少篇论文" -> "How many figures are in
    this paper?": a count of things a document or a part of it holds."""
    found = re.fullmatch(
        rf"(?:在)?(?P<where>.+?)\s*(?:{IN})?\s*(?:共|一共|总共|共计)?有\s*{COUNT}"
        rf"(?:{MEASURE})?(?P<n>[^,]+)",
        last,
    )
    if not found or HAN_CHAR.search(found["where"]):
        return None  # the place is a label ("Table 2") or the document ("this paper")
    if any(verb(w) for w in segment(found["n"])):
        return None  # a predicate, not a noun: counted by the other frames
    units = COUNTED_UNITS.get(found["n"].strip()) or plural(
        phrase(found["n"], translate, noun=True)
    )
    where = phrase(found["where"], translate)
    if not units.strip() or not where:
        return None
    return f"{lead_clauses(lead, translate)}how many {units} are in {where}"


COUNT_FRAMES = (_of_them, _on_how_many, _of_set, _in_place)
