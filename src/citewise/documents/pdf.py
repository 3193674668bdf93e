"""PDF reader: a file on disk -> Document with blocks in reading order.

Pipeline: PyMuPDF text lines (layout.page_segments) -> running heads dropped ->
units in reading order (layout.page_units) -> per page: split around headings, classify
(caption, equation, code, list, table, footnote), fuse tables and broken paragraphs ->
bibliography entries -> section paths over the whole document -> first-page metadata.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from pathlib import Path

import pymupdf

from citewise.documents import layout
from citewise.documents.layout import (
    Row,
    Seg,
    Unit,
    caption_label,
    heading_candidate,
    heading_level,
    is_known_heading,
    is_reference_heading,
)
from citewise.documents.metadata import extract_metadata, title_block_index
from citewise.documents.model import Block, Document
from citewise.documents.ocr import page_text_is_garbage
from citewise.errors import BadDocumentError

# ligatures expanded (ﬁ -> fi) so text matches what people type; images skipped
TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
REPAIR = "re-download or re-export the file"
DAMAGE = ("premature end", "page tree load failed", "missing 'endobj'", "non-page object")
BULLET = re.compile(r"^[•◦▪‣∙●○■□➢►–—]\s*\S")
EQ_NUMBER = re.compile(r"^\(\s*\d+[a-z]?\s*\)$")
NUMERIC_CELL = re.compile(r"^[-−+±~<>=%$.,()\d\s×*/]+[a-zA-Z%]{0,2}$")
REF_NUMBER = re.compile(r"^(\[\d{1,3}\]|\d{1,3}\.)\s")
MATH_FONT = re.compile(r"cmmi|cmsy|cmex|msbm|math|symbol|stix", re.I)


def read_pdf(path: Path) -> Document:
    """Parse a PDF into a Document; raise BadDocumentError when the file cannot be read."""
    path = Path(path)
    data = _read_bytes(path)
    doc = _open(data)
    try:
        pages_ = [doc[i] for i in range(doc.page_count)]
        raw = [page.get_text("dict", flags=TEXT_FLAGS) for page in pages_]
        # text boxes come in the unrotated page frame, whatever /Rotate says
        sizes = [(page.cropbox.width, page.cropbox.height) for page in pages_]
        # a page of pictures and no text is a scan waiting for OCR
        scans = {
            n + 1
            for n, (page, r) in enumerate(zip(pages_, raw, strict=True))
            if not any(b.get("type") == 0 for b in r.get("blocks", [])) and page.get_images()
        }
        pdf_meta = dict(doc.metadata or {})
        _check_repair(doc, data)  # page content is decoded only now
    except (RuntimeError, ValueError) as exc:
        raise BadDocumentError(f"corrupt or truncated PDF: {_why(data)}", REPAIR) from exc
    finally:
        doc.close()
    turned = [layout.page_segments(r, w, h) for r, (w, h) in zip(raw, sizes, strict=True)]
    pages = [segs for segs, _, _ in turned]
    drops = layout.running_heads(pages, [h for _, _, h in turned])
    kept = [
        [s for i, s in enumerate(segs) if i not in drop]
        for segs, drop in zip(pages, drops, strict=True)
    ]
    body = body_style(kept)
    vocab = layout.vocabulary([s.text for segs in kept for s in segs])
    flagged = {
        n + 1: "garbled text layer"
        for n, segs in enumerate(pages)
        if segs and page_text_is_garbage(" ".join(s.text for s in segs))
    }
    flagged.update({n: "no text layer" for n in scans})
    blocks: list[Block] = []
    refs: tuple[float, float] | None = None  # (heading, entry) font sizes inside a bibliography
    for number, (segs, (_, width, height)) in enumerate(zip(kept, turned, strict=True), start=1):
        units = page_structure(layout.page_units(segs, width), body, height)
        units, refs = mark_references(units, refs)
        made = (_to_block(u, number, number not in flagged, vocab) for u in units)
        blocks.extend(b for b in made if b.text)  # bracket glyphs of a matrix carry no text
    title = title_block_index(blocks, body.size, pdf_meta.get("title", "") or "")
    if title is not None:
        blocks[title].kind = "paragraph"  # the title names the paper, not a section
    assign_sections(blocks, title)
    for i, block in enumerate(blocks):
        block.ordinal = i
    first_text = "\n".join(s.text for s in pages[0]) if pages else ""
    title_block = blocks[title] if title is not None else None
    meta = extract_metadata([b for b in blocks if b.page == 1], pdf_meta, first_text, title_block)
    return Document(
        path=path,
        sha256=hashlib.sha256(data).hexdigest(),
        kind="pdf",
        pages=len(pages),
        blocks=blocks,
        title=meta.title,
        authors=meta.authors,
        year=meta.year,
        doi=meta.doi,
        abstract=meta.abstract,
        flagged_pages=flagged,
    )


# --- opening the file ------------------------------------------------------------------


def _read_bytes(path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadDocumentError(f"cannot read file: {exc.strerror}", "check the path") from exc
    if not data:
        raise BadDocumentError("empty file (0 bytes)", "re-download the file")
    if b"%PDF-" not in data[:1024]:
        raise BadDocumentError(f"not a PDF ({_sniff(data)})", "rename it or export it to PDF")
    return data


def _sniff(data: bytes) -> str:
    """A short guess at what a non-PDF file is, for the error message."""
    head = data[:512].lstrip().lower()
    if head.startswith(b"pk"):
        return "looks like a ZIP/Office file"
    if head.startswith((b"<!doctype html", b"<html")):
        return "looks like an HTML page"
    try:
        data[:512].decode("utf-8")
        return "looks like plain text"
    except UnicodeDecodeError:
        return "no %PDF header"


def _open(data: bytes) -> pymupdf.Document:
    # MuPDF prints to stderr by default; errors reach the user through BadDocumentError
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    pymupdf.TOOLS.reset_mupdf_warnings()
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except (RuntimeError, ValueError) as exc:
        raise BadDocumentError(f"corrupt or truncated PDF: {_why(data)}", REPAIR) from exc
    if doc.needs_pass:
        doc.close()
        raise BadDocumentError("encrypted PDF (password required)", "save an unencrypted copy")
    if doc.page_count == 0:
        doc.close()
        raise BadDocumentError("PDF has no pages", REPAIR)
    return doc


def _check_repair(doc: pymupdf.Document, data: bytes) -> None:
    """PyMuPDF repairs broken files silently; refuse when the repair lost page content."""
    warnings = pymupdf.TOOLS.mupdf_warnings()
    if doc.is_repaired and any(d in warnings for d in DAMAGE):
        raise BadDocumentError(f"corrupt or truncated PDF: {_why(data)}", REPAIR)


def _why(data: bytes) -> str:
    """Truncation shows as a missing end-of-file marker; anything else is damage."""
    return "file is cut short" if b"%%EOF" not in data[-2048:] else "damaged structure"


# --- blocks on one page -----------------------------------------------------------------


def body_style(pages: list[list[Seg]]) -> Seg:
    """The document's running-text font: most characters by (size, font)."""
    weight: Counter[tuple[float, str, bool]] = Counter()
    for segs in pages:
        for s in segs:
            weight[(round(s.size * 2) / 2, s.font, s.bold)] += len(s.text)
    if not weight:
        return Seg(0, 0, 0, 0, "", 10.0, "", False, -1)
    top = weight.most_common(1)[0][1]
    # reference lists in small print can outweigh a short paper's body text: among the
    # heavy styles take the largest plain one (a bold title can be heavy in a short file)
    heavy = [k for k, w in weight.items() if w >= 0.4 * top]
    size, font, bold = max(heavy, key=lambda k: (not k[2], k[0]))
    return Seg(0, 0, 0, 0, "", size, font, bold, -1)


def page_structure(units: list[Unit], body: Seg, height: float) -> list[Unit]:
    """Split, classify and merge one page's ordered units into final blocks."""
    pieces = [p for u in units for p in split_unit(u, body)]
    for unit in pieces:
        classify(unit, body, height)
    pieces = merge_tables(pieces, body)
    pieces = merge_paragraphs(pieces, body)
    for unit in pieces:
        if unit.kind == "paragraph" and _unit_is_heading(unit, body):
            unit.kind = "heading"
    _label_tables(pieces)
    return pieces


def _unit_is_heading(unit: Unit, body: Seg) -> bool:
    text = unit.text
    if len(unit.rows) > 3 or not heading_candidate(text):
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


def split_unit(unit: Unit, body: Seg) -> list[Unit]:
    """Cut a unit around heading lines, and before a bullet or a caption start."""
    rows = unit.rows
    heads = [_row_is_heading(r, body, unit) for r in rows]
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
        if len(parts) > 1 and heads[idx[0]] and len(idx) <= 3:
            piece.data["heading_row"] = True
        out.append(piece)
    return out


def _style_key(row: Row) -> tuple[float, bool, str]:
    s = row.style
    return (round(s.size), s.bold, s.font)


def _row_is_heading(row: Row, body: Seg, unit: Unit) -> bool:
    """A line set apart by style that reads like a heading, not a sentence."""
    s = row.style
    main = [seg for seg in row.segs if len(seg.text.strip()) > 2]
    # a bold lead-in followed by plain text on the same line is a run-in heading
    if any(seg.bold != s.bold or abs(seg.size - s.size) > 0.6 for seg in main):
        return False
    if not heading_candidate(row.text) or layout.is_mono(s.font):
        return False
    others = [r.x1 for r in unit.rows if r is not row]
    fills = bool(others) and row.x1 >= max(others) - 2 * s.size
    if s.size >= body.size + 0.9:
        return True
    if fills:
        return False
    if s.bold and not body.bold:
        return True
    if len(row.text) > 60:
        return False
    # a run-in title in another face: 'References' atop small-print entries
    lead = row is unit.rows[0] and len(unit.rows) > 1 and s.font != unit.style.font
    return lead or (s.font != body.font and abs(s.size - body.size) <= 1.0)


def _ends_line(row: Row, unit: Unit) -> bool:
    """A row that ends a paragraph: sentence end or well short of the right edge."""
    return row.text.rstrip().endswith((".", ":", "?", "!")) or row.x1 < unit.bbox[2] - 30


def classify(unit: Unit, body: Seg, height: float) -> None:
    """Decide kind and label from the unit's own text and style."""
    text = unit.text
    style = unit.style
    rows = unit.rows
    label = caption_label(text)
    if label and (_caption_like(text) or style.bold or abs(style.size - body.size) > 0.4):
        unit.kind, unit.label = "caption", label
        return
    # a display equation ends in its number at the right margin: "(3)"
    last = max(unit.segs, key=lambda s: s.x1)
    if len(rows) <= 4 and EQ_NUMBER.match(last.text) and len(unit.segs) > 1:
        unit.kind, unit.label = "equation", "Eq. " + re.sub(r"\s", "", last.text)
        return
    if layout.is_mono(style.font):
        unit.kind = "code"
        return
    if _math_share(unit) > 0.5:
        unit.kind = "equation"
        return
    if BULLET.match(text):
        unit.kind = "list"
        return
    if layout.has_cells(unit, NUMERIC_CELL):
        unit.kind = "table"
        return
    small = style.size <= body.size - 1.2
    if small and unit.bbox[1] > 0.6 * height and not unit.data.get("heading_row"):
        unit.kind = "footnote"


def _caption_like(text: str) -> bool:
    return bool(re.match(r"^\S+\.?\s*[A-Z]?[\dIVX]+[a-z]?\s*[:.|]", text))


def _math_share(unit: Unit) -> float:
    segs = unit.segs
    total = sum(len(s.text) for s in segs) or 1
    return sum(len(s.text) for s in segs if MATH_FONT.search(s.font)) / total


# --- tables ----------------------------------------------------------------------------


def merge_tables(units: list[Unit], body: Seg) -> list[Unit]:
    """Fuse consecutive table-like units (rows, cells side by side, a header) into one table."""
    side = _side_by_side(units)
    cand = [u.kind == "table" or i in side for i, u in enumerate(units)]
    for i, u in enumerate(units):
        # a header row with one gap counts when it touches a table
        if (
            not cand[i]
            and u.kind == "paragraph"
            and len(u.rows) <= 2
            and any(g >= 1.0 * u.style.size for r in u.rows for g in r.gaps())
        ):
            near = [j for j in (i - 1, i + 1) if 0 <= j < len(units) and cand[j]]
            cand[i] = any(_close(units[min(i, j)], units[max(i, j)], body) for j in near)
    out: list[Unit] = []
    for i, unit in enumerate(units):
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.kind == "table"
            and ((cand[i] and _close(prev, unit, body)) or _wrapped_cell(prev, unit, body))
        ):
            prev.rows.extend(unit.rows)
            continue
        if cand[i]:
            unit = Unit(list(unit.rows), col=unit.col, kind="table")
        out.append(unit)
    out = _absorb_fragments(out)
    for unit in out:
        if unit.kind == "table":
            rows = layout.table_rows(unit.segs, NUMERIC_CELL)
            unit.data["rows"] = rows
            if len(rows) < 2:
                unit.kind = "paragraph"
    return out


def _wrapped_cell(table: Unit, unit: Unit, body: Seg) -> bool:
    """Short lines beside or just under a table, within reach: wrapped cells of its rows."""
    if unit.kind not in ("paragraph", "footnote") or not layout.is_cell_like(unit):
        return False
    tx0, ty0, tx1, ty1 = table.bbox
    ux0, uy0, ux1, uy1 = unit.bbox
    beside = uy0 < ty1 and ux0 - tx1 < 3 * body.size
    # prose after a table starts at its left edge; a wrapped cell sits in a later column
    inner = tx0 + 2 * body.size < ux0 and ux1 <= tx1 + 2
    below = 0 <= uy0 - ty1 < 2.5 * body.size and inner
    return beside or below


def _absorb_fragments(units: list[Unit]) -> list[Unit]:
    """Text lying inside a table's box is a piece of it (cells PyMuPDF split off)."""
    tables = [u for u in units if u.kind == "table"]
    rest = [u for u in units if u.kind in ("paragraph", "footnote", "list")]
    eaten: set[int] = set()
    grew = True
    while grew:
        grew = False
        for unit in rest:
            if id(unit) in eaten:
                continue
            for table in tables:
                if table.col == unit.col and _overlap(table.bbox, unit.bbox):
                    table.rows.extend(unit.rows)
                    eaten.add(id(unit))
                    grew = True
                    break
    return [u for u in units if id(u) not in eaten]


def _overlap(a: layout.Box, b: layout.Box) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 2


def _side_by_side(units: list[Unit]) -> set[int]:
    """Small units sharing a line with another small unit in the same column: cells."""
    small = sorted(
        (
            (i, u.bbox)
            for i, u in enumerate(units)
            if u.kind in ("paragraph", "table") and layout.is_cell_like(u)
        ),
        key=lambda item: item[1][1],
    )
    out: set[int] = set()
    for n, (a, (ax0, _, ax1, ay1)) in enumerate(small):
        for b, (bx0, by0, bx1, by1) in small[n + 1 :]:
            if by0 >= ay1 - 2:
                break  # sorted by top edge: the rest start below this unit
            if (
                units[a].col == units[b].col
                and min(ay1, by1) - by0 > 2
                and (bx0 > ax1 or ax0 > bx1)
            ):
                out.update((a, b))
    return out


def _close(a: Unit, b: Unit, body: Seg) -> bool:
    ax0, ay0, ax1, ay1 = a.bbox
    bx0, by0, bx1, by1 = b.bbox
    return by0 - ay1 < 2.5 * body.size and min(ax1, bx1) > max(ax0, bx0) and by1 > ay0


# --- paragraphs, captions, sections, references ----------------------------------------


def merge_paragraphs(units: list[Unit], body: Seg) -> list[Unit]:
    """Rejoin a paragraph PyMuPDF cut in two (superscripts, inline math change spacing)."""
    out: list[Unit] = []
    for unit in units:
        prev = out[-1] if out else None
        if prev is not None and _continues(prev, unit, body):
            prev.rows.extend(unit.rows)
            prev.label = prev.label or unit.label
            continue
        out.append(unit)
    return out


def _continues(a: Unit, b: Unit, body: Seg) -> bool:
    if a.kind == b.kind == "equation" and a.col == b.col:
        # fractions and equation numbers sit on their own baselines
        return b.bbox[1] - a.bbox[3] < 0.5 * body.size and not (a.label and b.label)
    if a.kind != b.kind or a.kind not in ("paragraph", "list", "footnote") or a.col != b.col:
        return False
    sa, sb = a.style, b.style
    if sa.size >= body.size + 2 and (sa.size, sa.font) == (sb.size, sb.font):
        # a display title set in two blocks
        return 0 <= b.bbox[1] - a.bbox[3] < 0.8 * sa.size
    if a.data.get("heading_row") or b.data.get("heading_row"):
        return False
    ax0, _, ax1, ay1 = a.bbox
    bx0, by0, bx1, _ = b.bbox
    size = a.style.size
    if by0 - ay1 > 0.8 * size or by0 < ay1 - 2 or abs(size - b.style.size) > 0.6:
        return False
    if BULLET.match(b.rows[0].text) or caption_label(b.rows[0].text):
        return False
    last_full = a.rows[-1].x1 >= max(ax1, bx1) - 1.5 * size
    first_flush = b.rows[0].x0 <= min(ax0, bx0) + 0.5 * size
    lower = b.rows[0].text[:1].islower()
    return last_full and (first_flush or lower)


def _label_tables(units: list[Unit]) -> None:
    """Give each 'Table N' caption's label to the nearest table on the page."""
    tables = [u for u in units if u.kind == "table"]
    for cap in (u for u in units if u.kind == "caption" and (u.label or "").startswith("Table")):
        cx0, cy0, cx1, cy1 = cap.bbox
        best, dist = None, 1e9
        for t in tables:
            tx0, ty0, tx1, ty1 = t.bbox
            if t.label or min(cx1, tx1) <= max(cx0, tx0):
                continue
            d = min(abs(ty0 - cy1), abs(cy0 - ty1))
            if d < dist:
                best, dist = t, d
        if best is not None and dist < 150:
            best.label = cap.label


def assign_sections(blocks: list[Block], title: int | None) -> None:
    """Set section_path from the heading chain; demote page-1 front matter that is not a heading."""
    stack: list[tuple[int, str]] = []
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
                key = (round(block.font_size), block.bold)
                if numbered is not None or known:
                    levels.setdefault(key, numbered or 1)
                    level = numbered or 1
                else:
                    larger = [lv for (size, _), lv in levels.items() if size > key[0]]
                    level = levels.get(key) or (max(larger) + 1 if larger else 1)
                while stack and stack[-1][0] >= level:
                    stack.pop()
                stack.append((level, block.text))
        block.section_path = "" if i == title else " > ".join(t for _, t in stack)


def mark_references(
    units: list[Unit], refs: tuple[float, float] | None
) -> tuple[list[Unit], tuple[float, float] | None]:
    """Units under a References heading become one 'reference' unit per entry.

    `refs` carries (heading size, entry size) across pages; None outside the list.
    """
    out: list[Unit] = []
    for unit in units:
        size = unit.style.size
        if unit.kind == "heading":
            # bold first authors in a bibliography are not sections; appendix titles are
            if refs is not None and size < refs[0] - 0.5 and not is_known_heading(unit.text):
                unit.kind = "paragraph"
            else:
                refs = (size, 0.0) if is_reference_heading(unit.text) else None
        if refs is None or unit.kind not in ("paragraph", "list", "footnote", "code"):
            out.append(unit)
            continue
        if unit.kind == "footnote" and refs[1] and size < refs[1] - 0.6:
            out.append(unit)  # a page footnote below the list
            continue
        refs = (refs[0], refs[1] or size)
        for entry in _entries(unit):
            prev = out[-1] if out else None
            first = entry.rows[0]
            # an entry's indented continuation often comes as a block of its own
            if (
                prev is not None
                and prev.kind == "reference"
                and prev.col == entry.col
                and (first.x0 > prev.rows[0].x0 + 2 or first.text[:1].islower())
                and -2 < first.y0 - prev.rows[-1].y1 < 0.8 * first.style.size
            ):
                prev.rows.extend(entry.rows)
                continue
            out.append(entry)
    return out, refs


def _entries(unit: Unit) -> list[Unit]:
    """Split a bibliography block into entries by numbering or hanging indent."""
    rows = unit.rows
    left = min(r.x0 for r in rows)
    flush = [r.x0 <= left + 1 for r in rows]
    # hanging indent: continuation lines (indented) outnumber entry starts (flush)
    hanging = 0 < sum(flush) <= len(rows) - sum(flush)
    out: list[Unit] = []
    for i, row in enumerate(rows):
        if i == 0 or REF_NUMBER.match(row.text) or (hanging and flush[i]):
            out.append(Unit([], col=unit.col, kind="reference"))
        out[-1].rows.append(row)
    return out


def _to_block(unit: Unit, page: int, trusted: bool, vocab: frozenset[str]) -> Block:
    style = unit.style
    rows: list[list[str]] = unit.data.get("rows", [])  # type: ignore[assignment]
    if unit.kind == "table":
        text = "\n".join(" ".join(cells) for cells in rows)
    elif unit.kind == "code":
        text = "\n".join(r.text for r in unit.rows)
    else:
        text = layout.join_rows([r.text for r in unit.rows], vocab)
    x0, y0, x1, y1 = unit.page_bbox
    return Block(
        ordinal=0,
        kind=unit.kind,
        page=page,
        bbox=(round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2)),
        text=text,
        label=unit.label,
        font_size=round(style.size, 2),
        font_name=style.font,
        bold=style.bold,
        trusted=trusted,
        data={"rows": rows} if unit.kind == "table" else None,
    )
