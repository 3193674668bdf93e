"""Section headings: heading text and lines, numbering depth, section paths."""

from __future__ import annotations

import re

from citewise.documents.model import Block
from citewise.documents.pdf import layout
from citewise.documents.pdf.captions import caption_label
from citewise.documents.pdf.layout import BULLET, Row, Seg, Unit

NUMBERING = re.compile(r"^(?:(\d+(?:\.\d+)*)\.?|([A-Z](?:\.\d+)+)\.?|([A-Z])\.|([IVX]+)\.)\s+\S")
KNOWN_HEADINGS = {
    "abstract",
    "introduction",
    "references",
    "bibliography",
    "literature cited",
    "acknowledgments",
    "acknowledgements",
    "acknowledgment",
    "acknowledgement",
    "conclusion",
    "conclusions",
    "methods",
    "materials and methods",
    "methodology",
    "results",
    "discussion",
    "results and discussion",
    "background",
    "appendix",
    "appendices",
    "related work",
    "limitations",
    "future work",
    "evaluation",
    "experiments",
    "summary",
    "competing interests",
    "funding",
    "author contributions",
    "authors' contributions",
    "data availability",
    "ethics statement",
    "keywords",
    "conclusions and future work",
    "supplementary material",
    "declarations",
}
HEADING_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*|[IVX]+)\.?\s+")
WORDLIKE = re.compile(r"[A-Za-z]{3}")
REFERENCE_HEADINGS = {"references", "bibliography", "literature cited", "works cited"}


def heading_name(text: str) -> str:
    """Heading text without numbering or trailing colon, lower-case."""
    name = HEADING_NUMBER.sub("", text.strip())
    return name.rstrip(":.").strip().lower().replace("’", "'")


def is_known_heading(text: str) -> bool:
    name = heading_name(text)
    return name in KNOWN_HEADINGS or name.startswith("appendix")


def is_reference_heading(text: str) -> bool:
    return heading_name(text) in REFERENCE_HEADINGS


def heading_candidate(text: str, continued: bool = False) -> bool:
    """Short, starts like a title (unless `continued`), does not end like a sentence."""
    text = text.strip()
    if not 2 <= len(text) <= 150 or len(text.split()) > 18:
        return False
    if text.endswith((",", ";", "-")) and not continued:
        return False
    if text.endswith((".", ":")) and not is_known_heading(text):
        return False
    if not WORDLIKE.search(text):  # a heading has at least one real word
        return False
    letters = sum(map(str.isalpha, text))
    starts = continued or text[0].isupper() or text[0].isdigit()
    return starts and letters >= 0.5 * len(text.replace(" ", ""))


def heading_level(text: str) -> int | None:
    """Depth from numbering: '2' -> 1, '2.1' -> 2, 'A.1' -> 2; None when unnumbered."""
    m = NUMBERING.match(text.strip())
    if not m:
        return None
    if m.group(1):
        return m.group(1).count(".") + 1
    if m.group(2):
        return m.group(2).count(".") + 1
    return 1


# --- heading lines inside a unit ------------------------------------------------------


def split_unit(unit: Unit, body: Seg) -> list[Unit]:
    """Cut a unit around heading lines, and before a bullet or a caption start."""
    rows, leads = split_run_ins(unit.rows, body, unit)
    heads = [i in leads or _row_is_heading(r, body, unit) for i, r in enumerate(rows)]
    if not any(heads):
        return _split_plain(rows, unit)
    for i in range(1, len(rows)):
        # mid-paragraph emphasis is not a heading: one must follow a finished line
        if heads[i] and not heads[i - 1] and not _ends_line(rows[i - 1], unit):
            heads[i] = False
        # a long title wraps: its next line has the same style but may start lower-case
        if heads[i - 1] and not heads[i] and _style_key(rows[i]) == _style_key(rows[i - 1]):
            heads[i] = heading_candidate(rows[i].text, continued=True)
    parts: list[list[int]] = [[]]
    for i, row in enumerate(rows):
        if i and (
            heads[i] != heads[i - 1]
            or (heads[i] and _style_key(row) != _style_key(rows[i - 1]))
            or BULLET.match(row.text)
            or (caption_label(row.text) and _ends_line(rows[i - 1], unit))
        ):
            parts.append([])
        parts[-1].append(i)
    out = []
    for idx in parts:
        piece = Unit([rows[i] for i in idx], col=unit.col)
        # a heading set as a block of its own still must not merge into the prose above
        alone = len(parts) == 1 and heading_level(piece.text) is not None
        if (len(parts) > 1 or alone) and heads[idx[0]] and len(idx) <= 3:
            piece.data["heading_row"] = True
            if idx[0] in leads:
                piece.data["run_in"] = True
        out.append(piece)
    return out


# what a bullet (layout.BULLET) or a caption label (captions.CAPTION) starts with
_CUT_STARTS = frozenset("•◦▪‣∙●○■□➢►–—TFS")


def _split_plain(rows: list[Row], unit: Unit) -> list[Unit]:
    """split_unit for a unit without heading rows: cut only before a bullet or a caption
    start (row texts are whitespace-collapsed, so their first character tells). `rows`
    are the unit's own (no run-in lead was split off)."""
    out: list[Unit] = []
    start = 0
    for i in range(1, len(rows)):
        text = rows[i].text
        if text[:1] in _CUT_STARTS and (
            BULLET.match(text) or (caption_label(text) and _ends_line(rows[i - 1], unit))
        ):
            out.append(Unit(rows[start:i], col=unit.col))
            start = i
    if not start:  # nothing to cut (most units): the unit itself, with what it worked out
        return [unit]
    out.append(Unit(rows[start:], col=unit.col))
    return out


def split_run_ins(rows: list[Row], body: Seg, unit: Unit) -> tuple[list[Row], set[int]]:
    """'Selecting PDFs We remove…': a bold lead-in opening a paragraph line becomes a row
    of its own (returned with the indices of such rows), so heading and paragraph part."""
    out: list[Row] = []
    leads: set[int] = set()
    for i, row in enumerate(rows):
        lead = run_in_lead(row, body)
        if lead and (i == 0 or _ends_line(rows[i - 1], unit)):  # it opens a line
            leads.add(len(out))
            out += [Row(row.segs[:lead]), Row(row.segs[lead:])]
        else:
            out.append(row)
    return out, leads


def run_in_lead(row: Row, body: Seg) -> int:
    """How many leading segments of the row are a bold run-in heading (0: none)."""
    if body.bold or len(row.segs) < 2 or not row.segs[0].bold:
        return 0
    n = next((k for k, seg in enumerate(row.segs) if not seg.bold), 0)
    lead = " ".join(seg.text for seg in row.segs[:n]).strip()
    rest = row.segs[n:] if n else []
    if not rest or abs(row.segs[0].size - body.size) > 0.6 or lead.endswith((":", ",")):
        return 0
    if caption_label(lead) or BULLET.match(lead) or len(lead.split()) > 10:
        return 0
    words = " ".join(seg.text for seg in rest).split()
    # a heading, then a sentence: the paragraph starts with a capital or a number
    if not heading_candidate(lead.rstrip(".")) or not words or not words[0][:1].isupper():
        return 0
    return n


def _style_key(row: Row) -> tuple[float, bool, str]:
    s = row.style
    return (round(s.size), s.bold, s.font)


def _row_is_heading(row: Row, body: Seg, unit: Unit) -> bool:
    """A line set apart by style that reads like a heading, not a sentence."""
    s = row.style
    big = s.size >= body.size + 0.9
    bold = s.bold and not body.bold
    face = s.font != body.font and abs(s.size - body.size) <= 1.0
    # (a lead-in in another face is only ever the unit's first row: asked of that one)
    if not (big or bold or face or (row is unit.rows[0] and _lead_in_other_face(row, unit))):
        return False  # set like the body text (most rows: decided before their text is read)
    main = [seg for seg in row.segs if len(seg.text.strip()) > 2]
    # a bold lead-in followed by plain text on the same line is a run-in heading
    if any(seg.bold != s.bold or abs(seg.size - s.size) > 0.6 for seg in main):
        return False
    if not heading_candidate(row.text) or layout.is_mono(s.font):
        return False
    if big:
        return True
    others = [r.x1 for r in unit.rows if r is not row]
    if others and row.x1 >= max(others) - 2 * s.size:
        return False  # it fills the line
    if bold:
        return True
    if len(row.text) > 60:
        return False
    return face or _lead_in_other_face(row, unit)


def _lead_in_other_face(row: Row, unit: Unit) -> bool:
    """A run-in title in another face: 'References' atop small-print entries."""
    return row is unit.rows[0] and len(unit.rows) > 1 and row.style.font != unit.style.font


def _ends_line(row: Row, unit: Unit) -> bool:
    """A row that ends a paragraph: sentence end or well short of the right edge."""
    return row.text.rstrip().endswith((".", ":", "?", "!")) or row.x1 < unit.bbox[2] - 30


def unit_is_heading(unit: Unit, body: Seg) -> bool:
    text = unit.text
    run_in = bool(unit.data.get("run_in")) and heading_candidate(text.rstrip("."))
    if len(unit.rows) > 3 or not (run_in or heading_candidate(text)):
        return False
    if is_known_heading(text):
        return True
    s = unit.style
    if s.size < body.size - 1.0:  # figure labels, table notes, small print
        return False
    if unit.data.get("heading_row"):
        return True
    distinct = (s.bold and not body.bold) or s.size >= body.size + 0.9
    return distinct or (heading_level(text) is not None and s.font != body.font)


# --- section paths --------------------------------------------------------------------


def assign_sections(blocks: list[Block], title: int | None) -> None:
    """Set section_path from the heading chain; demote page-1 front matter that is not a heading."""
    stack: list[tuple[int, str, bool]] = []  # (level, text, run-in)
    levels: dict[tuple[int, bool], int] = {}
    started = False
    for i, block in enumerate(blocks):
        if block.kind == "heading" and i != title:
            numbered = heading_level(block.text)
            known = is_known_heading(block.text)
            # author lines and banners on page 1 are bold too, but are not sections
            if not started and block.page == 1 and numbered is None and not known:
                block.kind = "paragraph"
            else:
                started = True
                level = _level(block, numbered, known, stack, levels)
                while stack and stack[-1][0] >= level:
                    stack.pop()
                stack.append((level, block.text, _is_run_in(block, numbered, known)))
        block.section_path = "" if i == title else " > ".join(t for _, t, _ in stack)


def _level(
    block: Block,
    numbered: int | None,
    known: bool,
    stack: list[tuple[int, str, bool]],
    levels: dict[tuple[int, bool], int],
) -> int:
    key = (round(block.font_size), block.bold)
    if numbered is not None or known:
        levels.setdefault(key, numbered or 1)
        return numbered or 1
    if _is_run_in(block, numbered, known):  # it sits under the section it is in
        while stack and stack[-1][2]:
            stack.pop()
        return stack[-1][0] + 1 if stack else 1
    larger = [lv for (size, _), lv in levels.items() if size > key[0]]
    return levels.get(key) or (max(larger) + 1 if larger else 1)


def _is_run_in(block: Block, numbered: int | None, known: bool) -> bool:
    """'Papers. We obtain…', 'Selecting PDFs We remove…': a lead-in set inside a paragraph."""
    if numbered is not None or known:
        return False
    return block.text.endswith(".") or bool((block.data or {}).get("run_in"))
