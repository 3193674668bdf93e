"""Query words as every keyword search splits them: word runs, and CJK runs kept whole.

The keyword postings (retrieval/postings.py) and PostgreSQL's tsvector (postgres/text.py)
each index CJK text in their own way; a query splits the same way for both.
"""

from __future__ import annotations

import re

from citewise.regex import lazy

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
    "\uac00-\ud7af"  # hangul syllables
)
_TOKEN = lazy(rf"[{_CJK}]+|[^\W_]+", re.UNICODE)  # (the CJK class: ~7 ms to compile)
_WORD_TOKEN = re.compile(r"[^\W_]+")  # what _TOKEN finds in a text without CJK


def may_hold_cjk(text: str) -> bool:
    """Whether `text` has a character from U+3040 on, where the CJK ranges start: `max` is a
    C-speed look, and without one no CJK class needs compiling (each costs ~7 ms)."""
    return bool(text) and max(text) >= "\u3040"


def query_tokens(text: str) -> list[str]:
    """Word tokens of a query; a CJK run stays one token."""
    if not may_hold_cjk(text):
        return _WORD_TOKEN.findall(text)
    return _TOKEN.findall(text)
