"""Preparation is explicit: reading `Library.answerer` embeds nothing; `prepare()` embeds the
blocks lacking vectors of the current model and says how many."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.api import Library
from citewise.embed.base import DEFAULT_MODEL
from citewise.store.sqlite.vectors import vector_count
from tests.conftest import has_embedder
from tests.pdfs import write_paper

pytestmark = pytest.mark.skipif(not has_embedder(), reason="embedding model not installed")

BEES = [("1 Results", ["Colonies near sodium lamps made 17% more foraging trips after dusk."])]


def test_reading_the_answerer_embeds_nothing_and_prepare_embeds_what_is_missing(
    tmp_path: Path,
) -> None:
    library = tmp_path / "library"
    granite = write_paper(tmp_path / "granite.pdf")
    bees = write_paper(tmp_path / "bees.pdf", title="Honeybees at Night", sections=BEES)
    with Library(library) as lib:
        lib.ingest([granite])  # embedded
    with Library(library, embeddings=False) as lib:
        lib.ingest([bees])  # blocks without vectors
    with Library(library) as lib:
        before = vector_count(lib.store.db, DEFAULT_MODEL)
        assert before > 0
        _ = lib.answerer
        assert vector_count(lib.store.db, DEFAULT_MODEL) == before  # no hidden embedding
        prepared = lib.prepare()
        after = vector_count(lib.store.db, DEFAULT_MODEL)
        assert prepared.embedded == after - before > 0
        assert lib.prepare().embedded == prepared.embedded  # once
        hits = lib.search("foraging trips after dusk sodium lamps", k=3)
        assert hits and "foraging" in hits[0].block.text
