"""Words as retrieval and answer scoring see them: tokens, stopwords, a light stemmer."""

from __future__ import annotations

import re

from citewise.store.fts import query_tokens

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing done down during
    each few for from further had has have having he her here hers him his how i if in
    into is it its itself just me more most my no nor not now of off on once only or
    other our ours out over own same she should so some such than that the their theirs
    them then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours according
    approximately roughly many much use used using get got give given reported report
    reach reached paper library""".split()
)


_NUMBER = re.compile(r"^\d+(?:[.,]\d+)*$")


def stem(word: str) -> str:
    """A deliberately light stemmer: plural and common verb endings only."""
    w = word.lower()
    # every ending below ends in s, g or d: another last letter keeps the word as it is
    if len(w) <= 3 or w[-1] not in "sgd" or _NUMBER.match(w):
        return w
    for suffix, keep in (
        ("yses", "ysis"),
        ("ies", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                return w
            return w[: len(w) - len(suffix)] + keep
    return w


_CJK_RUN = re.compile("^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+$")
# CJK characters that only glue a sentence together; a pair across one says nothing
_CJK_GLUE = frozenset("的了是在和与及或也都就而之其这那个")


def _pairs(run: str) -> list[str]:
    """A CJK run as its overlapping character pairs (as the keyword index has them), so that
    "准确率" in a question meets "准确率" in a sentence without a segmenter."""
    if len(run) < 2:
        return [run]
    pairs = [run[i : i + 2] for i in range(len(run) - 1)]
    return [p for p in pairs if not (p[0] in _CJK_GLUE or p[1] in _CJK_GLUE)] or pairs


_CJK_CHAR = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def word_count(text: str) -> int:
    """Words of a text as a length: whitespace words, and a CJK word for each two CJK
    characters (CJK writes no spaces between words)."""
    cjk = len(_CJK_CHAR.findall(text))
    if not cjk:
        return len(text.split())
    return len(_CJK_CHAR.sub(" ", text).split()) + (cjk + 1) // 2


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens (letters and digits; CJK runs as character pairs)."""
    found: list[str] = []
    for t in query_tokens(text):
        found += _pairs(t) if _CJK_RUN.match(t) else [t.lower()]
    return found


def content_terms(text: str) -> list[str]:
    """Tokens worth searching for: no stopwords, no one-letter tokens, in order, unique."""
    terms = [t for t in tokens(text) if t not in STOPWORDS and (len(t) > 1 or t.isdigit())]
    return list(dict.fromkeys(terms))
