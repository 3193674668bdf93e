"""Page images: a PyMuPDF render of one PDF page with evidence blocks boxed.

A page may declare any size (a 10,000 pt page is 879 bytes of PDF), so the zoom shrinks
until the image fits a pixel budget: memory per render stays bounded whatever the file says.
"""

from __future__ import annotations

import math
from pathlib import Path

import pymupdf

from citewise.errors import CitewiseError, Kind

ZOOM = 1.5
MIN_ZOOM = 1e-3
HIGHLIGHT = (0.95, 0.55, 0.0)  # orange boxes, visible on white paper and black text
# MuPDF's own errors (FzErrorLimit past its size limits, ...) are not RuntimeErrors
MUPDF_ERRORS = (RuntimeError, ValueError, MemoryError, pymupdf.mupdf.FzErrorBase)


class PageNotFoundError(CitewiseError):
    code = "PAGE_NOT_FOUND"
    kind: Kind = "not_found"


class RenderError(CitewiseError):
    code = "RENDER_FAILED"


def fitting_zoom(width: float, height: float, max_pixels: int) -> float:
    """ZOOM, or less so that the rendered width * height stays within `max_pixels`."""
    area = width * height
    if not area > 0 or not math.isfinite(area):
        raise RenderError(
            f"the page has no drawable area ({width:g} x {height:g} pt)",
            hint="the PDF's page box is broken; open the file itself",
        )
    zoom = min(ZOOM, math.sqrt(max_pixels / area))
    while zoom > MIN_ZOOM and math.ceil(width * zoom) * math.ceil(height * zoom) > max_pixels:
        zoom *= 0.99  # pixel counts round up
    return max(zoom, MIN_ZOOM)


def render_page(
    path: str | Path, number: int, boxes: list[list[float]], max_pixels: int = 4_000_000
) -> bytes:
    """PNG of page `number` (1-based) of the PDF at `path`, each bbox drawn as a box, at
    most `max_pixels` pixels."""
    try:
        doc = pymupdf.open(path)
    except (pymupdf.FileDataError, *MUPDF_ERRORS) as exc:
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
        zoom = fitting_zoom(page.rect.width, page.rect.height, max_pixels)
        try:
            for bbox in boxes:
                if len(bbox) == 4:
                    rect = pymupdf.Rect(*bbox) + (-2, -2, 2, 2)
                    page.draw_rect(rect, color=HIGHLIGHT, width=2, overlay=True)
            pixmap = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
            png: bytes = pixmap.tobytes("png")
            return png
        except MUPDF_ERRORS as exc:
            raise RenderError(
                f"cannot render page {number} of '{Path(path).name}': {exc}",
                hint="the page is damaged or too complex to draw; open the PDF itself",
            ) from exc


def page_size(path: str | Path, number: int) -> list[float] | None:
    """Width and height in PDF points of page `number` (1-based), or None when the file is
    not a PDF that has it (the web app then scales boxes by the image alone)."""
    try:
        with pymupdf.open(path) as doc:
            if not doc.is_pdf or not 1 <= number <= doc.page_count:
                return None
            rect = doc[number - 1].rect
            return [round(rect.width, 2), round(rect.height, 2)]
    except (pymupdf.FileDataError, *MUPDF_ERRORS):
        return None
