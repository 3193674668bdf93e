"""PDF reader: a file on disk -> Document with blocks in reading order."""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from pathlib import Path

import pymupdf

from citewise.documents import footnotes, glyphs, layout, spacing
from citewise.documents.bibliography import mark_references
from citewise.documents.bounds import check_text_operators, text_operator_budget
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
from citewise.documents.references import link_citations, parse_bibliography
from citewise.documents.ruled import page_rules, ruled_grid
from citewise.documents.tables import NUMERIC_CELL, merge_tables, tables_from_captions
from citewise.errors import BadDocumentError

# ligatures expanded (ﬁ -> fi) so text matches what people type; images skipped
TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
REPAIR = "re-download or re-export the file"
PASSWORD_ENV = "CITEWISE_PDF_PASSWORD"
DAMAGE = ("premature end", "page tree load failed", "missing 'endobj'", "non-page object")


def read_pdf(path: Path, ocr: bool = True) -> Document:
    """Parse a PDF into a Document; raise BadDocumentError when the file cannot be read.

    Pipeline: PyMuPDF text lines (layout.page_segments) -> running heads dropped -> units
    in reading order (layout.page_units) -> per page: split around headings (headings),
    classify (caption, equation, code, list, table, footnote), fuse tables (tables) and
    broken paragraphs -> bibliography entries (bibliography) -> section paths over the
    whole document (headings) -> first-page metadata (metadata). Pages whose text layer
    is garbage or missing are read by OCR when `ocr` and tesseract allow (ocr).
    """
    path = Path(path)
    data = _read_bytes(path)
    doc = _open(data, path.name)
    try:
        return _parse(doc, path, data, ocr)
    finally:
        doc.close()


def _parse(doc: pymupdf.Document, path: Path, data: bytes, ocr: bool) -> Document:
    try:
        pages_ = [doc[i] for i in range(doc.page_count)]
        check_text_operators(pages_, text_operator_budget())
        raw = [page.get_text("dict", flags=TEXT_FLAGS) for page in pages_]
        font_names: dict[int, tuple[str, ...]] = {}
        for page, r in zip(pages_, raw, strict=True):
            if spacing.needs_respacing(r):  # word gaps without space characters
                spacing.respace(r, page.get_text("rawdict", flags=TEXT_FLAGS))
            glyphs.name_unreadable(page, r, font_names)  # TeX's big sums, by glyph name
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
    turned = [layout.page_segments(r, w, h) for r, (w, h) in zip(raw, sizes, strict=True)]
    flagged = {
        n + 1: "garbled text layer"
        for n, (segs, _, _) in enumerate(turned)
        if segs and page_text_is_garbage(" ".join(s.text for s in segs))
    }
    flagged.update({n: "no text layer" for n in scans})
    warnings: list[str] = []
    ocr_pages = read_by_ocr(pages_, flagged, raw, warnings) if ocr and flagged else {}
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
    vocab = vocabulary([s.text for segs in kept for s in segs])
    blocks: list[Block] = []
    refs: tuple[float, float] | None = None  # (heading, entry) font sizes inside a bibliography
    for number, (segs, (_, width, height)) in enumerate(zip(kept, turned, strict=True), start=1):
        units = page_structure(layout.page_units(segs, width), body, height)
        units, refs = mark_references(units, refs)
        if any(u.kind == "caption" and (u.label or "").startswith("Table") for u in units):
            _find_ruled(pages_[number - 1], units)  # the slow finder, on candidate pages only
        made = [_to_block(u, number, number not in flagged, vocab) for u in units]
        if number in ocr_pages:
            for block in made:
                block.data = {**(block.data or {}), "ocr": ocr_pages[number]}
        blocks.extend(b for b in made if b.text)  # bracket glyphs of a matrix carry no text
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


def _find_ruled(page: pymupdf.Page, units: list[Unit]) -> None:
    """Swap the grid of a table drawn with cell borders for the one its rules define."""
    if page.rotation or any(s.orig != (s.x0, s.y0, s.x1, s.y1) for u in units for s in u.segs):
        return  # turned pages keep the text-based grid
    rules: list[layout.Box] | None = None
    for unit in units:
        if unit.kind == "table":
            rules = page_rules(page) if rules is None else rules
            rows = len(unit.data.get("rows", []))  # type: ignore[arg-type]
            grid = ruled_grid(page, unit.page_bbox, unit.segs, rows, rules)
            if grid is not None:
                unit.data["grid"] = grid


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


def _open(data: bytes, name: str = "") -> pymupdf.Document:
    # MuPDF prints to stderr by default; errors reach the user through BadDocumentError
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    pymupdf.TOOLS.reset_mupdf_warnings()
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except (RuntimeError, ValueError) as exc:
        raise BadDocumentError(f"corrupt or truncated PDF: {_why(data)}", REPAIR) from exc
    if doc.needs_pass:
        _unlock(doc, name)
    if doc.page_count == 0:
        doc.close()
        raise BadDocumentError("PDF has no pages", REPAIR)
    return doc


def _unlock(doc: pymupdf.Document, name: str) -> None:
    """Open an encrypted PDF with $CITEWISE_PDF_PASSWORD (`ingest --password`): the variable,
    not an argument, so the worker processes that parse files see it too."""
    password = os.environ.get(PASSWORD_ENV, "")
    if not password:
        doc.close()
        raise BadDocumentError(
            "encrypted PDF (password required)",
            f"give it with --password or ${PASSWORD_ENV}, or save an unencrypted copy",
        )
    if not doc.authenticate(password):
        doc.close()
        raise BadDocumentError(
            f"wrong password for encrypted PDF '{name}'",
            f"check --password / ${PASSWORD_ENV} (one password for the whole batch: "
            "ingest files with other passwords apart)",
            code="WRONG_PDF_PASSWORD",
        )


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
        text = cap.text
        if len(cap.rows) != 1 or not (text.isalpha() and text.isupper() and len(text) <= 2):
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
    if layout.has_cells(unit, NUMERIC_CELL):
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
    rows: list[list[str]] = unit.data.get("rows", [])  # type: ignore[assignment]
    data: dict[str, object] | None = None
    if unit.kind == "table":
        cells: list[list[Cell]] = unit.data.get("cells", [])  # type: ignore[assignment]
        grid = unit.data.get("grid") or build_grid(cells)
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
