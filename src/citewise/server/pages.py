"""Page images: a PyMuPDF render of one PDF page with evidence blocks boxed."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citewise.errors import CitewiseError

ZOOM = 1.5
HIGHLIGHT = (0.95, 0.55, 0.0)  # orange boxes, visible on white paper and black text


class PageNotFoundError(CitewiseError):
    code = "PAGE_NOT_FOUND"
    exit_code = 3


def render_page(path: str | Path, number: int, boxes: list[list[float]]) -> bytes:
    """PNG of page `number` (1-based) of the PDF at `path`, each bbox drawn as a box."""
    try:
        doc = pymupdf.open(path)
    except (pymupdf.FileDataError, RuntimeError) as exc:
        raise PageNotFoundError(
            f"cannot open '{path}' as a PDF: {exc}",
            hint="only PDF documents have page images; is the file still there?",
        ) from exc
    with doc:
        if not doc.is_pdf or not 1 <= number <= doc.page_count:
            raise PageNotFoundError(
                f"no page {number} in '{Path(path).name}' ({doc.page_count} pages)",
                hint="pages are numbered from 1",
            )
        page = doc[number - 1]
        for bbox in boxes:
            if len(bbox) == 4:
                rect = pymupdf.Rect(*bbox) + (-2, -2, 2, 2)
                page.draw_rect(rect, color=HIGHLIGHT, width=2, overlay=True)
        pixmap = page.get_pixmap(matrix=pymupdf.Matrix(ZOOM, ZOOM), alpha=False)
        return pixmap.tobytes("png")
