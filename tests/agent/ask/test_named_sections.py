"""A question that points its answer at a section ("in the Appendix", "in Section 2") is
not answered from elsewhere in the paper: the main text's sentence is refused, the
appendix's sentence answers."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citewise.agent.ask.refusal import NOT_ANSWERED
from citewise.api import Library

MAIN = "We select three prompt examples from the training set of each slab dataset."


def _paper(path: Path, appendix: str) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 72), "Prompting for Slab Grading", fontsize=18, fontname="hebo")
    page.insert_text((72, 120), "1 Introduction", fontsize=12, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 130, 523, 200), MAIN, fontsize=10)
    page.insert_text((72, 230), "2 Method", fontsize=12, fontname="hebo")
    page.insert_textbox(
        pymupdf.Rect(72, 240, 523, 300),
        "A grader model reads each slab scan and predicts its grade.",
        fontsize=10,
    )
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 72), "References", fontsize=12, fontname="hebo")
    page.insert_textbox(
        pymupdf.Rect(72, 82, 523, 120), "Mason, C. 2020. Grading slabs. Quarry Press.", fontsize=9
    )
    page.insert_text((72, 160), "A Prompt Examples", fontsize=12, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 170, 523, 240), appendix, fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_the_appendix_answers_and_the_main_text_does_not(tmp_path: Path) -> None:
    lib = Library(tmp_path / "lib", embeddings=False)
    lib.ingest([
        _paper(tmp_path / "stated.pdf", "This appendix lists the five prompt examples in full."),
        _paper(tmp_path / "silent.pdf", "The slab dataset has four hundred test scans."),
    ])  # fmt: skip
    docs = {Path(d.path).name: d.id for d in lib.documents()}
    asked = "How many prompt examples are given in the Appendix?"
    stated = lib.ask(asked, [docs["stated.pdf"]])
    assert not stated.refused and "five prompt examples" in stated.answer, stated.answer
    silent = lib.ask(asked, [docs["silent.pdf"]])
    assert silent.refused and silent.refusal_kind == NOT_ANSWERED, silent.answer
    assert silent.withheld[0].text == MAIN  # the sentence the draft rested on, shown first
    # without pointing at a section, the main text's sentence answers
    plain = lib.ask("How many prompt examples are selected?", [docs["silent.pdf"]])
    assert not plain.refused and plain.answer == MAIN
