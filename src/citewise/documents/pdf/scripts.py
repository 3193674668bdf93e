"""Stacked scripts: a subscript and a superscript set on one base, read in TeX's order.

PyMuPDF returns `ζ` with its superscript `ψ(gs)` as one line (the raised spans sit on
the base's line) and the subscript `n`, lower, as a line of its own that starts where the
superscript starts. Read as lines, the formula comes out "ζψ(gs) n". The subscript line
joins its base's line just before the superscript, so the text reads "ζnψ(gs)": base,
subscript, superscript, as TeX writes ζ_n^{ψ(gs)}.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

SCRIPT = 0.85  # a script's size relative to its base
Line = dict[str, Any]  # a line of get_text("dict")
_SIZE = itemgetter("size")


def level(spans: list[dict[str, Any]]) -> bool:
    """Every span within a script's size of the largest (most lines): none of them can be
    a superscript, a subscript or a footnote mark."""
    if len(spans) == 1:
        return bool(spans[0]["size"] > 0)
    sizes = list(map(_SIZE, spans))
    least = min(sizes)
    return bool(least > 0 and least >= SCRIPT * max(sizes))


def _raised_after(spans: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(superscript, base) span indices where a superscript starts: a span smaller than
    the inked span before it and raised above that one's baseline by a fifth of its size
    or more (later spans of the same superscript are not listed)."""
    out = []
    base: int | None = None
    rising = False
    for i, span in enumerate(spans):
        if not span["text"].strip():
            continue
        if base is not None:
            lift = spans[base]["origin"][1] - span["origin"][1]
            size = spans[base]["size"]
            if span["size"] < SCRIPT * size and lift > 0.2 * size:
                if not rising:
                    out.append((i, base))
                rising = True
                continue  # the superscript's later spans rise from the same base
        base, rising = i, False
    return out


def _subscript_line(line: Line, base: dict[str, Any], sup: dict[str, Any]) -> bool:
    """A short line of script-size text without spaces that starts under `sup` and sits
    lower than it, inside the base's line height: the subscript stacked under it."""
    spans = [s for s in line["spans"] if s["text"].strip()]
    text = "".join(s["text"] for s in spans).strip()
    if not spans or len(text) > 8 or " " in text:
        return False
    x0, y0, _, _ = line["bbox"]
    lower = spans[0]["origin"][1] - sup["origin"][1] > 0.3 * base["size"]
    small = all(s["size"] < SCRIPT * base["size"] for s in spans)
    inside = sup["bbox"][1] < y0 < base["bbox"][3]
    return abs(x0 - sup["bbox"][0]) <= 1.5 and lower and small and inside


def stack_scripts(lines: list[Line], uneven: list[int] | None = None) -> list[Line | None]:
    """The page's lines with each stacked subscript moved into its base's line, before
    the superscript (its own place left None); other lines are returned as they are.
    `uneven`: the indices of the lines that are not `level`, when the caller has them."""
    out: list[Line | None] = list(lines)
    if uneven is None:
        uneven = [k for k, line in enumerate(lines) if len(line["spans"]) > 1]
        uneven = [k for k in uneven if not level(lines[k]["spans"])]
    if not uneven:
        return out
    short = [k for k, line in enumerate(lines) if len(line["spans"]) <= 3]
    for k in uneven:
        line = lines[k]
        if len(line["spans"]) < 2:  # a superscript needs a base before it
            continue
        raised = _raised_after(line["spans"])
        if not raised:
            continue
        spans = list(line["spans"])
        box = tuple(line["bbox"])
        for i, b in reversed(raised):  # from the right: indices hold
            left = spans[i]["bbox"][0]
            sub = next(
                (
                    j
                    for j in short
                    if j != k
                    and abs(lines[j]["bbox"][0] - left) <= 1.5  # starts under the script
                    and out[j] is lines[j]
                    and _subscript_line(lines[j], spans[b], spans[i])
                ),
                None,
            )
            if sub is None:
                continue
            out[sub] = None
            spans[b + 1 : b + 1] = lines[sub]["spans"]  # right after the base
            s = lines[sub]["bbox"]
            box = (min(box[0], s[0]), min(box[1], s[1]), max(box[2], s[2]), max(box[3], s[3]))
        if len(spans) > len(line["spans"]):
            out[k] = {**line, "spans": spans, "bbox": box}
    return out
