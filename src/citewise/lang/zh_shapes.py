"""The English shape of a Chinese question (issue 19): the sentence frames of Chinese
questions whose English word order is not the Chinese one, written the way English questions
are, so that the English question handlers read them as they read English.

A Chinese question puts the asked quantity, place or comparison inside the sentence where
English moves it to the front, and it states its conditions first:

- "S V 的 N 是否比 B 多": "Does S V more N than B?" (a yes/no comparison);
- "S 在多少个 N 上 V O": "On how many Ns does S V O?" (a count of where something holds);
- "…的 N 里，有多少篇没有在 X 中被提及": "For the Ns that …, how many of them are not
  mentioned in X?" (a count over a set the first clause names);
- "在 A、B 和 C 这三种 S 中，哪一种的 N 最多": "Among the three Ss: A, B and C, which one
  has the most N?" (a superlative over named members);
- "X 的 Y 是什么": "What is the Y of X?";
- "以 X 作为 Y 时，…": "When using X as Y, …" (a condition clause, kept first).

Each frame's slots are translated by the caller (word senses chosen by the library); a
sentence of no known frame is None and is bridged word by word (agent/crosslingual.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from citewise.lang.zh import _HAN, HAN_CHAR, dictionary, is_verb, segment
from citewise.lang.zh_words import MEASURE_WORDS, RESEARCH_VERBS

Translate = Callable[[str], str]
# where the question wrote a list's "、" (the clauses' commas are apart from it)
LIST_MARK = "\ue000"

_COUNT = "(?:多少|几)"
_MEASURE = f"[{MEASURE_WORDS}]"
_NUMBER_WORDS = dict(
    zip(
        "两二三四五六七八九十",
        "two two three four five six seven eight nine ten".split(),
        strict=True,
    )
)
_MORE = {"多": "more", "少": "fewer"}
_ADJECTIVES = {
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
_IN = "(?:中|里|内|之中|当中)"
_IRREGULAR = {"show": "shown", "give": "given", "write": "written", "plot": "plotted"}
_WITHOUT = re.compile(r"(?:不使用|不用|未使用|没有使用|不采用|未采用)")


def shaped(sentence: str, translate: Translate) -> str | None:
    """The English question for a Chinese sentence of a known frame, or None."""
    text = sentence.strip().rstrip("?？。.!！ ")
    if not text:
        return None
    clauses = [c.strip() for c in re.split(r"[，,；;]", text) if c.strip()]
    if not clauses:
        return None
    *lead, last = clauses
    for frame in (_compared, _of_them, _on_how_many, _which_most, _what_is):
        english = frame(last, lead, translate)
        if english:
            english = " ".join(english.split())
            return english[:1].upper() + english[1:] + "?"
    return None


def _phrase(text: str, translate: Translate) -> str:
    """A slot's Chinese words in English: parentheses kept, "不使用 X" as "without X",
    "两个" as "two"."""
    out: list[str] = []
    text = text.replace(LIST_MARK, ", ")
    for part in re.split(r"(\([^)]*\)?)", text):
        if part.startswith("("):
            out.append(f"({_phrase(part.strip('()'), translate)})")
            continue
        for n, piece in enumerate(_WITHOUT.split(part)):
            counted = re.sub(
                rf"(?<!第)([两二三四五六七八九十])(?:{_MEASURE}|种)",
                lambda m: f" {_NUMBER_WORDS[m.group(1)]} ",
                piece,
            )
            words = " ".join(
                w if not HAN_CHAR.search(w) else _timed(w, translate)
                for w in re.split(
                    r"( two | three | four | five | six | seven | eight | nine | ten )", counted
                )
            )
            out.append(("without " if n else "") + words)
    return " ".join(" ".join(out).split())


def _timed(text: str, translate: Translate) -> str:
    """ "训练时纠正": "training-time correction": 时 inside a noun phrase makes a modifier of
    the word before it, as "test-time", "run-time" and "inference-time" are written."""
    parts = re.split(rf"(?<=[{_HAN}])时(?=[{_HAN}])", text)
    english = [translate(p) for p in parts]
    return " ".join(
        e + ("-time" if n + 1 < len(english) and e else "") for n, e in enumerate(english)
    )


def verb(word: str) -> str:
    """The English verb a paper writes for a Chinese verb (its base form), or ""."""
    if word in RESEARCH_VERBS:
        return RESEARCH_VERBS[word]
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


def _lead(lead: list[str], translate: Translate) -> str:
    """Condition clauses before the question, in English and in their order."""
    out: list[str] = []
    for clause in lead:
        when = clause.endswith("时")
        body = clause[:-1] if when else clause
        using = re.fullmatch(r"(?:以|用|使用)\s*(?P<x>.+?)\s*(?:作为|为|当作)\s*(?P<y>.+)", body)
        if using:
            english = f"using {_phrase(using['x'], translate)} as {_phrase(using['y'], translate)}"
        else:
            english = _phrase(re.sub(rf"^在(.+?){_IN}$", r"\1", body), translate)
            english = f"in {english}" if re.match(rf"^在.+{_IN}$", body) else english
        if english:
            out.append(("when " if when else "") + english)
    return ", ".join(out) + ", " if out else ""


def _compared(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "S V 的 N 是否比 B 多" -> "Does S V more N than B?"; "A 是否比 B 快" -> "Is A
    faster than B?"."""
    found = re.fullmatch(r"(?P<a>.+?)(?:是否|有没有)?比(?P<b>.+?)(?P<adj>.)吗?", last)
    asks = "是否" in last or "有没有" in last or last.endswith("吗")
    if not found or not asks or found["adj"] not in {**_MORE, **_ADJECTIVES}:
        return None
    a, b, adj = found["a"].replace("是否", "").replace("有没有", ""), found["b"], found["adj"]
    than = _phrase(b, translate)
    owner, _, noun = a.rpartition("的")
    if adj in _MORE and owner:
        words = segment(owner)
        acting = verb(words[-1]) if words else ""
        subject = _phrase("".join(words[:-1]), translate) if acting else _phrase(owner, translate)
        did = acting or "have"
        counted = plural(_phrase(noun, translate))
        return f"{_lead(lead, translate)}does {subject} {did} {_MORE[adj]} {counted} than {than}"
    comparative = _MORE.get(adj) or _ADJECTIVES[adj]
    return f"{_lead(lead, translate)}is {_phrase(a, translate)} {comparative} than {than}"


_SET = re.compile(rf"(?:对于|在(?P<loc>.+?){_IN})?(?P<rel>.+)的(?P<n>[^的]+?){_IN}?")
_PREDICATE = re.compile(
    rf"(?P<neg>没有|没|未|不)?(?:在(?P<where>.+?)(?:{_IN}|上))?(?P<pas>被)?(?P<v>[^\s]+)"
)


def _relative(text: str, translate: Translate) -> str:
    """A relative clause ("采用 X 策略"): its leading verb as the paper's verb, then the rest."""
    words = segment(text)
    acting = verb(words[0]) if words else ""
    rest = _phrase("".join(words[1:]) if acting else text, translate)
    return f"{acting} {rest}".strip() if acting else rest


def _of_them(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "…的 N 里，有多少篇没有在 X 中被提及" -> "For the Ns that …, how many of them are
    not mentioned in X?": the count's set is the clause before it."""
    found = re.fullmatch(rf"(?:其中)?有?{_COUNT}{_MEASURE}?(?P<pred>.+)", last)
    if not found or not lead:
        return None
    predicate = _PREDICATE.fullmatch(found["pred"].strip())
    group = _SET.fullmatch(lead[-1])
    if not predicate or not group or not (predicate["neg"] or predicate["pas"]):
        return None
    acting = verb(predicate["v"])
    if not acting:
        return None
    where = f" in {_phrase(predicate['where'], translate)}" if predicate["where"] else ""
    place = f" in {_phrase(group['loc'], translate)}" if group["loc"] else ""
    members = plural(_phrase(group["n"], translate))
    said = "not " if predicate["neg"] else ""
    return (
        f"{_lead(lead[:-1], translate)}for the {members} that {_relative(group['rel'], translate)}"
        f"{place}, how many of them are {said}{participle(acting)}{where}"
    )


def _on_how_many(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "S 在多少个 N 上 V O" -> "On how many Ns does S V O?"."""
    found = re.fullmatch(
        rf"(?P<s>.+?)在{_COUNT}{_MEASURE}?(?P<n>[^上中里]+?)(?:上|中|里)(?P<rest>.+)", last
    )
    if not found:
        return None
    words = segment(found["rest"])
    acting = verb(words[0]) if words else ""
    if not acting:
        return None
    units = plural(_phrase(found["n"], translate))
    done = _phrase("".join(words[1:]), translate)
    subject = _phrase(found["s"], translate)
    return f"{_lead(lead, translate)}on how many {units} does {subject} {acting} {done}"


def _members(text: str, translate: Translate) -> str:
    """ "A、B 和 C" -> "A, B and C"."""
    parts = [
        _phrase(p, translate)
        for p in re.split(rf"[、,{LIST_MARK}]|和|与|以及|及", text)
        if p.strip()
    ]
    parts = [p for p in parts if p]
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def _which_most(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "在 A、B 和 C 这三种 S 中，哪一种的 N 最多" -> "Among the three Ss: A, B and C,
    which one has the most N?"."""
    found = re.fullmatch(
        rf"(?P<pre>.*?)哪一?(?:{_MEASURE}|种|类)的?(?P<n>.*?)最(?P<adj>多|少)", last
    )
    if not found:
        return None
    among = ""
    if lead:
        named = re.fullmatch(
            rf"在(?P<list>.+?)(?:这|那)?(?P<k>[两二三四五六七八九十])(?:{_MEASURE}|种|类)"
            rf"(?P<s>.+?){_IN}",
            lead[-1],
        )
        if named:
            kind = plural(_phrase(named["s"], translate))
            among = f"among the {_NUMBER_WORDS[named['k']]} {kind}: "
            among += f"{_members(named['list'], translate)}, "
            lead = lead[:-1]
    most = "most" if found["adj"] == "多" else "fewest"
    pre = _phrase(found["pre"], translate)
    asked = _phrase(found["n"], translate)
    tail = f" {pre}" if pre else ""
    return f"{_lead(lead, translate)}{among}which one has the {most} {asked}{tail}"


def _what_is(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "X 的 Y 是什么" -> "What is the Y of X?"."""
    found = re.fullmatch(r"(?P<x>.+)的(?P<y>[^的]+?)是什么", last)
    if not found or re.search(r"什么|多少|哪|几|谁", found["x"]):
        return None
    thing, owner = _phrase(found["y"], translate), _phrase(found["x"], translate)
    if not thing or not owner:
        return None
    return f"{_lead(lead, translate)}what is the {thing} of {owner}"
