"""Hostile files the tests write themselves: small inputs that cost a naive parser dearly.

Each generator writes its file and returns the path. Sizes are parameters, so a test can
make a file just big enough to cross a budget it lowers itself instead of a full-size bomb.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

WORDS = ("granite", "echo", "probe", "basalt", "quarry", "crack", "spectrum", "saw")


def _with_content(path: Path, content: bytes, width: float = 595, height: float = 842) -> Path:
    """A one-page PDF whose page shows `content` (a raw content stream) in Helvetica 'F1'."""
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    page.insert_text((72, 72), "x", fontname="helv", fontsize=10)  # adds a font resource
    font = doc.get_page_fonts(0)[0][4]  # the resource name PyMuPDF gave it
    xref = page.get_contents()[0]
    doc.update_stream(xref, content.replace(b"/F1 ", f"/{font} ".encode()))
    doc.save(path, garbage=3, deflate=True)
    doc.close()
    return path


def write_stacked_lines(
    path: Path, lines: int = 4000, step: float = 0.01, size: float = 9, columns: int = 40
) -> Path:
    """Text lines stacked `step` pt apart: with the default sizes one visual row of `lines`
    segments; with `size` below `step` as many rows (a few KB either way)."""
    ops = [b"BT /F1 %.2f Tf" % size]
    for i in range(lines):
        x = 72 + (i % columns) * 11
        y = 700 - i * step
        ops.append(b"1 0 0 1 %.2f %.3f Tm (%s) Tj" % (x, y, WORDS[i % len(WORDS)].encode()))
    ops.append(b"ET")
    return _with_content(path, b"\n".join(ops))


def _text_operators(count: int, font: bytes = b"F1") -> bytes:
    """`count` text-showing operators, none merging with the next into one span: a grid of
    positions, each shown in turn at another size. The pattern repeats every 480 operators
    (~20 KB), so the stream deflates to little."""
    cells = [b"1 0 0 1 %d %d Tm" % (36 + 21 * (k % 24), 60 + 36 * (k // 24)) for k in range(480)]
    period = [
        b"/%s %d Tf %s (%s) Tj" % (font, 3 + k % 3, cell, WORDS[k % len(WORDS)].encode())
        for k, cell in enumerate(cells)
    ]
    return b"\n".join([b"BT", *(period[i % len(period)] for i in range(count)), b"ET"])


def write_text_operator_bomb(path: Path, operators: int = 300_000) -> Path:
    """One content stream with `operators` text-showing operators: a small file, a huge
    page once laid out (every operator is its own span in get_text('dict'))."""
    return _with_content(path, _text_operators(operators))


def write_form_bomb(path: Path, operators: int = 2000, repeats: int = 100) -> Path:
    """A form XObject of `operators` text operators drawn `repeats` times (a few KB): the
    page's own content shows no text at all, yet lays out operators x repeats spans."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 72), "x", fontname="helv", fontsize=10)
    font_xref, _, _, _, font, *_ = doc.get_page_fonts(0)[0]
    form = doc.get_new_xref()
    doc.update_object(
        form,
        f"<< /Type /XObject /Subtype /Form /BBox [0 0 595 842] "
        f"/Resources << /Font << /{font} {font_xref} 0 R >> >> >>",
    )
    doc.update_stream(form, _text_operators(operators, font.encode()))
    kind, value = doc.xref_get_key(page.xref, "Resources")
    if kind == "xref":  # resources held in an object of their own
        doc.xref_set_key(int(value.split()[0]), "XObject", f"<< /Fm0 {form} 0 R >>")
    else:
        doc.xref_set_key(page.xref, "Resources/XObject", f"<< /Fm0 {form} 0 R >>")
    doc.update_stream(page.get_contents()[0], b"q /Fm0 Do Q\n" * repeats)
    doc.save(path, garbage=3, deflate=True)
    doc.close()
    return path


def write_giant_page(path: Path, points: float = 10_000, scanned: bool = False) -> Path:
    """A page `points` pt on each side (under 1 KB) with a sentence of text on it, or, when
    `scanned`, only a small picture stretched over it (a scan: OCR renders the whole page)."""
    doc = pymupdf.open()
    page = doc.new_page(width=points, height=points)
    if scanned:
        pixels = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 8, 8), False)
        pixels.clear_with(200)
        page.insert_image(page.rect, pixmap=pixels)
    else:
        page.insert_text((72, 72), "A sentence on a very large page.", fontname="helv", fontsize=10)
    doc.save(path, garbage=3, deflate=True)
    doc.close()
    return path


def write_one_line_markdown(path: Path, megabytes: float = 4.0) -> Path:
    """A Markdown file whose body is one line and one endless sentence of `megabytes` MB
    (no full stop to split it at, as in a dumped log or a minified export)."""
    phrase = "the quarry probe measured the granite echo at forty taps per block and "
    count = int(megabytes * 1_000_000) // len(phrase) + 1
    path.write_text("# One line\n\n" + phrase * count + "so on.\n", encoding="utf-8")
    return path
