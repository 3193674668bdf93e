"""Query words as every keyword search splits them: word runs, and CJK runs kept whole.

The keyword postings (retrieval/postings.py) and PostgreSQL's tsvector (postgres/text.py)
each index CJK text in their own way; a query splits the same way for both.
"""

from __future__ import annotations

import re

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
    "\uac00-\ud7af"  # hangul syllables
)
_TOKEN = re.compile(rf"[{_CJK}]+|[^\W_]+", re.UNICODE)


def query_tokens(text: str) -> list[str]:
    """Word tokens of a query; a CJK run stays one token."""
    return _TOKEN.findall(text)
