"""Words set without space characters: the font leaves a gap where a space would be."""

from __future__ import annotations

import re
from typing import Any

GLUED = re.compile(r"[^\W\d_]{20,}")  # a run of letters too long for one word


def span_text(raw: dict[str, Any]) -> str:
    """The texts of all spans of `raw` (a page's get_text('dict')), one a line."""
    return "\n".join(
        [
            span["text"]
            for block in raw.get("blocks", [])
            for line in block.get("lines", [])
            for span in line["spans"]
        ]
    )


def needs_respacing(raw: dict[str, Any], text: str | None = None) -> bool:
    """Some fonts set word spaces as gaps, not characters: 'CompositionofthedataforOLMo'.
    `text`: `span_text(raw)`, when the caller has it already."""
    text = span_text(raw) if text is None else text
    # a run of letters lies inside one word: only long words are searched
    return any(GLUED.search(word) for word in text.split() if len(word) >= 20)


def respace(raw: dict[str, Any], chars: dict[str, Any]) -> None:
    """Put a space where `chars` (the page's rawdict) shows a word gap in a span that has
    no space characters (on a page `needs_respacing` picked)."""
    spaced: dict[tuple[float, float], str] = {}
    for block in chars.get("blocks", []):
        for line in block.get("lines", []):
            for span in line["spans"]:
                cs = span.get("chars", [])
                text = "".join(c["c"] for c in cs)
                if " " in text.strip():  # this span sets its spaces as characters
                    continue
                out = ""
                for a, b in zip(cs, [*cs[1:], None], strict=True):
                    out += a["c"]
                    if b is not None and b["bbox"][0] - a["bbox"][2] > 0.1 * span["size"]:
                        out += " " if not a["c"].isspace() and not b["c"].isspace() else ""
                spaced[(round(span["bbox"][0], 1), round(span["bbox"][1], 1))] = out
    for block in raw.get("blocks", []):
        for line in block.get("lines", []):
            for span in line["spans"]:
                key = (round(span["bbox"][0], 1), round(span["bbox"][1], 1))
                if key in spaced and spaced[key].replace(" ", "") == span["text"].replace(" ", ""):
                    span["text"] = spaced[key]
