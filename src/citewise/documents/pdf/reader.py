"""PDF reader: a file on disk -> Document with blocks in reading order."""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pymupdf

from citewise.documents.bounds import check_text_operators
from citewise.documents.model import Block, Document
from citewise.documents.options import ParseOptions
from citewise.documents.pdf import columns, footnotes, glyphs, layout, ocr_heads, spacing
from citewise.documents.pdf.headings import assign_sections
from citewise.documents.pdf.hyphenation import vocabulary
from citewise.documents.pdf.layout import Seg, Unit
from citewise.documents.pdf.metadata import extract_metadata, find_publication, title_block_index
from citewise.documents.pdf.ocr import page_text_is_garbage, read_by_ocr
from citewise.documents.pdf.page_blocks import body_style, page_structure, to_block
from citewise.documents.pdf.pdf_file import REPAIR, check_repair, open_pdf, read_bytes, why
from citewise.documents.references.bibliography import mark_references
from citewise.documents.references.entries import link_citations, parse_bibliography
from citewise.documents.tables.grid import Cell
from citewise.documents.tables.ruled import page_rules, ruled_grid
from citewise.documents.tables.table_header import carry_over, rules_matter, spanning_rules
from citewise.errors import BadDocumentError

# ligatures expanded (ﬁ -> fi) so text matches what people type; images skipped
TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
# Text boxes without PyMuPDF's quad corrections, set here rather than left to chance: importing
# pymupdf4llm (which `import pymupdf` does whenever it is installed) sets the same, so without
# this line the boxes, and the blocks made from them, depended on what else was installed.
pymupdf.TOOLS.unset_quad_corrections(True)


def read_pdf(
    path: Path,
    ocr: bool = True,
    options: ParseOptions | None = None,
    on_pages: Callable[[int], None] | None = None,
    sha256: str | None = None,
) -> Document:
    """Parse a PDF into a Document; raise BadDocumentError when the file cannot be read.

    Pipeline: PyMuPDF text lines (layout.page_segments) -> running heads dropped -> units
    in reading order (columns.page_units) -> per page: split around headings (headings),
    classify (caption, equation, code, list, table, footnote), fuse tables (tables) and
    broken paragraphs -> bibliography entries (bibliography) -> section paths over the
    whole document (headings) -> first-page metadata (metadata). Pages whose text layer
    is garbage or missing are read by OCR when `ocr` and tesseract allow (ocr). `options`:
    the text-operator budget, the tesseract command and language, the PDF password.
    `on_pages` hears the page count once the file is open (a worker's deadline grows by it).
    `sha256`: the file's digest when the caller has just hashed it (else it is hashed here).
    """
    path = Path(path)
    options = options or ParseOptions()
    data = read_bytes(path)
    # A parse makes millions of objects and no reference cycles (none are left to collect
    # after the corpus or a 500-page filing: tests/documents/pdf/test_pdf_cycles.py), so the
    # cyclic collector would only walk live objects; reference counting frees the rest.
    collecting = gc.isenabled()
    gc.disable()
    try:
        doc = open_pdf(data, path.name, options.pdf_password)
        try:
            if on_pages is not None:
                on_pages(doc.page_count)
            return _parse(doc, path, data, ocr, options, sha256)
        finally:
            doc.close()
    finally:
        if collecting:
            gc.enable()


def _parse(
    doc: pymupdf.Document,
    path: Path,
    data: bytes,
    ocr: bool,
    options: ParseOptions,
    sha256: str | None = None,
) -> Document:
    text = _page_text(_decode(doc, data, options), ocr, options)
    body = body_style(text.kept)
    blocks = _page_blocks(text.pages, text.kept, text.frames, body, text.flagged, text.ocr)
    carry_over(blocks)  # tables continued on the next page: repeated header or data
    title = title_block_index(blocks, body.size, text.metadata.get("title", "") or "", text.heads)
    if title is not None:
        blocks[title].kind = "paragraph"  # the title names the paper, not a section
    assign_sections(blocks, title)
    for i, block in enumerate(blocks):
        block.ordinal = i
    footnotes.link(blocks)
    return _document(path, sha256 or hashlib.sha256(data).hexdigest(), text, blocks, title)


class PageText(NamedTuple):
    """Each page's text lines, before blocks are made of them."""

    pages: list[pymupdf.Page]
    lines: list[list[Seg]]  # every line of each page
    kept: list[list[Seg]]  # the lines without running heads and page numbers
    frames: list[tuple[float, float]]  # (width, height) of each page as its lines see it
    flagged: dict[int, str]  # page -> why its text is not trusted
    ocr: dict[int, str]  # page -> why it was read by OCR
    warnings: list[str]
    metadata: dict[str, str]  # the PDF's own
    heads: list[str]  # the running heads' and feet's texts, every page's


def _page_text(decoded: Decoded, ocr: bool, options: ParseOptions) -> PageText:
    """Lines of every page; pages whose text layer is garbage or missing read by OCR
    (when `ocr` and tesseract allow), else flagged; running heads found."""
    pages_, turned, sizes, scans, pdf_meta = decoded
    flagged = {
        n + 1: "garbled text layer"
        for n, (segs, _, _) in enumerate(turned)
        if segs and page_text_is_garbage(" ".join([s.text for s in segs]))
    }
    flagged.update({n: "no text layer" for n in scans})
    warnings: list[str] = []
    read: list[dict[str, Any]] = [{} for _ in pages_]  # an OCR'd page's words, as a dict
    ocr_pages = (
        read_by_ocr(pages_, flagged, read, warnings, options.tesseract, options.ocr_language)
        if ocr and flagged
        else {}
    )
    for n in ocr_pages:
        del flagged[n]
        turned[n - 1] = layout.page_segments(read[n - 1], *sizes[n - 1])
    pages = [segs for segs, _, _ in turned]
    heights = [h for _, _, h in turned]
    drops = layout.running_heads(pages, heights)
    # OCR noise varies a scan's heads page to page: found apart, on pages read by OCR only
    for drop, scanned in zip(drops, ocr_heads.running_heads(pages, heights), strict=True):
        drop |= scanned
    kept = [
        [s for i, s in enumerate(segs) if i not in drop]
        for segs, drop in zip(pages, drops, strict=True)
    ]
    frames = [(width, height) for _, width, height in turned]  # as the text boxes see them
    heads = [segs[i].text for segs, drop in zip(pages, drops, strict=True) for i in sorted(drop)]
    return PageText(pages_, pages, kept, frames, flagged, ocr_pages, warnings, pdf_meta, heads)


def _document(
    path: Path, sha256: str, text: PageText, blocks: list[Block], title: int | None
) -> Document:
    """The Document: blocks, first-page metadata, publication, bibliography, citations."""
    pages, flagged = text.lines, text.flagged
    first_text = "\n".join(s.text for s in pages[0]) if pages else ""
    title_block = blocks[title] if title is not None else None
    meta = extract_metadata(
        [b for b in blocks if b.page == 1], text.metadata, first_text, title_block
    )
    # running heads and feet of the next pages often carry the journal, volume and pages
    margins = "\n".join(s.text for segs in pages[1:3] for s in segs[:3] + segs[-3:])
    publication = find_publication(first_text if not flagged.get(1) else "", margins)
    references = parse_bibliography([b for b in blocks if b.kind == "reference"])
    return Document(
        path=path,
        sha256=sha256,
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
        warnings=text.warnings,
        references=references,
        citations=link_citations(blocks, references),
    )


Lines = tuple[list[Seg], float, float]  # layout.page_segments: a page's lines, its frame


class Decoded(NamedTuple):
    pages: list[pymupdf.Page]
    lines: list[Lines]  # each page's text lines (layout.page_segments)
    sizes: list[tuple[float, float]]  # unrotated page frames
    scans: set[int]  # page numbers of pages that are pictures only
    metadata: dict[str, str]


def _decode(doc: pymupdf.Document, data: bytes, options: ParseOptions) -> Decoded:
    """Each page's text lines (from PyMuPDF's dict, respaced, TeX glyphs named), page
    sizes, the pages that are pictures only (scans), the PDF's metadata; BadDocumentError
    when decoding shows the file is damaged. A page's dict is turned into lines as soon as
    it is read, so only one page's dict is held at a time (a 300-page filing's dicts
    together take ~150 MB)."""
    try:
        pages_ = [doc[i] for i in range(doc.page_count)]
        check_text_operators(pages_, options.budget.text_ops_per_page)
        # text boxes come in the unrotated page frame, whatever /Rotate says
        sizes = [(box.width, box.height) for box in (page.cropbox for page in pages_)]
    except (RuntimeError, ValueError) as exc:
        raise BadDocumentError(f"corrupt or truncated PDF: {why(data)}", REPAIR) from exc
    lines: list[Lines] = []
    scans: set[int] = set()
    font_names: dict[int, tuple[str, ...]] = {}
    for number, page in enumerate(pages_, start=1):
        raw, scan = _page_dict(page, data, font_names)
        if scan:  # a page of pictures and no text is a scan waiting for OCR
            scans.add(number)
        lines.append(layout.page_segments(raw, *sizes[number - 1]))
    try:
        pdf_meta = dict(doc.metadata or {})
        check_repair(doc, data)  # page content is decoded only now
    except (RuntimeError, ValueError) as exc:
        raise BadDocumentError(f"corrupt or truncated PDF: {why(data)}", REPAIR) from exc
    return Decoded(pages_, lines, sizes, scans, pdf_meta)


def _page_dict(
    page: pymupdf.Page, data: bytes, font_names: dict[int, tuple[str, ...]]
) -> tuple[dict[str, Any], bool]:
    """One text extraction a page: its dict, and the characters where they are needed;
    whether the page is a scan (pictures and no text)."""
    try:
        textpage = page.get_textpage(flags=TEXT_FLAGS)
        raw = page.get_text("dict", flags=TEXT_FLAGS, textpage=textpage)
        text = spacing.span_text(raw)
        if spacing.needs_respacing(raw, text):  # word gaps without space characters
            spacing.respace(raw, page.get_text("rawdict", flags=TEXT_FLAGS, textpage=textpage))
        if glyphs.UNREADABLE in text:  # respacing adds spaces only
            glyphs.name_unreadable(page, raw, font_names)  # TeX's big sums, by glyph name
        has_text = any(b.get("type") == 0 for b in raw.get("blocks", []))
        return raw, not has_text and bool(page.get_images())
    except (RuntimeError, ValueError) as exc:
        raise BadDocumentError(f"corrupt or truncated PDF: {why(data)}", REPAIR) from exc


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
        made = [to_block(u, number, number not in flagged, vocab) for u in units]
        if number in ocr_pages:
            for block in made:
                block.data = {**(block.data or {}), "ocr": ocr_pages[number]}
        blocks.extend(b for b in made if b.text)  # bracket glyphs of a matrix carry no text
    return blocks


def _find_ruled(page: pymupdf.Page, units: list[Unit], captioned: bool) -> None:
    """Note the horizontal rules across each table (header evidence) and, on a page with
    a table caption, swap the grid of a table drawn with cell borders for the one its
    rules define (the slow finder, on candidate pages only)."""
    tables = [u for u in units if u.kind == "table"]
    if (
        not tables
        or page.rotation
        or any(s.orig != (s.x0, s.y0, s.x1, s.y1) for u in units for s in u.segs)
    ):
        return  # no table, or a turned page: text-based grids only
    # the Cell rows tables/fusion.py stored (Unit.data is typed `object`)
    cells: list[list[list[Cell]]] = [u.data.get("cells", []) for u in tables]  # type: ignore[misc]
    if not captioned and not any(rules_matter(c) for c in cells):
        return  # no header here depends on rules: the drawings stay unread
    drawn = page_rules(page)  # on pages with a table only: drawings cost like text
    for unit in tables:
        unit.data["rules"] = spanning_rules(drawn.rules, unit.page_bbox)
        if not captioned:
            continue
        found = unit.data.get("rows")
        rows = len(found) if isinstance(found, list) else 0
        grid = ruled_grid(page, unit.page_bbox, unit.segs, rows, drawn)
        if grid is not None:
            unit.data["grid"] = grid
