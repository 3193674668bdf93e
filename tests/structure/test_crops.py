"""PNG crops: `formula DOC 1 --png`, `table DOC 1 --png`, `figure DOC 1 --png`."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from citewise.documents.math.equations import image_only
from citewise.documents.pdf.crops import crop_png, figure_box
from citewise.documents.pdf.reader import read_pdf
from citewise.errors import CitewiseError
from tests.conftest import CORPUS
from tests.structure.test_structure_cli import cli, doc_id

PROSE = [
    "Granite blocks differ in grain and in hidden cracks that only show once cut.",
    "The probe taps each block forty times and records each echo with a microphone.",
]


def write_figure_paper(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "Echoes of Granite", fontsize=20, fontname="hebo")
    page.insert_text((72, 120), "1 Introduction", fontsize=12, fontname="hebo")
    y = 140.0
    for line in PROSE:
        page.insert_text((72, y), line, fontsize=10)
        y += 13
    page.draw_rect(pymupdf.Rect(150, 200, 450, 380), color=(0, 0, 1), fill=(0.8, 0.8, 1))
    page.insert_text((72, 400), "Figure 1: Echo energy of twelve blocks.", fontsize=9)
    y = 440.0
    for line in PROSE:
        page.insert_text((72, y), line, fontsize=10)
        y += 13
    doc.save(path)
    return path


def test_a_figure_region_is_its_graphics_and_caption(tmp_path: Path) -> None:
    pdf = write_figure_paper(tmp_path / "fig.pdf")
    box = figure_box(pdf, 1, (72, 392, 260, 402), [(72, 130, 480, 170), (72, 430, 480, 470)])
    assert box[0] <= 150 and box[1] <= 200 and box[2] >= 450 and box[3] >= 402
    assert box[1] >= 170  # stops at the prose above
    out = tmp_path / "fig.png"
    clip = crop_png(pdf, 1, box, out, zoom=1.0)
    pix = pymupdf.Pixmap(str(out))
    assert abs(pix.width - (clip[2] - clip[0])) <= 2 and abs(pix.height - (clip[3] - clip[1])) <= 2


def test_a_missing_page_is_a_citewise_error(tmp_path: Path) -> None:
    pdf = write_figure_paper(tmp_path / "fig.pdf")
    with pytest.raises(CitewiseError) as err:
        crop_png(pdf, 3, (0, 0, 10, 10), tmp_path / "x.png")
    assert err.value.code == "CROP_FAILED"


def test_figure_command_writes_the_crop(tmp_path: Path) -> None:
    pdf = write_figure_paper(tmp_path / "fig.pdf")
    lib = tmp_path / "lib"
    assert cli(lib, "ingest", "--no-embed", "--json", str(pdf))[0] == 0
    png = tmp_path / "f1.png"
    code, out = cli(lib, "figure", doc_id(lib), "1", "--png", str(png), "--json")
    assert code == 0, out
    shown = json.loads(out)
    assert shown["label"] == "Figure 1" and shown["page"] == 1
    x0, y0, x1, y1 = shown["bbox"]
    assert x0 <= 150 and y0 <= 200 and x1 >= 450 and 395 <= y1 <= 420
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert cli(lib, "figure", doc_id(lib), "7")[0] != 0  # no such figure


def test_a_missing_figure_exits_3_naming_the_figures_there(tmp_path: Path) -> None:
    from citewise.cli import app
    from citewise.cli.testing import CliRunner

    pdf = write_figure_paper(tmp_path / "fig.pdf")
    lib = tmp_path / "lib"
    assert cli(lib, "ingest", "--no-embed", "--json", str(pdf))[0] == 0
    doc = doc_id(lib)
    result = CliRunner().invoke(app, ["--library", str(lib), "figure", doc, "Fig. 7"])
    assert result.exit_code == 3
    assert result.stderr == f"error: no figure 'Fig. 7' in {doc} (figures: Figure 1)\n"


def test_formula_and_table_png(tmp_path: Path, structured_pdf: Path) -> None:
    lib = tmp_path / "lib"
    assert cli(lib, "ingest", "--no-embed", "--json", str(structured_pdf))[0] == 0
    eq, tab = tmp_path / "eq1.png", tmp_path / "t1.png"
    assert cli(lib, "formula", doc_id(lib), "1", "--png", str(eq))[0] == 0
    assert cli(lib, "table", doc_id(lib), "1", "--png", str(tab))[0] == 0
    for png in (eq, tab):
        pix = pymupdf.Pixmap(str(png))
        assert pix.width > 40 and pix.height > 10
    # the equation crop is a line, the table crop several rows
    assert pymupdf.Pixmap(str(tab)).height > pymupdf.Pixmap(str(eq)).height


def test_unusable_equation_text_is_flagged_image_only() -> None:
    for text in (",", "l", "\ufffd −1 \ufffd", "q ),", ""):
        assert image_only(text), text
    for text in ("cl(t) = exp(−klt),", "ΨW = Ψ ◦W", "C(i, l) = e−klti."):
        assert not image_only(text), text


@pytest.mark.skipif(not (CORPUS / "MullenJSSv18i03.pdf").is_file(), reason="corpus absent")
def test_every_numbered_equation_of_a_real_paper_has_a_crop(tmp_path: Path) -> None:
    doc = read_pdf(CORPUS / "MullenJSSv18i03.pdf")
    eqs = [b for b in doc.blocks if b.kind == "equation" and b.label]
    assert len(eqs) == 31
    for block in eqs:
        out = tmp_path / f"{block.ordinal}.png"
        crop_png(CORPUS / "MullenJSSv18i03.pdf", block.page, block.bbox, out, zoom=1.0)
        assert pymupdf.Pixmap(str(out)).width > 5
    flagged = {b.label for b in eqs if (b.data or {}).get("image_only")}
    assert len(flagged) <= 2, flagged
    # Read as ',' 'l' ',' '� −1 �' before the formula's fragments were gathered: now each
    # is one equation whose text holds its visible pieces in order.
    text = {b.label: (b.data or {}).get("text", "") for b in eqs}
    for label, pieces in {
        "Eq. (5)": ["el(¯ν) = al exp", "ln(2)", "2(¯ν −µ¯ν)", "∆¯ν"],
        "Eq. (16)": ["Ψ = CE⊤", "l=1", "clϵ⊤"],
        "Eq. (24)": ["ϵl(¯νmax, ∆¯ν, b)", "exp", "ln", "1 + 2b(¯ν −¯νmax)", "∆¯ν"],
        "Eq. (25)": ["¯νavg = ¯νmax + ∆¯ν", "exp", "3b", "4", "ln(2)"],
    }.items():
        at = 0
        for piece in pieces:
            at = text[label].find(piece, at)
            assert at >= 0, (label, piece, text[label])
