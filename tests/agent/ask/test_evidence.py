"""One evidence builder for every answer path: extractive answers and quoted cells cite a
block the same way, a saved search record as "abstract of ..."."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from citewise.agent.ask.evidence import Citations
from citewise.agent.numeric.quoted import Quoted, evidence
from citewise.documents.model import Block, Document
from citewise.store.sqlite.library import LibraryStore


def _document(name: str, kind: str, path: Path) -> Document:
    return Document(
        path=path,
        sha256=name[0] * 64,
        kind=kind,
        pages=2,
        blocks=[
            Block(0, "heading", 1, (10.0, 10.0, 200.0, 30.0), "Results"),
            Block(1, "paragraph", 2, (10.04, 40.06, 300.0, 90.0), "Granite cools at 4.2 K/s."),
        ],
        title=f"{name.title()} Cooling",
        authors=["Ada Quarry"],
        year=2024,
    )


def test_a_block_is_cited_with_its_document_page_link_and_box(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path / "library")
    pdf = tmp_path / "granite.pdf"
    doc_id = store.save_document(_document("granite", "pdf", pdf))
    block = store.blocks(doc_id)[1]
    cited = Citations(store).evidence(block)
    assert (cited.title, cited.page, cited.quote) == ("Granite Cooling", 2, block.text)
    assert cited.link == f"{pdf.as_uri()}#page=2"
    assert cited.bbox == [10.0, 40.1, 300.0, 90.0]
    assert cited.cell_bbox is None and cited.zotero is None
    # a quoted cell is the same evidence item, with its quote and its cell's box
    cell = evidence(store, Quoted(block, "4.2 K/s", [20.0, 40.0, 60.0, 50.0]))
    assert cell == replace(cited, quote="4.2 K/s", cell_bbox=[20.0, 40.0, 60.0, 50.0])


def test_a_saved_abstract_is_cited_as_the_abstract_on_every_path(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path / "library")
    doc_id = store.save_document(_document("basalt", "abstract", tmp_path / "basalt.md"))
    block = store.blocks(doc_id)[1]
    assert Citations(store).evidence(block).title == "abstract of Basalt Cooling"
    assert evidence(store, Quoted(block, "4.2 K/s")).title == "abstract of Basalt Cooling"
