"""Text as PostgreSQL's full-text search sees it: English stemming, CJK as bigrams.

The English parser keeps a run of Chinese or Japanese characters as one word, so
"检索增强" would only match itself whole. Each CJK run is indexed as its overlapping
character bigrams (a single character stays as it is), and a CJK query term becomes the
phrase of its bigrams, so any CJK substring of two or more characters is findable.
"""

from __future__ import annotations

import re

from citewise.store.fts import _CJK

_CJK_RUN = re.compile(f"[{_CJK}]+")
CONFIG = "english"


def bigrams(run: str) -> list[str]:
    """The overlapping character pairs of a CJK run (the run itself when shorter)."""
    return [run[i : i + 2] for i in range(len(run) - 1)] or [run]


def index_text(text: str) -> str:
    """The text handed to to_tsvector: every CJK run replaced by its bigrams."""
    return _CJK_RUN.sub(lambda m: " " + " ".join(bigrams(m.group())) + " ", text)


def _quote(lexeme: str) -> str:
    return "'" + lexeme.replace("'", "''").replace("\\", "") + "'"


def term_query(term: str) -> tuple[str, str]:
    """(SQL, parameter) of a tsquery for one query term: a CJK run as the phrase of its
    bigrams (kept as written), other terms stemmed like the indexed text."""
    if _CJK_RUN.fullmatch(term):
        phrase = " <-> ".join(_quote(b) for b in bigrams(term))
        return "to_tsquery('simple', %s)", phrase
    return f"plainto_tsquery('{CONFIG}', %s)", term


def any_terms_query(terms: list[str]) -> tuple[str, list[str]]:
    """A tsquery matching blocks holding any of `terms` (ts_rank ranks those with more)."""
    parts, params = [], []
    for term in dict.fromkeys(terms):
        sql, param = term_query(term)
        parts.append(sql)
        params.append(param)
    return " || ".join(parts), params
