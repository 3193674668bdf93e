"""Is a page's text layer usable? Detects garbled text (broken font encodings).

Born-digital PDFs sometimes carry a text layer whose characters are shifted or mapped to
the wrong glyphs ("Opnbddchmfr ne sgd ..."). Such text must never be cited. OCR itself is
a later addition; this module only decides whether to trust the layer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FUNCTION_WORDS = frozenset(
    [
        "the",
        "of",
        "and",
        "to",
        "in",
        "a",
        "is",
        "for",
        "that",
        "with",
        "on",
        "as",
        "by",
        "are",
        "we",
        "this",
        "be",
        "from",
        "at",
        "or",
        "an",
        "it",
        "which",
        "was",
        "were",
        "not",
        "can",
        "these",
        "has",
        "have",
        "our",
        "their",
        "its",
        "than",
        "also",
        "been",
        "such",
        "but",
        "into",
        "each",
        "all",
        "more",
        "one",
        "two",
        "when",
        "where",
        "how",
        "both",
        "other",
        "may",
        "if",
        "only",
        "between",
        "using",
        "used",
    ]
)
VOWELS = set("aeiouyAEIOUY")
WORD = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class TextStats:
    """Signals that separate language from cipher-like noise."""

    tokens: int
    function_share: float  # English function words among word tokens
    voweless_share: float  # non-acronym words of 3+ letters without a vowel ("sgd", "mmtZk")
    inner_caps_share: float  # words with a capital after a lower-case letter ("KZmftZfd")


def text_stats(text: str) -> TextStats:
    words = WORD.findall(text)
    if not words:
        return TextStats(0, 0.0, 0.0, 0.0)
    n = len(words)
    function = sum(w.lower() in FUNCTION_WORDS for w in words)
    # acronyms (BLAST, HMM) legitimately lack vowels; cipher text is mostly lower-case
    long_words = [w for w in words if len(w) >= 3 and w.isascii() and not w.isupper()]
    voweless = sum(not (set(w) & VOWELS) for w in long_words)
    inner = sum(bool(re.search(r"[a-z][A-Z]", w)) for w in words)
    return TextStats(
        tokens=n,
        function_share=function / n,
        voweless_share=voweless / max(1, len(long_words)),
        inner_caps_share=inner / n,
    )


def page_text_is_garbage(text: str) -> bool:
    """True when a page's text layer looks like noise rather than language.

    Needs a real amount of text to judge (short pages are trusted). Prose in English
    has plenty of function words; text in other languages or code still has word-like
    tokens, so a low function-word share alone is not enough: the tokens must also look
    cipher-like (vowel-less words, capitals inside words).
    """
    stats = text_stats(text)
    if stats.tokens < 40 or stats.function_share >= 0.05:
        return False
    # a real page of tables or code still has vowels in its words (< 15% vowel-less here)
    return stats.voweless_share > 0.3 or (
        stats.voweless_share > 0.2 and stats.inner_caps_share > 0.15
    )
