"""The store contract: every test here is written against store/protocols.py and runs once per
implementation. A new store (PostgreSQL) joins by adding a factory to IMPLEMENTATIONS."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from citewise.documents.model import Block, Citation, Document, Reference
from citewise.store.protocols import Store
from citewise.store.sqlite.library import LibraryStore
from tests.store.postgres.server import pg_server, pg_url

__all__ = ["pg_server", "pg_url"]


def _postgres(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    from citewise.store.postgres import PostgresLibraryStore

    return PostgresLibraryStore(request.getfixturevalue("pg_url"), directory=tmp_path)


IMPLEMENTATIONS: dict[str, Callable[[pytest.FixtureRequest, Path], Store]] = {
    "sqlite": lambda request, path: LibraryStore(path),
    "postgres": _postgres,  # a fresh schema in the session's PostgreSQL (skips without one)
}


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened = IMPLEMENTATIONS[request.param](request, tmp_path)
    yield opened
    close = getattr(opened, "close", None)
    if close is not None:
        close()


def paper(
    sha: str,
    title: str,
    texts: list[str],
    *,
    doi: str | None = None,
    references: list[Reference] | None = None,
    citations: list[Citation] | None = None,
) -> Document:
    """A small parsed document: two blocks a page, the first a heading."""
    blocks = [
        Block(i, "heading" if i == 0 else "paragraph", 1 + i // 2, (0.0, i, 10.0, i + 1.0), t)
        for i, t in enumerate(texts)
    ]
    return Document(
        path=Path(f"/papers/{sha[:6]}.pdf"),
        sha256=sha * (64 // len(sha)),
        kind="pdf",
        pages=1 + (len(texts) - 1) // 2,
        blocks=blocks,
        title=title,
        authors=["Ada Quarry"],
        year=2024,
        doi=doi,
        references=references or [],
        citations=citations or [],
    )
