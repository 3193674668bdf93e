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
    list_phrase,
    participle,
    phrase,
    plural,
    set_phrase,
    verb,
)

_PREDICATE = re.compile(
    rf"(?P<neg>没有|没|未|不)?(?:在(?P<where>.+?)(?:{IN}|上))?(?P<pas>被)?(?P<v>[^\s]+)"
)
# "是在 2021 提出的", "2021 发表", "发表于 2021": done in a year (年 already read as the year)
_IN_YEAR = re.compile(
    r"(?P<neg>没有|没|未|不)?是?(?:在|于)?\s*(?P<year>(?:19|20)\d\d)\s*(?P<v>\S+?)的?"
)
_YEAR_AFTER = re.compile(r"(?P<v>\S+?)(?:于|在)\s*(?P<year>(?:19|20)\d\d)\s*")


def _predicate(text: str, translate: Translate) -> str:
    """What a count's members do, in English ("are not mentioned in Section 3.4", "were
    proposed in 2021", "come from Y"), or "" when it is not a predicate."""
    text = text.strip()
    dated = _IN_YEAR.fullmatch(text) or _YEAR_AFTER.fullmatch(text)
    if dated and verb(dated["v"]):
        said = "not " if dated.groupdict().get("neg") else ""
        return f"were {said}{participle(verb(dated['v']))} in {dated['year']}"
    done = _PREDICATE.fullmatch(text)
    if done and (done["neg"] or done["pas"]) and verb(done["v"]):
        where = f" in {phrase(done['where'], translate)}" if done["where"] else ""
        said = "not " if done["neg"] else ""
        return f"are {said}{participle(verb(done['v']))}{where}"
    words = segment(text)
    if words and words[0] == "用于":  # "用于评估": are used for evaluation
        return f"are used for {phrase(''.join(words[1:]), translate, noun=True)}"
    acting = verb(words[0]) if words else ""
    return f"{acting} {phrase(''.join(words[1:]), translate)}".strip() if acting else ""


def _of_them(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "…的 N 里，有多少篇没有在 X 中被提及" -> "For the Ns that …, how many of them are
    not mentioned in X?": the count's set is the clause before it."""
    found = re.fullmatch(rf"(?:其中)?有?\s*{COUNT}{MEASURE}?(?P<pred>.+)", last)
    if not found or not lead or "的" not in lead[-1] or not re.search(f"{IN}$", lead[-1]):
        return None
    predicate = _predicate(found["pred"], translate)
    if not predicate:
        return None
    members = set_phrase(re.sub(f"{IN}$", "", lead[-1]), translate)
    return f"{lead_clauses(lead[:-1], translate)}for {members}, how many of them {predicate}"


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


def _of_set(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "X 中有多少人来自 Y" -> "How many of the X come from Y?"; "Table 1 和 Table 2 中有
    多少篇论文是 2021 年提出的" -> "How many of the papers in Table 1 and Table 2 were
    proposed in 2021?": the set is named first, the count is of those the predicate fits."""
    found = re.fullmatch(
        rf"(?P<set>.+?)\s*(?P<in>{IN})?\s*(?P<has>有)?\s*{COUNT}(?:{MEASURE}|人)?(?P<rest>.+)", last
    )
    if not found or not (found["in"] or found["has"] and "的" in found["set"]):
        return None
    words = segment(found["rest"])
    ends = next((n for n, w in enumerate(words) if verb(w) or w in "是在于没未不被"), len(words))
    predicate = _predicate("".join(words[ends:]), translate)
    if not predicate:
        return None
    counted = plural(phrase("".join(words[:ends]), translate, noun=True))
    if counted and not HAN_CHAR.search(found["set"].replace("和", "")):
        members = f"{counted} in {list_phrase(found['set'], translate)}"  # a labelled place
    elif counted:
        members = f"{counted} in {set_phrase(found['set'], translate)}"
    else:
        members = f"of {set_phrase(found['set'], translate)}"
    return f"{lead_clauses(lead, translate)}how many {members} {predicate}"


COUNT_FRAMES = (_of_them, _on_how_many, _of_set)
