"""The pieces Chinese question frames are written with (lang/zh_shapes.py,
lang/zh_counts.py, issue 19): a slot's words in English (parentheses kept, "不使用 X" as
"without X", "两个" as "two", "训练时纠正" as "training-time correction"), the English verb a
paper writes for a Chinese research verb, its participle, a count's unit in the plural, and
condition clauses ("以 X 作为 Y 时": "when using X as Y") kept first as English puts them.
"""

from __future__ import annotations

import re
from typing import Protocol

from citewise.lang.script import HAN as _HAN
from citewise.lang.zh import HAN_CHAR, dictionary, is_verb, segment
from citewise.lang.zh_words import MEASURE_WORDS, RESEARCH_VERBS


class Translate(Protocol):
    """The caller's translation of a Chinese fragment (its words' senses chosen by the
    library); `noun` reads a word that is also a verb as a noun ("纠正": correction)."""

    def __call__(self, text: str, noun: bool = False) -> str: ...


# where the question wrote a list's "、" (the clauses' commas are apart from it)
LIST_MARK = "\ue000"

COUNT = "(?:多少|几)"
MEASURE = f"[{MEASURE_WORDS}]"
NUMBER_WORDS = dict(
    zip(
        "两二三四五六七八九十",
        "two two three four five six seven eight nine ten".split(),
        strict=True,
    )
)
MORE = {"多": "more", "少": "fewer"}
ADJECTIVES = {
    "高": "higher",
    "低": "lower",
    "大": "larger",
    "小": "smaller",
    "长": "longer",
    "短": "shorter",
    "快": "faster",
    "慢": "slower",
    "好": "better",
    "差": "worse",
}
IN = "(?:中|里|内|之中|当中)"
_IRREGULAR = {"show": "shown", "give": "given", "write": "written", "plot": "plotted"}
_WITHOUT = re.compile(r"(?:不使用|不用|未使用|没有使用|不采用|未采用)")


def phrase(text: str, translate: Translate, noun: bool = False) -> str:
    """A slot's Chinese words in English: parentheses kept, "不使用 X" as "without X",
    "两个" as "two"."""
    out: list[str] = []
    text = text.replace(LIST_MARK, ", ")
    for part in re.split(r"(\([^)]*\)?)", text):
        if part.startswith("("):
            out.append(f"({phrase(part.strip('()'), translate, noun)})")
            continue
        for n, piece in enumerate(_WITHOUT.split(part)):
            counted = re.sub(
                rf"(?<!第)([两二三四五六七八九十])(?:{MEASURE}|种)",
                lambda m: f" {NUMBER_WORDS[m.group(1)]} ",
                piece,
            )
            words = " ".join(
                w if not HAN_CHAR.search(w) else _timed(w, translate, noun)
                for w in re.split(
                    r"( two | three | four | five | six | seven | eight | nine | ten )", counted
                )
            )
            out.append(("without " if n else "") + words)
    return " ".join(" ".join(out).split())


def _timed(text: str, translate: Translate, noun: bool) -> str:
    """ "训练时纠正": "training-time correction": 时 inside a noun phrase makes a modifier of
    the word before it, as "test-time", "run-time" and "inference-time" are written."""
    parts = re.split(rf"(?<=[{_HAN}])时(?=[{_HAN}])", text)
    english = [translate(p, noun or len(parts) > 1) for p in parts]
    return " ".join(
        e + ("-time" if n + 1 < len(english) and e else "") for n, e in enumerate(english)
    )


def verb(word: str) -> str:
    """The English verb a paper writes for a Chinese verb (its base form), or ""."""
    if word in RESEARCH_VERBS:
        return RESEARCH_VERBS[word]
    if len(word) > 2 and word[-1] in "于在" and word[:-1] in RESEARCH_VERBS:
        return RESEARCH_VERBS[word[:-1]]  # "发表于": published (in)
    senses = dictionary().get(word, ())
    return senses[0] if senses and is_verb(word) and " " not in senses[0] else ""


def participle(base: str) -> str:
    if base in _IRREGULAR:
        return _IRREGULAR[base]
    if base.endswith("e"):
        return base + "d"
    if base.endswith("y") and base[-2:-1] not in "aeiou":
        return base[:-1] + "ied"
    return base + "ed"


def plural(noun: str) -> str:
    """The last word of an English noun phrase in the plural (a count's unit)."""
    head, _, last = noun.rpartition(" ")
    if not last or not last.isalpha() or last.endswith("s") or last.lower() in ("data",):
        return noun
    if last.endswith("y") and last[-2:-1] not in "aeiou":
        last = last[:-1] + "ies"
    elif last.endswith(("x", "ch", "sh")):
        last += "es"
    else:
        last += "s"
    return f"{head} {last}".strip()


_USING = re.compile(r"(?:以|用|使用)\s*(?P<x>.+?)\s*(?:作为|为|当作)\s*(?P<y>.+)")


def lead_clauses(lead: list[str], translate: Translate) -> str:
    """Condition clauses before the question, in English and in their order."""
    out: list[str] = []
    for clause in lead:
        when = clause.endswith("时")
        body = clause[:-1] if when else clause
        using = _USING.fullmatch(body)
        if using:
            english = f"using {phrase(using['x'], translate)} as {phrase(using['y'], translate)}"
        elif body.startswith("对于") and "的" in body:  # "对于…的数据集": for the datasets that …
            english = f"for {set_phrase(body[2:], translate)}"
        else:
            english = phrase(re.sub(rf"^在(.+?){IN}$", r"\1", body), translate)
            english = f"in {english}" if re.match(rf"^在.+{IN}$", body) else english
        if english:
            out.append(("when " if when else "") + english)
    return ", ".join(out) + ", " if out else ""


def set_phrase(text: str, translate: Translate) -> str:
    """The set a count is over, as English names it: "Table 1 和 Table 2 中列出的论文" is
    "the papers listed in Table 1 and Table 2", "采用 X 策略的论文" "the papers that adopt X
    strategy", "这份报告的章节作者" "the chapter authors of this report"."""
    text = re.sub(r"^(?:对于|在)\s*", "", text.strip())
    rel, _, head = text.rpartition("的")
    if not rel:
        return f"the {plural(phrase(text, translate, noun=True))}"
    members = plural(phrase(head, translate, noun=True))
    placed = re.fullmatch(rf"(?P<loc>.+?)\s*{IN}\s*(?P<rel>.+)", rel)
    loc, rel = (placed["loc"], placed["rel"]) if placed else ("", rel)
    words = segment(rel)
    if words and verb(words[-1]) and (len(words) == 1 or not HAN_CHAR.search(words[0])):
        # "列出的论文", "Table 1 和 Table 2 列出的论文": the Ns listed in the place
        loc = loc or "".join(words[:-1])
        place = f" in {list_phrase(loc, translate)}" if loc else ""
        return f"the {members} {participle(verb(words[-1]))}{place}"
    place = f" in {list_phrase(loc, translate)}" if loc else ""
    if words and verb(words[0]):
        return f"the {members} that {relative(rel, translate)}{place}"
    return f"the {members} of {phrase(rel, translate)}{place}"


def list_phrase(text: str, translate: Translate) -> str:
    """ "Table 1 和 Table 2": "Table 1 and Table 2"."""
    parts = [phrase(p, translate) for p in re.split(r"和|与|及|、|,", text) if p.strip()]
    parts = [p for p in parts if p]
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)


def relative(text: str, translate: Translate) -> str:
    """A relative clause ("采用 X 策略"): its leading verb as the paper's verb, then the rest."""
    using = _USING.fullmatch(text.strip())
    if using:  # "使用 X 作为 Y": use X as Y
        return f"use {phrase(using['x'], translate)} as {phrase(using['y'], translate)}"
    words = segment(text)
    acting = verb(words[0]) if words else ""
    rest = phrase("".join(words[1:]) if acting else text, translate)
    return f"{acting} {rest}".strip() if acting else rest
