"""`citewise compact` gives a library's free pages back to the disk, and says why when it
cannot (a read-only store)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.errors import LibraryError
from citewise.store.sqlite.library import DB_NAME, LibraryStore
from tests.commands import citewise as cli
from tests.pdfs import write_paper


def test_compact_returns_the_pages_a_deletion_freed(tmp_path: Path) -> None:
    library = tmp_path / "library"
    folder = tmp_path / "papers"
    folder.mkdir()
    for i in range(6):
        sections = [
            (f"{n} Section", [f"Paragraph {n} of paper {i} about basalt. " * 40])
            for n in range(1, 4)
        ]
        write_paper(folder / f"p{i}.pdf", title=f"Basalt Study Number {i}", sections=sections)
    assert cli(library, "ingest", str(folder)).returncode == 0
    store = LibraryStore(library)
    docs = store.documents()
    assert len(docs) == 6
    for doc in docs[:5]:
        store.delete_document(doc.id)
    store.close()
    grown = (library / DB_NAME).stat().st_size

    done = cli(library, "compact", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["bytes_before"] >= grown
    assert result["bytes_after"] < result["bytes_before"]
    assert (library / DB_NAME).stat().st_size == result["bytes_after"]
    # nothing the library still holds was lost
    listed = json.loads(cli(library, "list", "--json").stdout)
    assert [d["id"] for d in listed] == [docs[5].id]


def test_compact_of_a_read_only_store_names_the_library_and_why(tmp_path: Path) -> None:
    library = tmp_path / "library"
    LibraryStore(library).close()
    store = LibraryStore(library, read_only=True)
    with pytest.raises(LibraryError) as caught:
        store.compact()
    store.close()
    assert caught.value.code == "LIBRARY_BUSY"
    assert str(library) in str(caught.value)
