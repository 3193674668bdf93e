"""PNG crops of a page region: an equation, a table, a figure with its caption.

The text of an equation can be unusable (symbol fonts without a Unicode map); the crop
shows it as printed. A figure's region is found from the page's graphics (images and
vector drawings) next to its caption, bounded by the nearest prose block.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citewise.errors import CitewiseError

Box = tuple[float, float, float, float]
PROSE = ("paragraph", "heading", "list", "reference")


HINT = "check that the document's PDF is still at the path the library recorded"


def _fail(message: str) -> CitewiseError:
    return CitewiseError(message, HINT, code="CROP_FAILED")


def crop_png(
    pdf: Path, page: int, bbox: Box, out: Path, pad: float = 4.0, zoom: float = 2.0
) -> Box:
    """Write the region `bbox` of 1-based `page` to `out` as PNG; return the clip used."""
    try:
        doc = pymupdf.open(pdf)
    except (RuntimeError, ValueError) as exc:
        raise _fail(f"cannot open {pdf}: {exc}") from exc
    with doc:
        if not 1 <= page <= doc.page_count:
            raise _fail(f"{pdf} has no page {page}")
        target = doc[page - 1]
        rect = pymupdf.Rect(bbox) + (-pad, -pad, pad, pad)
        rect &= target.rect
        if rect.is_empty:
            raise _fail(f"empty region {bbox} on page {page} of {pdf}")
        pix = target.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), clip=rect)
        pix.save(out)
        return (rect.x0, rect.y0, rect.x1, rect.y1)


def figure_box(pdf: Path, page: int, caption: Box, prose: list[Box]) -> Box:
    """The figure above (else below) its caption, with the caption: graphics between the
    caption and the nearest prose block on that side, united with the caption box."""
    with pymupdf.open(pdf) as doc:
        target = doc[page - 1]
        shapes = [tuple(i["bbox"]) for i in target.get_image_info()]
        shapes += [tuple(d["rect"]) for d in target.get_drawings()]
        height = target.rect.height
    x0, y0, x1, y1 = caption
    for above in (True, False):
        limit = _limit(caption, prose, above, height)
        near = [
            s
            for s in shapes
            if (s[3] <= y0 + 2 and s[1] >= limit if above else s[1] >= y1 - 2 and s[3] <= limit)
            and s[2] - s[0] > 2
            and s[3] - s[1] > 2
        ]
        if near:
            boxes = [*near, caption]
            return (
                min(b[0] for b in boxes),
                min(b[1] for b in boxes),
                max(b[2] for b in boxes),
                max(b[3] for b in boxes),
            )
    top = _limit(caption, prose, True, height)
    return (x0, top, x1, y1)  # no graphics found: the band above the caption


def _limit(caption: Box, prose: list[Box], above: bool, height: float) -> float:
    """y of the nearest prose block edge above (or below) the caption, overlapping it in x."""
    x0, y0, x1, y1 = caption
    side = [b for b in prose if b[0] < x1 and b[2] > x0]
    if above:
        return max((b[3] for b in side if b[3] <= y0), default=0.0)
    return min((b[1] for b in side if b[1] >= y1), default=height)
