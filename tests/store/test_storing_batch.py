"""What the storing process does for a batch beyond saving rows: the vocabulary learned from
each parse as it is stored (the same terms as learning from the store afterwards), a
failure there left to the next pass, the garbage collector's setting given back."""

from __future__ import annotations

import gc
from pathlib import Path

import numpy as np

from citewise.agent.ask.vocabulary import learn
from citewise.api import Library
from citewise.documents.model import Document
from citewise.ingest import AsStored, ingest
from citewise.ingest_files import YOUNG_COLLECTION
from citewise.retrieval.keyword_index import KeywordIndex
from citewise.store.sqlite.library import LibraryStore
from tests.pdfs import write_paper

SECTIONS = [
    (
        "1 Method",
        [
            "We tune the learning rate (LR) of the OreNet classifier on the Bergen quarry "
            "set. OreNet reads the echo spectrum; OreNet labels each granite block.",
        ],
    ),
    ("2 Results", ["With the LR at 0.01 the classifier labels 93.4% of blocks correctly."]),
]


def _terms(store: LibraryStore) -> list[tuple[str, str, str, str]]:
    return sorted((t.document_id, t.kind, t.short, t.long) for t in store.vocabulary.all_terms())


def test_vocabulary_learned_while_storing_equals_learning_from_the_store(tmp_path: Path) -> None:
    pdf = write_paper(tmp_path / "ore.pdf", "Tuning OreNet for Quarries", SECTIONS)
    with Library(tmp_path / "lib", embeddings=False) as lib:
        report = lib.ingest([pdf])
        store = lib.store
        assert isinstance(store, LibraryStore)
        learned = _terms(store)
        assert store.vocabulary.unlearned_documents() == []
        store.db.execute("DELETE FROM vocabulary")
        store.db.execute("DELETE FROM vocabulary_documents")
        store.db.commit()
        assert learn(store) == 1
        assert _terms(store) == learned
    doc_id = report.added[0]
    assert (doc_id, "abbreviation", "LR", "learning rate") in learned
    assert (doc_id, "name", "OreNet", "") in learned


def test_a_failure_after_storing_keeps_the_document_and_a_later_pass_learns_it(
    tmp_path: Path,
) -> None:
    pdf = write_paper(tmp_path / "ore.pdf", "Tuning OreNet for Quarries", SECTIONS)
    store = LibraryStore(tmp_path / "lib")
    thresholds: list[int] = []

    def fail(doc_id: str, doc: Document) -> None:
        thresholds.append(gc.get_threshold()[0])
        raise RuntimeError("vocabulary store unavailable")

    before = gc.get_threshold()
    try:
        report = ingest(store, [pdf], on_stored=fail)
        assert report.failed == [] and len(report.added) == 1
        assert store.vocabulary.unlearned_documents() == [
            (report.added[0], store.documents()[0].sha256)
        ]
        assert learn(store) == 1  # the next refresh's pass
        assert store.vocabulary.unlearned_documents() == []
        # collections were spaced while the batch was stored, and the setting is back
        assert thresholds and thresholds[0] >= YOUNG_COLLECTION
        assert gc.get_threshold() == before
        # unchanged on a rerun: the file is read and hashed once and found in the library
        again = ingest(store, [pdf], on_stored=fail)
        assert again.unchanged == report.added and again.added == []
        assert len(thresholds) == 1
    finally:
        store.close()


def test_keyword_postings_analysed_as_stored_serve_the_refresh_and_match_a_rebuild(
    tmp_path: Path,
) -> None:
    pdfs = [
        write_paper(tmp_path / "ore.pdf", "Tuning OreNet for Quarries", SECTIONS),
        write_paper(tmp_path / "slate.pdf", "Slate Cleavage", [("1 Intro", ["Slate splits."])]),
    ]
    with Library(tmp_path / "lib", embeddings=False) as lib:
        store = lib.store
        assert isinstance(store, LibraryStore)
        stored = AsStored(store)
        assert stored.ahead is None and stored.cover([]) == []  # nothing imported yet
        report = ingest(store, pdfs, on_stored=stored)
        assert stored.ahead is not None and len(stored.ahead.pieces) == len(report.added)
        rows = [r for chunk in store.iter_trusted_blocks() for r in chunk]
        texts = [(text, section, label) for _, text, section, label in rows]
        pieces = stored.cover(texts)
        # each document's rows covered by its own piece, none analysed again
        assert [len(p.blocks) for _, p in pieces] == [
            sum(b.trusted for b in store.blocks(d)) for d in report.added
        ]
        ahead = KeywordIndex(lib.directory)
        ahead.refresh(store, stored.cover)
        hits = ahead.search(["OreNet", "slate"], 10)
    rebuilt = KeywordIndex(tmp_path / "elsewhere")
    with Library(tmp_path / "lib", embeddings=False) as lib:
        rebuilt.refresh(lib.store)  # a read-only-like rebuild from the rows alone
        for mine, theirs in zip(ahead.segments, rebuilt.segments, strict=True):
            assert np.array_equal(mine.counts, theirs.counts)
            assert np.array_equal(mine.lengths, theirs.lengths)
            assert np.array_equal(mine.keys, theirs.keys)
        assert rebuilt.search(["OreNet", "slate"], 10) == hits and hits
