"""A whole library on PostgreSQL: ingest two PDFs the test writes, ask, search, review;
the same answers and citations as the same files in a SQLite library folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.api import Library
from citewise.config import Settings
from tests.pdfs import write_paper
from tests.server.conftest import BEE_SECTIONS, BEE_TITLE

QUESTIONS = [
    "What accuracy did the classifier reach on the held-out test set?",
    "How many more foraging trips did colonies near sodium lamps make?",
    "What is the boiling point of liquid helium?",  # not in the library: refused on both
]


def _papers(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [
        write_paper(folder / "granite.pdf"),
        write_paper(folder / "bees.pdf", title=BEE_TITLE, sections=BEE_SECTIONS),
    ]


def _settings(location: str | Path, cache: Path) -> Settings:
    return Settings.load(location, environ={"XDG_CACHE_HOME": str(cache)})


@pytest.fixture
def libraries(pg_url: str, tmp_path: Path) -> list[Library]:
    papers = _papers(tmp_path / "papers")
    opened = []
    for location in (str(tmp_path / "sqlite"), pg_url):
        library = Library(location, settings=_settings(location, tmp_path / "cache"))
        report = library.ingest(papers)
        assert not report.failed and len(report.added) == 2
        opened.append(library)
    yield opened
    for library in opened:
        library.close()


def _answer(library: Library, question: str) -> dict[str, object]:
    found = library.ask(question).to_dict()
    return {
        key: found[key]
        for key in ("refused", "answer", "sentences", "evidence", "support_score")
        if key in found
    }


def test_a_postgres_library_answers_like_the_sqlite_one(libraries: list[Library]) -> None:
    sqlite, postgres = libraries
    assert postgres.settings.database is not None
    assert type(postgres.store).__name__ == "PostgresLibraryStore"
    assert postgres.store.vectors.any_vectors()
    assert postgres.document_list() == sqlite.document_list()
    for question in QUESTIONS:
        assert _answer(postgres, question) == _answer(sqlite, question), question
    answered = postgres.ask(QUESTIONS[0])
    assert not answered.refused and "93.4%" in answered.answer
    assert postgres.ask(QUESTIONS[2]).refused


def _unscored(record: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in record.items() if key != "score"}


def test_search_and_review_log_match(libraries: list[Library]) -> None:
    sqlite, postgres = libraries
    for query in ("acoustic probe echo", "lamps after dusk", "crusher downtime"):
        found, expected = postgres.search_records(query, k=4), sqlite.search_records(query, k=4)
        # The same records; scores agree to SQLite's float16 vectors (pgvector keeps float32).
        assert [_unscored(r) for r in found] == [_unscored(r) for r in expected]
        assert [r["score"] for r in found] == pytest.approx(
            [r["score"] for r in expected], abs=2e-3
        )
    postgres.ask(QUESTIONS[2])
    logged = postgres.review()
    assert logged and logged[0].refused and logged[0].question == QUESTIONS[2]
    assert postgres.store.vocabulary.all_terms() == sqlite.store.vocabulary.all_terms()


def test_reingest_is_a_no_op_and_a_second_process_sees_the_library(
    libraries: list[Library], tmp_path: Path, pg_url: str
) -> None:
    _, postgres = libraries
    again = postgres.ingest(sorted((tmp_path / "papers").glob("*.pdf")))
    assert not again.added and len(again.unchanged) == 2
    other_cache = tmp_path / "other-machine"
    with Library(pg_url, settings=_settings(pg_url, other_cache)) as elsewhere:
        assert elsewhere.directory != postgres.directory
        assert str(elsewhere.directory).startswith(str(other_cache))
        assert [d["id"] for d in elsewhere.document_list()] == [
            d["id"] for d in postgres.document_list()
        ]
        assert (
            elsewhere.ask(QUESTIONS[1]).to_dict()["evidence"]
            == (postgres.ask(QUESTIONS[1]).to_dict()["evidence"])
        )


def test_readers_of_one_library_share_one_pool(libraries: list[Library]) -> None:
    _, postgres = libraries
    reader = postgres.reader()
    assert reader.store.db is postgres.store.db  # type: ignore[attr-defined]
    reader.close()  # gives its share back; the library keeps working on the same pool
    assert postgres.ask(QUESTIONS[0]).to_dict()["evidence"]
