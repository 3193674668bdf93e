"""Run-in headings ('Selecting PDFs We remove…') split into heading + paragraph."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pymupdf
import pytest

from citewise.documents.model import Document
from citewise.documents.pdf.reader import read_pdf
from tests.documents.conftest import CORPUS

PROSE = (
    "We tap each granite block forty times with a small steel probe and record every echo"
    " with a contact microphone that sits on the upper surface of the block during the test."
)


def test_a_bold_lead_in_in_a_written_pdf_becomes_a_heading(tmp_path: Path) -> None:
    pdf = pymupdf.open()
    page = pdf.new_page(width=595, height=842)
    html = (
        '<h1 style="font-size:18pt">Sorting Granite with Acoustic Probes</h1>'
        '<h2 style="font-size:12pt">2 Method</h2>'
        f'<p style="font-size:10pt">{PROSE} {PROSE}</p>'
        f'<p style="font-size:10pt"><b>Probe design.</b> Echoes are sampled at 48 kHz. {PROSE}</p>'
        f'<p style="font-size:10pt">{PROSE}</p>'
    )
    page.insert_htmlbox(pymupdf.Rect(72, 72, 380, 700), html)
    path = tmp_path / "runin.pdf"
    pdf.save(path)
    doc = read_pdf(path)
    heads = [b for b in doc.blocks if b.kind == "heading"]
    assert [h.text for h in heads] == ["2 Method", "Probe design."]
    after = doc.blocks[heads[1].ordinal + 1]
    assert after.text.startswith("Echoes are sampled at 48 kHz.")
    assert after.section_path == "2 Method > Probe design."
    assert not any("Probe design." in b.text for b in doc.blocks if b.kind == "paragraph")


@cache
def _parsed(name: str) -> Document:
    return read_pdf(CORPUS / name)


RUN_IN = {
    "2020.acl-main.447.pdf": {
        "Selecting PDFs": "We remove PDFs",
        "Extracting structured data from PDFs": "We use SCIENCEPARSE",
        "Postprocessing GROBID output": "We postprocess GROBID output",
    },
    "N18-3011.pdf": {"Papers.": "We obtain metadata", "Citations.": "We instantiate a directed"},
}


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")
@pytest.mark.parametrize("name", sorted(RUN_IN))
def test_corpus_run_in_headings_are_split(name: str) -> None:
    doc = _parsed(name)
    for heading, opening in RUN_IN[name].items():
        block = next((b for b in doc.blocks if b.text == heading), None)
        assert block is not None and block.kind == "heading", heading
        after = doc.blocks[block.ordinal + 1]
        assert after.text.startswith(opening), (heading, after.text[:60])
        assert after.section_path.endswith(heading) and " > " in after.section_path
        fused = [b for b in doc.blocks if b.text.startswith(f"{heading} {opening}")]
        assert fused == [], heading
