"""Whether a text is Chinese, told cheaply: every question is checked before any Chinese
code (lang/zh.py, its dictionary and segmenter; agent/bridge/crosslingual.py) is loaded for it."""

from __future__ import annotations

import re

from citewise.regex import lazy

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# (compiled on first use: a class of 28,000 characters takes ~7 ms to compile, and an
# English question never needs it)
HAN_CHAR = lazy(f"[{HAN}]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")


def is_chinese(text: str) -> bool:
    """At least two Han characters, and they outnumber the Latin letters' words."""
    if not text or max(text) < "\u3400":  # (a C-speed look: no Han character at all)
        return False
    han = len(HAN_CHAR.findall(text))
    return han >= 2 and han >= len(_LATIN_WORD.findall(text))
