"""PDF reader: a file on disk -> Document with blocks in reading order."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

import pymupdf

from citewise.documents import columns, footnotes, glyphs, layout, spacing
from citewise.documents.bibliography import mark_references
from citewise.documents.bounds import check_text_operators
from citewise.documents.captions import (
    caption_label,
    caption_like,
    demote_mentions,
    label_tables,
)
from citewise.documents.equations import (
    attach_numbers,
    ends_in_equation_number,
    equation_number,
    equation_text,
    image_only,
    looks_like_display_math,
)
from citewise.documents.formula_layout import gather_formulas
from citewise.documents.grid import Cell, build_grid
from citewise.documents.headings import assign_sections, split_unit, unit_is_heading
from citewise.documents.hyphenation import join_rows, vocabulary
from citewise.documents.layout import BULLET, Seg, Unit
from citewise.documents.metadata import extract_metadata, find_publication, title_block_index
from citewise.documents.model import Block, Document
from citewise.documents.ocr import page_text_is_garbage, read_by_ocr
from citewise.documents.options import ParseOptions
from citewise.documents.pdf_file import REPAIR, check_repair, open_pdf, read_bytes, why
from citewise.documents.references import link_citations, parse_bibliography
from citewise.documents.ruled import page_rules, ruled_grid
from citewise.documents.table_header import carry_over, header_count, spanning_rules
from citewise.documents.tables import NUMERIC_CELL, merge_tables, tables_from_captions
from citewise.errors import BadDocumentError

# ligatures expanded (ﬁ -> fi) so text matches what people type; images skipped
TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP


def read_pdf(path: Path, ocr: bool = True, options: ParseOptions | None = None) -> Document:
    """Parse a PDF into a Document; raise BadDocumentError when the file cannot be read.

    Pipeline: PyMuPDF text lines (layout.page_segments) -> running heads dropped -> units
    in reading order (columns.page_units) -> per page: split around headings (headings),
    classify (caption, equation, code, list, table, footnote), fuse tables (tables) and
    broken paragraphs -> bibliography entries (bibliography) -> section paths over the
    whole document (headings) -> first-page metadata (metadata). Pages whose text layer
    is garbage or missing are read by OCR when `ocr` and tesseract allow (ocr). `options`:
    the text-operator budget, the tesseract command and language, the PDF password.
    """
    path = Path(path)
    options = options or ParseOptions()
    data = read_bytes(path)
    doc = open_pdf(data, path.name, options.pdf_password)
    try:
        return _parse(doc, path, data, ocr, options)
    finally:
        doc.close()


def _parse(
    doc: pymupdf.Document, path: Path, data: bytes, ocr: bool, options: ParseOptions
) -> Document:
    pages_, raw, sizes, scans, pdf_meta = _decode(doc, data, options)
    turned = [layout.page_segments(r, w, h) for r, (w, h) in zip(raw, sizes, strict=True)]
    flagged = {
        n + 1: "garbled text layer"
        for n, (segs, _, _) in enumerate(turned)
        if segs and page_text_is_garbage(" ".join(s.text for s in segs))
    }
    flagged.update({n: "no text layer" for n in scans})
    warnings: list[str] = []
    ocr_pages = (
        read_by_ocr(pages_, flagged, raw, warnings, options.tesseract, options.ocr_language)
        if ocr and flagged
        else {}
    )
    for n in ocr_pages:
        del flagged[n]
        turned[n - 1] = layout.page_segments(raw[n - 1], *sizes[n - 1])
    pages = [segs for segs, _, _ in turned]
    drops = layout.running_heads(pages, [h for _, _, h in turned])
    kept = [
        [s for i, s in enumerate(segs) if i not in drop]
        for segs, drop in zip(pages, drops, strict=True)
    ]
    body = body_style(kept)
    frames = [(width, height) for _, width, height in turned]  # as the text boxes see them
    blocks = _page_blocks(pages_, kept, frames, body, flagged, ocr_pages)
    carry_over(blocks)  # tables continued on the next page: repeated header or data
    title = title_block_index(blocks, body.size, pdf_meta.get("title", "") or "")
    if title is not None:
        blocks[title].kind = "paragraph"  # the title names the paper, not a section
    assign_sections(blocks, title)
    for i, block in enumerate(blocks):
        block.ordinal = i
    footnotes.link(blocks)
    first_text = "\n".join(s.text for s in pages[0]) if pages else ""
    title_block = blocks[title] if title is not None else None
    meta = extract_metadata([b for b in blocks if b.page == 1], pdf_meta, first_text, title_block)
    # running heads and feet of the next pages often carry the journal, volume and pages
    margins = "\n".join(s.text for segs in pages[1:3] for s in segs[:3] + segs[-3:])
    publication = find_publication(first_text if not flagged.get(1) else "", margins)
    references = parse_bibliography([b for b in blocks if b.kind == "reference"])
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
        venue=publication.venue,
        arxiv_id=publication.arxiv_id,
        extra=publication.csl(),
        flagged_pages=flagged,
        warnings=warnings,
        references=references,
        citations=link_citations(blocks, references),
    )


class Decoded(NamedTuple):
    pages: list[pymupdf.Page]
    raw: list[dict[str, Any]]  # get_text("dict") of each page
    sizes: list[tuple[float, float]]  # unrotated page frames
    scans: set[int]  # page numbers of pages that are pictures only
    metadata: dict[str, str]


def _decode(doc: pymupdf.Document, data: bytes, options: ParseOptions) -> Decoded:
    """Each page's text as PyMuPDF's dict (respaced, TeX glyphs named), page sizes, the pages
    that are pictures only (scans), the PDF's metadata; BadDocumentError when decoding shows
    the file is damaged."""
    try:
        pages_ = [doc[i] for i in range(doc.page_count)]
        check_text_operators(pages_, options.budget.text_ops_per_page)
        raw = []
        font_names: dict[int, tuple[str, ...]] = {}
        for page in pages_:
            # one text extraction a page: its dict, and the characters where they are needed
            textpage = page.get_textpage(flags=TEXT_FLAGS)
            r = page.get_text("dict", flags=TEXT_FLAGS, textpage=textpage)
            if spacing.needs_respacing(r):  # word gaps without space characters
                spacing.respace(r, page.get_text("rawdict", flags=TEXT_FLAGS, textpage=textpage))
            glyphs.name_unreadable(page, r, font_names)  # TeX's big sums, by glyph name
            raw.append(r)
        # text boxes come in the unrotated page frame, whatever /Rotate says
        sizes = [(page.cropbox.width, page.cropbox.height) for page in pages_]
        # a page of pictures and no text is a scan waiting for OCR
        scans = {
            n + 1
            for n, (page, r) in enumerate(zip(pages_, raw, strict=True))
            if not any(b.get("type") == 0 for b in r.get("blocks", [])) and page.get_images()
        }
        pdf_meta = dict(doc.metadata or {})
        check_repair(doc, data)  # page content is decoded only now
    except (RuntimeError, ValueError) as exc:
        raise BadDocumentError(f"corrupt or truncated PDF: {why(data)}", REPAIR) from exc
    return Decoded(pages_, raw, sizes, scans, pdf_meta)


def _page_blocks(
    pages_: list[pymupdf.Page],
    kept: list[list[Seg]],
    frames: list[tuple[float, float]],
    body: Seg,
    flagged: dict[int, str],
    ocr_pages: dict[int, str],
) -> list[Block]:
    """Blocks of every page in reading order: units split, classified and fused per page,
    bibliography entries marked, ruled tables re-gridded, OCR'd pages noted."""
    vocab = vocabulary([s.text for segs in kept for s in segs])
    blocks: list[Block] = []
    refs: tuple[float, float] | None = None  # (heading, entry) font sizes inside a bibliography
    for number, (segs, (width, height)) in enumerate(zip(kept, frames, strict=True), start=1):
        units = page_structure(columns.page_units(segs, width), body, height)
        units, refs = mark_references(units, refs)
        captioned = any(u.kind == "caption" and (u.label or "").startswith("Table") for u in units)
        _find_ruled(pages_[number - 1], units, captioned)
        made = [_to_block(u, number, number not in flagged, vocab) for u in units]
        if number in ocr_pages:
            for block in made:
                block.data = {**(block.data or {}), "ocr": ocr_pages[number]}
        blocks.extend(b for b in made if b.text)  # bracket glyphs of a matrix carry no text
    return blocks


def _find_ruled(page: pymupdf.Page, units: list[Unit], captioned: bool) -> None:
    """Note the horizontal rules across each table (header evidence) and, on a page with
    a table caption, swap the grid of a table drawn with cell borders for the one its
    rules define (the slow finder, on candidate pages only)."""
    if page.rotation or any(s.orig != (s.x0, s.y0, s.x1, s.y1) for u in units for s in u.segs):
        return  # turned pages keep the text-based grid
    rules: list[layout.Box] | None = None
    for unit in units:
        if unit.kind == "table":
            rules = page_rules(page) if rules is None else rules
            unit.data["rules"] = spanning_rules(rules, unit.page_bbox)
            if not captioned:
                continue
            found = unit.data.get("rows")
            rows = len(found) if isinstance(found, list) else 0
            grid = ruled_grid(page, unit.page_bbox, unit.segs, rows, rules)
            if grid is not None:
                unit.data["grid"] = grid


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
    pieces = merge_tables(gather_formulas(attach_numbers(pieces), body.size), body)
    pieces = merge_paragraphs(pieces, body)
    for unit in pieces:
        if unit.kind == "paragraph" and unit_is_heading(unit, body):
            unit.kind = "heading"
    label_tables(pieces)
    pieces = tables_from_captions(demote_mentions(pieces, body), body)
    return join_drop_caps(pieces, body)


def join_drop_caps(units: list[Unit], body: Seg) -> list[Unit]:
    """A large initial ('O' of 'Over') set apart joins the paragraph it begins."""
    out = list(units)
    for cap in units:
        if len(cap.rows) != 1:
            continue
        text = cap.text
        if not (text.isalpha() and text.isupper() and len(text) <= 2):
            continue
        if cap.style.size < 1.8 * body.size:
            continue
        x0, y0, x1, y1 = cap.bbox
        nxt = [
            u
            for u in out
            if u.kind == "paragraph"
            and u is not cap
            and 0 <= u.rows[0].x0 - x1 < 2 * body.size
            and y0 - body.size <= u.bbox[1] <= y1
            and u.rows[0].text[:1].islower()
        ]
        if nxt:
            first = nxt[0].rows[0].segs[0]
            first.text = text + first.text
            nxt[0].rows[0].forget()  # the row's text and the paragraph's changed
            nxt[0].forget()
            out.remove(cap)
    return out


def classify(unit: Unit, body: Seg, height: float) -> None:
    """Decide kind and label from the unit's own text and style."""
    text = unit.text
    style = unit.style
    rows = unit.rows
    label = caption_label(text)
    if label and (caption_like(text) or style.bold or abs(style.size - body.size) > 0.4):
        unit.kind, unit.label = "caption", label
        return
    # a display equation ends in its number at the right margin: "(3)"
    last = max(unit.segs, key=lambda s: s.x1)
    if len(rows) <= 4 and ends_in_equation_number(unit, last.text) and len(unit.segs) > 1:
        unit.kind, unit.label = "equation", "Eq. " + re.sub(r"\s", "", last.text)
        return
    if layout.is_mono(style.font):
        unit.kind = "code"
        return
    if looks_like_display_math(unit):
        unit.kind = "equation"
        return
    if BULLET.match(text):
        unit.kind = "list"
        return
    if columns.has_cells(unit, NUMERIC_CELL):
        unit.kind = "table"
        return
    small = style.size <= body.size - 1.2
    if small and unit.bbox[1] > 0.6 * height and not unit.data.get("heading_row"):
        unit.kind = "footnote"


# --- paragraphs and blocks --------------------------------------------------------------


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


def _to_block(unit: Unit, page: int, trusted: bool, vocab: frozenset[str]) -> Block:
    style = unit.style
    # Unit.data holds what layout and tables put there: "rows" (cell texts per row),
    # "cells" (Cell per row) and "grid" (the built grid); mypy sees only `object`.
    rows: list[list[str]] = unit.data.get("rows", [])  # type: ignore[assignment]
    data: dict[str, object] | None = None
    if unit.kind == "table":
        # the Cell rows tables.py stored (Unit.data is typed `object`, as above)
        cells: list[list[Cell]] = unit.data.get("cells", [])  # type: ignore[assignment]
        rules: list[float] | None = unit.data.get("rules")  # type: ignore[assignment]
        grid = unit.data.get("grid") or build_grid(cells, header_count(cells, rules))
        # a grid (ruled.ruled_grid or grid.build_grid) is a dict of its fields
        data = {"rows": rows, "caption": unit.data.get("caption", ""), **grid}  # type: ignore[dict-item]
        text = "\n".join(" ".join(cells) for cells in rows)
    elif unit.kind == "code":
        text = "\n".join(r.text for r in unit.rows)
    else:
        text = join_rows([r.text for r in unit.rows], vocab)
    if unit.kind == "equation":
        eq_text = equation_text(unit)
        data = {"number": equation_number(unit.label), "text": eq_text}
        if image_only(eq_text):
            data["image_only"] = True  # the crop shows it; the text would mislead
        elif unit.label:
            text = f"{eq_text} {unit.label.removeprefix('Eq. ')}"  # read as written
        else:
            text = eq_text
    marks = [m for s in unit.segs for m in s.marks]
    if marks:
        data = {**(data or {}), "marks": marks}
    if unit.data.get("run_in"):
        data = {**(data or {}), "run_in": True}
    labels = [s.note for s in unit.segs if s.note]
    if labels:
        data = {**(data or {}), "labels": labels}
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
        data=data,
    )
