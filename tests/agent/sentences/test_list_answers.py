"""A "which two X" question answered by the list its passage announces ("We use two KBs:
UMLS: ... DBpedia: ..."): the item names, not the first one only (agent/sentences/spans.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citewise.agent.sentences.spans import listed_items
from citewise.api import Library

PASSAGE = (
    "Unlike earlier sorting systems, we rely on existing rock catalogues to name the stones. "
    "We use two catalogues: GEOROC: The GEOROC database collects analyses of volcanic rocks "
    "from many published sources. PetDB: PetDB holds chemical data of igneous and "
    "metamorphic rocks from the ocean floor."
)


def test_which_two_lists_both_item_names(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "Naming Stones by Catalogue", fontsize=18, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 110, 523, 400), PASSAGE, fontsize=10, fontname="helv")
    doc.save(tmp_path / "stones.pdf")
    doc.close()
    library = Library(tmp_path / "library", embeddings=False)
    try:
        assert library.ingest([tmp_path / "stones.pdf"]).failed == []
        answer = library.ask("Which two catalogues are used to name the stones?")
        assert not answer.refused, answer
        assert "GEOROC, PetDB" in answer.answer
    finally:
        library.close()


def test_a_list_is_read_only_for_a_question_asking_for_that_many() -> None:
    span = "We use two catalogues: GEOROC"
    assert listed_items("Which two catalogues are used?", span, PASSAGE).endswith("GEOROC, PetDB")
    # no count asked, or more items asked than listed: the span stays as it is
    assert listed_items("Which catalogue holds ocean rocks?", span, PASSAGE) == span
    assert listed_items("Which three catalogues are used?", span, PASSAGE) == span
