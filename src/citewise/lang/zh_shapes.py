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
- "以 X 作为 Y 时，…": "When using X as Y, …" (a condition clause, kept first).

Each frame's slots are translated by the caller (word senses chosen by the library); a
sentence of no known frame is None and is bridged word by word (agent/bridge/crosslingual.py).
"""

from __future__ import annotations

import re

from citewise.lang.zh import segment
from citewise.lang.zh_counts import COUNT_FRAMES
from citewise.lang.zh_phrases import (
    ADJECTIVES,
    IN,
    LIST_MARK,
    MEASURE,
    MORE,
    NUMBER_WORDS,
    Translate,
    lead_clauses,
    participle,
    phrase,
    plural,
    verb,
)
from citewise.lang.zh_words import STOPWORDS

__all__ = ["LIST_MARK", "shaped"]


def shaped(sentence: str, translate: Translate) -> str | None:
    """The English question for a Chinese sentence of a known frame, or None."""
    text = sentence.strip().rstrip("?？。.!！ ")
    if not text:
        return None
    clauses = [c.strip() for c in re.split(r"[，,；;]", text) if c.strip()]
    if not clauses:
        return None
    *lead, last = clauses
    for frame in (_compared, _yes_no, *COUNT_FRAMES, _which_most):
        english = frame(last, lead, translate)
        if english:
            english = " ".join(english.split())
            return english[:1].upper() + english[1:] + "?"
    return None


def _compared(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "S V 的 N 是否比 B 多" -> "Does S V more N than B?"; "A 是否比 B 快" -> "Is A
    faster than B?"."""
    found = re.fullmatch(r"(?P<a>.+?)(?:是否|是不是|有没有)?比(?P<b>.+?)(?P<adj>.)吗?", last)
    asks = re.search("是否|是不是|有没有", last) or last.endswith("吗")
    if not found or not asks or found["adj"] not in {**MORE, **ADJECTIVES}:
        return None
    a, b, adj = re.sub("是否|是不是|有没有", "", found["a"]), found["b"], found["adj"]
    than = phrase(b, translate)
    owner, _, noun = a.rpartition("的")
    if adj in MORE and owner:
        words = segment(owner)
        acting = verb(words[-1]) if words else ""
        subject = phrase("".join(words[:-1]), translate) if acting else phrase(owner, translate)
        did = acting or "have"
        counted = plural(phrase(noun, translate, noun=True))
        return (
            f"{lead_clauses(lead, translate)}does {subject} {did} {MORE[adj]} {counted} than {than}"
        )
    comparative = MORE.get(adj) or ADJECTIVES[adj]
    return f"{lead_clauses(lead, translate)}is {phrase(a, translate)} {comparative} than {than}"


_OTHER_ASKS = re.compile("什么|多少|哪|几|谁|如何|怎么|为什么")


def _action(word: str) -> str:
    """The English verb of a content verb (not 在, 对, 把: the particles CC-CEDICT also
    glosses as verbs)."""
    return verb(word) if word not in STOPWORDS else ""


def _yes_no(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "S 是否 V O" / "S V O 吗" -> "Does S V O?"; "S 是否是 O" -> "Is S O?"; "S 有没有 O"
    -> "Does S have O?": a yes/no question starts with its auxiliary in English. "是不是" is
    read as "是否" ("S 是不是 V O"), or as "是否是" before a noun ("A 是不是 B" -> "Is A B?");
    with no subject ("是否用了 X") the paper is asked about."""
    if _OTHER_ASKS.search(last):
        return None
    asked = re.fullmatch(r"(?P<s>.*?)(?P<q>是否|是不是|有没有)(?P<rest>.+)", last)
    said = lead_clauses(lead, translate)
    if asked and asked["q"] == "有没有":
        owner = phrase(asked["s"], translate)
        return f"{said}does {owner} have {phrase(asked['rest'], translate)}" if owner else None
    if asked:
        subject, rest = asked["s"], asked["rest"]
        if asked["q"] == "是不是" and not _acts(segment(rest)):
            rest = "是" + rest  # "A 是不是 B": the copula is in the question word
    elif last.endswith("吗") and len(last) > 2:
        words = segment(last[:-1])
        acts = [n for n, w in enumerate(words) if n and (w in "是有" or _action(w))]
        at = acts[0] if acts else None
        if at is None:
            return None
        subject, rest = "".join(words[:at]), "".join(words[at:])
    else:
        return None
    words = [w for w in segment(rest) if w not in ("了", "过")]
    # no subject ("是否用了 X"): a question about a paper asks what the paper does
    head = phrase(subject, translate) if subject.strip() else "the paper"
    if not words or not head:
        return None
    first, others = words[0], "".join(words[1:])
    if first in ("是", "为"):
        return f"{said}is {head} {phrase(others, translate)}"
    passive = _passive(said, head, segment(others), translate) if first == "被" else None
    if passive:
        return passive
    acting = "have" if first == "有" else verb(first)
    if not acting:
        return None
    return f"{said}does {head} {acting} {phrase(others, translate)}"


def _acts(words: list[str]) -> bool:
    """The words open with a verb, 被 or 有 ("用了 X", "被 A 引用"), not a noun."""
    first = next((w for w in words if w.strip()), "")
    return first in ("被", "有", "是", "为") or bool(verb(first))


def _passive(said: str, head: str, done: list[str], translate: Translate) -> str | None:
    """ "S 是否被 V" -> "Is S V-ed?"; "S 是否被 A V" -> "Is S V-ed by A?" (A the doer)."""
    if not done:
        return None
    at = 0 if verb(done[0]) else next((n for n, w in enumerate(done) if _action(w)), None)
    if at is None:
        return None
    acting = participle(verb(done[at]))
    rest = phrase("".join(done[at + 1 :]), translate)
    if at == 0:
        return f"{said}is {head} {acting} {rest}"
    doer = phrase("".join(done[:at]), translate)
    return f"{said}is {head} {acting} by {doer} {rest}" if doer else None


def _members(text: str, translate: Translate) -> str:
    """ "A、B 和 C" -> "A, B and C"."""
    parts = [
        phrase(p, translate, noun=True)
        for p in re.split(rf"[、,{LIST_MARK}]|和|与|以及|及", text)
        if p.strip()
    ]
    parts = [p for p in parts if p]
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


_SUPERLATIVES = {
    "多": "most",
    "少": "fewest",
    "高": "highest",
    "低": "lowest",
    "大": "largest",
    "小": "smallest",
    "长": "longest",
    "短": "shortest",
    "快": "fastest",
    "慢": "slowest",
    "好": "best",
    "差": "worst",
}


def _which_most(last: str, lead: list[str], translate: Translate) -> str | None:
    """ "在 A、B 和 C 这三种 S 中，哪一种的 N 最多" -> "Among the three Ss: A, B and C,
    which one has the most N?"; "Table 3 中哪个模型的准确率最高" -> "Which model has the
    highest accuracy in Table 3?"."""
    found = re.fullmatch(
        rf"(?P<pre>.*?)哪一?(?:{MEASURE}|种|类)?(?P<kind>[^的最]*?)的?(?P<n>[^的最]*?)"
        rf"最(?P<adj>.)",
        last,
    )
    if not found or found["adj"] not in _SUPERLATIVES:
        return None
    among = ""
    if lead:
        named = re.fullmatch(
            rf"在(?P<list>.+?)(?:这|那)?(?P<k>[两二三四五六七八九十])(?:{MEASURE}|种|类)"
            rf"(?P<s>.+?){IN}",
            lead[-1],
        )
        if named:
            kind = plural(phrase(named["s"], translate, noun=True))
            among = f"among the {NUMBER_WORDS[named['k']]} {kind}: "
            among += f"{_members(named['list'], translate)}, "
            lead = lead[:-1]
    kind, noun = found["kind"], found["n"]
    if "的" not in last[found.end("pre") :]:  # "哪个模型准确率最高": the kind, then the noun
        words = segment(kind + noun)
        kind, noun = "".join(words[:1]), "".join(words[1:])
    if any(w in ("上", "中", "里") or verb(w) for w in segment(noun)):
        return None  # "在哪个数据集上表现最好": where something holds, not what has the most
    which = phrase(kind, translate, noun=True) or "one"
    asked = phrase(noun, translate, noun=True)
    asked = plural(asked) if found["adj"] in MORE else asked  # "the most papers"
    if not asked:  # "哪个数据集最大": which dataset is the largest
        return (
            f"{lead_clauses(lead, translate)}{among}which {which} is the "
            f"{_SUPERLATIVES[found['adj']]}{_place(found['pre'], translate)}"
        )
    return (
        f"{lead_clauses(lead, translate)}{among}which {which} has the "
        f"{_SUPERLATIVES[found['adj']]} {asked}{_place(found['pre'], translate)}"
    )


def _place(text: str, translate: Translate) -> str:
    """Where a clause says the question holds ("Table 3 中", "综述里"): " in X"."""
    inside = re.fullmatch(rf"(?:在)?(?P<x>.+?){IN}", text.strip())
    english = phrase(inside["x"] if inside else text, translate)
    return f" in {english}" if english and inside else (f" {english}" if english else "")
