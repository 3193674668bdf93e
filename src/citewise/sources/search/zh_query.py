"""A Chinese search request, read before sources/search/intent.py (issue 19): year ranges and
publication types written in Chinese become the English words the intent parser turns into
each source's own filters, and the topic is translated offline (lang/zh.py), so
PubMed and arXiv get English. The translation is returned as a note to show and log."""

from __future__ import annotations

import re

from citewise.lang.zh import is_chinese, translate_words

# Chinese filter words -> the English that sources/search/intent.py reads (longest first).
FILTER_WORDS: tuple[tuple[str, str], ...] = (
    ("系统综述", " systematic review "),
    ("荟萃分析", " meta-analysis "),
    ("元分析", " meta-analysis "),
    ("随机对照试验", " randomized controlled trial "),
    ("预印本", " preprint "),
    ("综述", " review "),
)
_RANGE = re.compile(r"[（(]?\s*((?:19|20)\d\d)\s*[-–—~～至到]\s*((?:19|20)\d\d)\s*年?\s*[）)]?")
_SINCE = re.compile(r"((?:19|20)\d\d)\s*年?\s*(?:以来|之后|后)")
_LAST = re.compile(r"(?:近|最近|过去)\s*(\d+|[一二三四五六七八九十])\s*年")
_YEAR = re.compile(r"[（(]?\s*((?:19|20)\d\d)\s*年\s*[）)]?")
_NUMERALS = "一二三四五六七八九十"


def _filters(text: str) -> str:
    text = _RANGE.sub(lambda m: f" {m.group(1)}-{m.group(2)} ", text)
    text = _SINCE.sub(lambda m: f" since {m.group(1)} ", text)

    def last(m: re.Match[str]) -> str:
        n = m.group(1)
        count = int(n) if n.isdigit() else _NUMERALS.index(n) + 1
        return f" last {count} years "

    text = _LAST.sub(last, text)
    text = _YEAR.sub(lambda m: f" {m.group(1)} ", text)
    for chinese, english in FILTER_WORDS:
        text = text.replace(chinese, english)
    return text


def english_request(text: str) -> tuple[str, list[str]]:
    """(the request in English, notes saying what was translated); unchanged if not Chinese."""
    if not is_chinese(text):
        return text, []
    marked = _filters(text)
    pieces = re.split(r"([A-Za-z0-9][A-Za-z0-9 .:\-]*[A-Za-z0-9])", marked)
    english = " ".join(
        p.strip() if not is_chinese(p) else translate_words(p) for p in pieces if p.strip()
    )
    english = " ".join(english.split())
    return english, [f"translated from Chinese: {text!r} -> {english!r}"]
