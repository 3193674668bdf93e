"""Words as retrieval and answer scoring see them: tokens, stopwords, a light stemmer."""

from __future__ import annotations

import re
from functools import lru_cache

from citewise.regex import lazy
from citewise.store.fts import may_hold_cjk, query_tokens

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


_VOWEL = re.compile("[aeiouy]")
# A doubled final consonant is undone ("stopp" -> "stop", "labell" -> "label"), in every
# word so that "staff" meets "staffed"; s and z stay doubled ("class", "buzz"), and l in
# four letters ("call", "fill").
_DOUBLED = re.compile(r"([b-df-hj-np-rtv-xz])\1$")


def _singular(w: str) -> str:
    """Plural -s / -es / -ies off: "studies" -> "study", "boxes" -> "boxe" (the final e
    goes later, as it goes from "make"), "class", "corpus", "analysis" kept."""
    if w.endswith("yses"):
        return w[:-4] + "ysis"
    if w.endswith("ies") and len(w) >= 5:
        return w[:-3] + "y"
    if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) >= 4:
        return w[:-1]
    return w


def _without_verb_ending(w: str) -> str:
    """-ied / -ed / -ing off when what is left is a word (three letters or more, with a
    vowel): "applied" -> "apply", "approved" -> "approv"; "string", "need" kept (-eed:
    see stem)."""
    if w.endswith("ied") and len(w) >= 5:
        return w[:-3] + "y"
    if w.endswith("eed"):
        return w
    for ending in ("ing", "ed"):
        rest = w[: -len(ending)]
        if w.endswith(ending) and len(rest) >= 3 and _VOWEL.search(rest):
            return rest
    return w


def _undoubled(w: str) -> str:
    doubled = len(w) > 3 and _DOUBLED.search(w)
    return w[:-1] if doubled and (w[-1] != "l" or len(w) > 4) else w


@lru_cache(maxsize=1 << 16)  # a pure function of the word; ingest stems each word many times
def stem(word: str) -> str:
    """A deliberately light stemmer: regular plural and verb endings only, written so a
    word and its inflections meet: "approve", "approves", "approved", "approving" ->
    "approv"; "study", "studies", "studied" -> "study"; "stop", "stopped" -> "stop"."""
    w = word.lower()
    if len(w) <= 3 or _NUMBER.match(w):
        return w
    w = _singular(w)
    bare = _without_verb_ending(w)
    if bare != w and _undoubled(bare) != bare:
        # a doubled consonant ends the stem itself: "embedded" -> "embed" -> "emb", as
        # "embed" goes; "stopped" -> "stop"
        bare = _without_verb_ending(_undoubled(bare))
    w = bare
    if w.endswith("eed") and _VOWEL.search(w[:-3]):  # "agreed" as "agree", "exceed(ed)"
        w = w[:-1]
    # the silent final e that -ed and -ing drop ("make", "value", "shoe"); not after e or i
    if w.endswith("e") and len(w) > 3 and w[-2] not in "ei" and _VOWEL.search(w[:-1]):
        w = w[:-1]
    elif w.endswith("ie") and len(w) >= 5:  # "movie" as "movies" -> "movy"
        w = w[:-2] + "y"
    return _undoubled(w)


# (compiled on first use, by a text with a character from U+3040 on: each CJK class costs
# ~7 ms to compile, which an English question and library never need)
_CJK_RUN = lazy("^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+$")
# CJK characters that only glue a sentence together; a pair across one says nothing
_CJK_GLUE = frozenset("的了是在和与及或也都就而之其这那个")


def _pairs(run: str) -> list[str]:
    """A CJK run as its overlapping character pairs (as the keyword index has them), so that
    "准确率" in a question meets "准确率" in a sentence without a segmenter."""
    if len(run) < 2:
        return [run]
    pairs = [run[i : i + 2] for i in range(len(run) - 1)]
    return [p for p in pairs if not (p[0] in _CJK_GLUE or p[1] in _CJK_GLUE)] or pairs


_CJK_CHAR = lazy("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def word_count(text: str) -> int:
    """Words of a text as a length: whitespace words, and a CJK word for each two CJK
    characters (CJK writes no spaces between words)."""
    cjk = len(_CJK_CHAR.findall(text)) if may_hold_cjk(text) else 0
    if not cjk:
        return len(text.split())
    return len(_CJK_CHAR.sub(" ", text).split()) + (cjk + 1) // 2


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens (letters and digits; CJK runs as character pairs)."""
    found: list[str] = []
    for t in query_tokens(text):
        found += _pairs(t) if may_hold_cjk(t) and _CJK_RUN.match(t) else [t.lower()]
    return found


def content_terms(text: str) -> list[str]:
    """Tokens worth searching for: no stopwords, no one-letter tokens, in order, unique."""
    terms = [t for t in tokens(text) if t not in STOPWORDS and (len(t) > 1 or t.isdigit())]
    return list(dict.fromkeys(terms))
