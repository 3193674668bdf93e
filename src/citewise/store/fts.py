"""Text as the FTS5 index sees it, and queries in FTS5's syntax.

FTS5's unicode61 tokenizer keeps a run of Chinese or Japanese characters as one token, so
"检索增强" would only match itself whole. Indexing each CJK character as its own token and
querying CJK runs as phrases makes any CJK substring findable, with BM25 intact.
"""

from __future__ import annotations

import re

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
    "\uac00-\ud7af"  # hangul syllables
)
_CJK_CHAR = re.compile(f"([{_CJK}])")
_TOKEN = re.compile(rf"[{_CJK}]+|[^\W_]+", re.UNICODE)


def index_text(text: str) -> str:
    """The text to store in the FTS index: CJK characters separated by spaces."""
    return _CJK_CHAR.sub(r" \1 ", text)


def query_tokens(text: str) -> list[str]:
    """Word tokens of a query; a CJK run stays one token (searched as a phrase)."""
    return _TOKEN.findall(text)


def match_expression(terms: list[str]) -> str:
    """An FTS5 MATCH expression that ORs the terms (BM25 ranks blocks matching more)."""
    parts = []
    for term in dict.fromkeys(terms):
        phrase = " ".join(_CJK_CHAR.findall(term)) if _CJK_CHAR.search(term) else term
        parts.append('"' + phrase.replace('"', "") + '"')
    return " OR ".join(parts)
