"""Documents, blocks and references through the Store protocol."""

from __future__ import annotations

import numpy as np
import pytest

from citewise.documents.model import Citation, Reference
from citewise.store.filters import BlockFilter
from citewise.store.protocols import Store
from tests.store.contract.conftest import paper


def test_a_saved_document_reads_back_with_its_blocks_in_order(store: Store) -> None:
    doc_id = store.save_document(paper("a", "Granite Sorting", ["Intro", "granite", "basalt"]))
    found = store.document(doc_id)
    assert found is not None and found.title == "Granite Sorting" and found.blocks == 3
    assert [b.text for b in store.blocks(doc_id)] == ["Intro", "granite", "basalt"]
    assert store.document_by_sha(found.sha256) == found
    assert store.document_by_path(found.path) == found
    assert [d.id for d in store.documents()] == [doc_id]
    assert store.stats() == {"documents": 1, "blocks": 3, "pages": 2}


def test_metadata_updates_only_the_fields_given(store: Store) -> None:
    doc_id = store.save_document(paper("a", "Old Title", ["x"]))
    store.update_metadata(doc_id, {"title": "New Title", "pmid": "123", "csl": {"id": doc_id}})
    found = store.document(doc_id)
    assert found is not None
    assert (found.title, found.pmid, found.csl, found.year) == (
        "New Title",
        "123",
        {"id": doc_id},
        2024,
    )


def test_deleting_a_document_removes_its_blocks(store: Store) -> None:
    doc_id = store.save_document(paper("a", "Granite", ["x", "y"]))
    rowids = [b.rowid for b in store.blocks(doc_id)]
    store.delete_document(doc_id)
    assert store.document(doc_id) is None and store.blocks_by_rowid(rowids) == {}


def test_candidates_follow_the_filter_and_skip_untrusted_blocks(store: Store) -> None:
    a = store.save_document(paper("a", "Granite", ["h", "p1", "p2", "p3"]))
    b = store.save_document(paper("b", "Basalt", ["h", "q1"]))
    everything = store.candidates(BlockFilter())
    assert list(everything) == sorted(everything) and len(everything) == 6
    only_a = store.candidates(BlockFilter(documents=(a,)))
    assert {store.blocks_by_rowid([int(r)])[int(r)].document_id for r in only_a} == {a}
    page_two = store.candidates(BlockFilter(documents=(a,), pages=(2,)))
    assert [store.blocks_by_rowid([int(r)])[int(r)].text for r in page_two] == ["p2", "p3"]
    headings = store.candidates(BlockFilter(kinds=("heading",)))
    assert len(headings) == 2 and b in {store.blocks_by_rowid([int(r)])[int(r)].document_id
                                        for r in headings}  # fmt: skip
    assert isinstance(everything, np.ndarray)


def test_neighbours_are_the_adjacent_blocks_of_the_same_document(store: Store) -> None:
    doc_id = store.save_document(paper("a", "Granite", ["h", "p1", "p2", "p3"]))
    blocks = store.blocks(doc_id)
    assert [b.text for b in store.neighbours(blocks[2])] == ["p1", "p3"]


def test_neighbours_of_many_blocks_are_each_blocks_neighbours_in_order(store: Store) -> None:
    granite = paper("a", "Granite", ["h", "p1", "p2", "p3", "p4"])
    granite.blocks[3].trusted = False  # "p3": never context
    a = store.save_document(granite)
    b = store.save_document(paper("b", "Basalt", ["h", "q1"]))
    blocks = store.blocks(a) + store.blocks(b)
    chosen = [blocks[4], blocks[0], blocks[6], blocks[2], blocks[0]]
    texts = [[n.text for n in found] for found in store.neighbours_of(chosen)]
    assert texts == [[], ["p1"], ["h"], ["p1"], ["p1"]]
    for span in (1, 2, 3):
        one_by_one = [store.neighbours(block, span) for block in chosen]
        assert store.neighbours_of(chosen, span) == one_by_one
    assert store.neighbours_of([]) == []


def test_block_source_counts_changes_and_lists_trusted_blocks(store: Store) -> None:
    before = store.block_state()
    doc_id = store.save_document(paper("a", "Granite", ["h", "p1"]))
    after = store.block_state()
    assert after.inserted == before.inserted + 2
    chunks = list(store.iter_trusted_blocks(0, 1))
    assert [len(c) for c in chunks] == [1, 1] and chunks[1][0][1] == "p1"
    assert list(store.trusted_rowids()) == [b.rowid for b in store.blocks(doc_id)]


def test_references_resolve_to_library_documents_both_ways(store: Store) -> None:
    cited = store.save_document(paper("b", "Basalt Columns", ["h", "text"], doi="10.1/b"))
    entries = [
        Reference(1, "Quarry. Basalt Columns. 2024", title="Basalt Columns", doi="10.1/B"),
        Reference(2, "Doe. Unknown work. 2001", title="Unknown work", year=2001),
    ]
    citing = store.save_document(
        paper("a", "Granite", ["h", "as [1] shows"], references=entries,
              citations=[Citation(1, 1, "[1]")])
    )  # fmt: skip
    refs = store.references(citing)
    assert [(r.ordinal, r.resolved_document) for r in refs] == [(1, cited), (2, None)]
    assert store.cited_by(cited) == [citing]
    ((block, reference, marker),) = store.citations(citing)
    assert (reference, marker) == (refs[0].id, "[1]")
    assert block == store.blocks(citing)[1].id


def test_references_resolve_by_a_close_title_within_a_year_both_ways(store: Store) -> None:
    # Entries without a DOI: the title decides (case, punctuation and a typo aside), and a
    # year more than one off does not; saved before the cited paper, they resolve when it
    # comes.
    entries = [
        Reference(1, "Quarry. Columnar jointing of basalt flows. 2024",
                  title="Columnar Jointing of Basalt Flows", year=2024),
        Reference(2, "Quarry. Columnar jointing of basalt flows. 2019",
                  title="Columnar jointing of basalt flows.", year=2019),
        Reference(3, "Stone. Granite sorting, acoustic probes. 2023",
                  title="Granite sorting with acoustic probe", year=2023),
    ]  # fmt: skip
    citing = store.save_document(paper("a", "Quarry Notes", ["h", "text"], references=entries))
    granite = store.save_document(paper("g", "Granite Sorting with Acoustic Probes", ["h", "text"]))
    basalt = store.save_document(paper("b", "Columnar jointing of basalt flows", ["h", "t"]))
    refs = store.references(citing)
    assert [(r.ordinal, r.resolved_document) for r in refs] == [
        (1, basalt), (2, None), (3, granite)
    ]  # fmt: skip
    later = store.save_document(
        paper("c", "Later", ["h", "text"], references=[
            Reference(1, "Quarry. Granite Sorting with Acoustic Probes", title="granite "
                      "sorting with acoustic probes", year=2025)])
    )  # fmt: skip
    assert [r.resolved_document for r in store.references(later)] == [granite]


@pytest.mark.parametrize("missing", ["nobody"])
def test_unknown_documents_read_as_none_or_empty(store: Store, missing: str) -> None:
    assert store.document(missing) is None
    assert store.blocks(missing) == [] and store.references(missing) == []
