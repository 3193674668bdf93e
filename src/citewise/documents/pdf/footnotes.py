"""Footnote marks: raised, smaller spans kept out of the running text and linked to notes.

A PyMuPDF span gives its font size and baseline (`origin`). A mark is a run of spans set
smaller than the line's main span and raised above its baseline, made of digits or the
note symbols (* ∗ † ‡ § ¶), that follows a word: "GROBID v0.5.5¹⁰" reads "GROBID v0.5.5"
and remembers mark "10". At the start of a line the same run is the note's own label
("¹⁰ https://…" reads "10 https://…"). Raised text that is not a mark (x², 10⁵) stays.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from citewise.documents.pdf.segments import round_size

if TYPE_CHECKING:
    from citewise.documents.model import Block

MARK = re.compile(r"^[\d∗*†‡§¶,]+$")
LONE_LETTER = re.compile(r"(?:^|[^\w])[^\W\d_]$")
POWER_OF_TEN = re.compile(r"(?:^|[×x·])10$")
MARK_TOKENS = re.compile(r"\d+|[^\d,\s]")
SMALLER = 0.85  # a mark's size relative to the line's main span
RAISED = 0.2  # baseline lift, in main-span sizes


def _raised(span: dict[str, Any], main: dict[str, Any]) -> bool:
    if span["size"] >= SMALLER * main["size"]:
        return False
    lift = main["origin"][1] - span["origin"][1]
    return bool(lift > RAISED * main["size"])


def _is_mark(text: str, before: str) -> bool:
    """Digits or note symbols after a word (not an exponent after a lone letter or 10)."""
    mark = text.strip()
    if not mark or not MARK.match(mark) or mark == ",":
        return False
    if not before or before[-1:].isspace():
        return True
    token = before.split()[-1]
    letter = LONE_LETTER.search(token)  # a lone letter: x, |N, (σ
    power = letter or POWER_OF_TEN.search(token)
    return not (mark[0].isdigit() and power)  # x², R², 10⁵: a power, not a note


def _level(live: list[dict[str, Any]]) -> bool:
    """No inked span is set smaller than a mark's share of the largest one."""
    if len(live) == 1:
        return bool(live[0]["size"] > 0)
    sizes = [s["size"] for s in live]
    least = min(sizes)
    return bool(least > 0 and least >= SMALLER * max(sizes))


def _main(spans: list[dict[str, Any]]) -> dict[str, Any]:
    """The span standing for the line's body text: the largest size set in words."""
    words = [s for s in spans if len(s["text"].strip()) >= 2] or spans
    return max(words, key=lambda s: (round_size(s["size"], 1), len(s["text"].strip())))


def split_marks(run: str) -> list[str]:
    """'1,2' -> ['1', '2']; '†‡' -> ['†', '‡']."""
    return MARK_TOKENS.findall(run)


def line_text(
    spans: list[dict[str, Any]], live: list[dict[str, Any]] | None = None, even: bool = False
) -> tuple[str, list[str], str | None]:
    """The line's text without note marks, the marks it carried, and a note's own label.
    `live`: the spans with ink, when the caller has them; `even`: the caller knows every
    span is within a mark's size of the largest (scripts.level), so none is a mark."""
    if live is None:
        live = [s for s in spans if s["text"].strip()]
    if not live:
        return "".join(s["text"] for s in spans).strip(), [], None
    if even or _level(live):  # one size (most lines): no mark
        text = spans[0]["text"] if len(spans) == 1 else "".join([s["text"] for s in spans])
        return " ".join(text.split()), [], None
    main = live[0] if len(live) == 1 else _main(live)
    size = main["size"]
    if not any(  # no raised run: the text as set (OCR'd words have no origin)
        s["size"] < SMALLER * size and _raised(s, main) and s["text"].strip() for s in spans
    ):
        return " ".join("".join(s["text"] for s in spans).split()), [], None
    out = ""
    marks: list[str] = []
    label: str | None = None
    i = 0
    while i < len(spans):
        j = i
        while j < len(spans) and spans[j]["text"].strip() and _raised(spans[j], main):
            j += 1
        if j == i:
            out += spans[i]["text"]
            i += 1
            continue
        run = "".join(s["text"] for s in spans[i:j])
        if not out.strip() and j < len(spans) and _is_mark(run, ""):
            label = run.strip()
            out = label + " "  # a note's own label opens its line
        elif _is_mark(run, out):
            marks.extend(split_marks(run))
            if j < len(spans) and spans[j]["text"][:1].isalnum() and out[-1:].strip():
                out += " "  # never let the next word join the one before the mark
        else:
            out += run
        i = j
    return " ".join(out.split()), marks, label


def link(blocks: list[Block]) -> None:
    """Link each block's marks to the footnote block they point at (by ordinal).

    A block carrying marks gets data['footnotes'] = {mark: ordinal}; the note (whose
    lines opened with data['labels']) gets data['cited_by'] = {mark: [ordinals]}.
    Marks are looked up on the same page first (notes restart per page in some
    styles), then anywhere after the mark.
    """
    notes: dict[str, list[Block]] = {}
    for block in blocks:
        labels = (block.data or {}).get("labels")
        for label in labels if isinstance(labels, list) else []:
            notes.setdefault(label, []).append(block)
    for block in blocks:
        marks = (block.data or {}).get("marks")
        if not isinstance(marks, list):
            continue
        found: dict[str, int] = {}
        for mark in marks:
            candidates = [n for n in notes.get(mark, []) if n.page >= block.page]
            same = [n for n in candidates if n.page == block.page]
            if not candidates:
                continue
            note = (same or candidates)[0]
            found[mark] = note.ordinal
            note.data = note.data if note.data is not None else {}
            cited = note.data.setdefault("cited_by", {})
            if isinstance(cited, dict):
                cited.setdefault(mark, []).append(block.ordinal)
        if found:
            block.data = {**(block.data or {}), "footnotes": found}
