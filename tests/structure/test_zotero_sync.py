"""`citewise sync zotero`: Zotero as the library of record. A real zotero.sqlite (Zotero's
schema, written by the tests) and a storage/ folder of PDFs the tests write; the round trip
adds, changes and deletes items, and a rerun with no change touches nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from citewise.api import Library
from citewise.documents.manifests.zotero import ZoteroError, read_zotero
from tests.pdfs import write_paper
from tests.structure.paper import write_structured_paper
from tests.structure.zotero_db import (
    add_paper,
    build_zotero,
    forget_missing,
    move_to_group,
    set_title,
    trash,
    write_better_bibtex,
)


@pytest.fixture
def zotero(tmp_path: Path) -> Path:
    papers = {
        "ATTACH01": write_structured_paper(tmp_path / "echo.pdf"),
        "ATTACH02": write_paper(tmp_path / "granite.pdf"),
    }
    directory = build_zotero(tmp_path / "Zotero", papers)
    forget_missing(directory)
    write_better_bibtex(directory, {"PARENT01": "quarry2022echo"})
    return directory


def rows(library: Library, table: str = "documents") -> list[tuple[object, ...]]:
    """Every row of a table as stored, to show a sync changed nothing."""
    found = library.store.db.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
    return [tuple(r) for r in found]


def test_sync_adds_changes_and_deletes_and_a_rerun_touches_nothing(
    tmp_path: Path, zotero: Path
) -> None:
    with Library(tmp_path / "lib", embeddings=False) as lib:
        first = lib.sync_zotero(zotero)
        assert first.failed == [] and len(first.added) == 2
        docs = {d.id: d for d in lib.documents()}
        # the Better BibTeX key is the document ID; the other item gets the usual slug
        echo = docs["quarry2022echo"]
        (granite_id,) = set(docs) - {"quarry2022echo"}
        assert echo.title == "Echo Profiles of Quarry Stone"
        assert echo.csl is not None
        assert echo.csl["zotero_uri"] == "zotero://select/library/items/PARENT01"
        assert echo.csl["tags"] == ["acoustics", "to read"]
        assert echo.csl["collections"] == ["Thesis / Chapter 2"]

        before = rows(lib), rows(lib, "blocks")
        again = lib.sync_zotero(zotero)
        assert (again.added, again.updated, again.replaced, again.removed) == ([], [], [], [])
        assert again.unchanged == 2 and not again.changed  # (timed in the closing note)
        assert (rows(lib), rows(lib, "blocks")) == before

        # in Zotero: a title edited, an item trashed, a new paper added
        set_title(zotero, "PARENT01", "Echo Profiles of Quarry Stone, Revised")
        trash(zotero, "PARENT02")
        basalt = write_paper(tmp_path / "basalt.pdf", title="Basalt Columns Cool Slowly")
        add_paper(zotero, "PARENT03", "ATTACH03", "Basalt Columns Cool Slowly", basalt, 1)
        third = lib.sync_zotero(zotero)
        assert third.updated == ["quarry2022echo"] and third.removed == [granite_id]
        assert len(third.added) == 1 and third.replaced == [] and third.unchanged == 0
        docs = {d.id: d for d in lib.documents()}
        assert set(docs) == {"quarry2022echo", third.added[0]}
        assert docs["quarry2022echo"].title == "Echo Profiles of Quarry Stone, Revised"
        assert docs["quarry2022echo"].blocks == echo.blocks  # not parsed again
        assert lib.store.blocks(granite_id) == []

        # the PDF itself replaced in Zotero's storage: parsed again under the same ID
        stored = zotero / "storage" / "ATTACH03" / "basalt.pdf"
        write_paper(stored, title="Basalt Columns Cool Slowly (corrected)")
        fourth = lib.sync_zotero(zotero)
        assert fourth.replaced == third.added and fourth.unchanged == 1
        assert lib.document(third.added[0]).sha256 != docs[third.added[0]].sha256

        # touched but byte-identical: not parsed again, only its file stamp is new
        os.utime(stored, ns=(1, 1))
        blocks = rows(lib, "blocks")
        touched = lib.sync_zotero(zotero)
        assert touched.updated == third.added and touched.replaced == touched.added == []
        assert rows(lib, "blocks") == blocks
        assert lib.sync_zotero(zotero).changed is False


def test_a_metadata_update_keeps_what_the_pdf_printed(tmp_path: Path, zotero: Path) -> None:
    with Library(tmp_path / "lib", embeddings=False) as lib:
        lib.sync_zotero(zotero)
        lib.store.update_metadata(
            "quarry2022echo",
            {"csl": {**(lib.document("quarry2022echo").csl or {}), "volume": "12"}},
        )
        set_title(zotero, "PARENT01", "A New Title")
        report = lib.sync_zotero(zotero)
        assert report.updated == ["quarry2022echo"]
        csl = lib.document("quarry2022echo").csl or {}
        assert csl["volume"] == "12"  # from the PDF, kept
        assert lib.document("quarry2022echo").title == "A New Title"


def test_collection_filter_and_an_unknown_collection(tmp_path: Path, zotero: Path) -> None:
    with Library(tmp_path / "one", embeddings=False) as lib:
        report = lib.sync_zotero(zotero, collection="Chapter 2")
        assert report.added == ["quarry2022echo"]
    with Library(tmp_path / "two", embeddings=False) as lib:
        # a collection takes in its subcollections
        assert len(lib.sync_zotero(zotero, collection="Thesis").added) == 2
    with Library(tmp_path / "three", embeddings=False) as lib:
        with pytest.raises(ZoteroError) as err:
            lib.sync_zotero(zotero, collection="Chapter 9")
        assert err.value.code == "ZOTERO_COLLECTION"
        assert "Thesis / Chapter 2" in err.value.hint


def test_a_missing_attachment_file_is_reported_and_its_document_kept(
    tmp_path: Path, zotero: Path
) -> None:
    with Library(tmp_path / "lib", embeddings=False) as lib:
        lib.sync_zotero(zotero)
        stored = next((zotero / "storage" / "ATTACH02").iterdir())
        stored.unlink()  # not downloaded on this machine (yet)
        report = lib.sync_zotero(zotero)
        (failure,) = report.failed
        assert failure.code == "ZOTERO_ATTACHMENT" and "missing" in failure.reason
        assert report.removed == [] and len(lib.documents()) == 2


def test_cli_sync_zotero_prints_json_and_exits_0(tmp_path: Path, zotero: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "citewise", "--library", str(tmp_path / "lib"), "sync",
         "zotero", str(zotero), "--no-embed", "--json"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert len(report["added"]) == 2 and "quarry2022echo" in report["added"]
    assert report["removed"] == [] and report["failed"] == []
    missing = subprocess.run(
        [sys.executable, "-m", "citewise", "--library", str(tmp_path / "lib"), "sync",
         "zotero", str(tmp_path / "nowhere"), "--no-embed"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )  # fmt: skip
    assert missing.returncode == 1
    assert missing.stderr.startswith("error: ZOTERO_ERROR: no zotero.sqlite in")


def test_files_ingested_from_zotero_before_are_adopted_not_parsed_again(
    tmp_path: Path, zotero: Path
) -> None:
    with Library(tmp_path / "lib", embeddings=False) as lib:
        lib.ingest([zotero / "storage"])
        blocks = rows(lib, "blocks")
        report = lib.sync_zotero(zotero)
        assert report.added == [] and len(report.updated) == 2
        assert rows(lib, "blocks") == blocks
        titles = sorted(d.title for d in lib.documents())
        assert titles[0] == "Echo Profiles of Quarry Stone"
        assert lib.sync_zotero(zotero).unchanged == 2


def test_group_items_link_to_their_group_and_a_copy_added_elsewhere_is_a_warning(
    tmp_path: Path, zotero: Path
) -> None:
    move_to_group(zotero, ["PARENT02", "ATTACH02"], 4711)
    elsewhere = tmp_path / "mine"
    elsewhere.mkdir()
    granite = next((zotero / "storage" / "ATTACH02").iterdir())
    (elsewhere / "granite-copy.pdf").write_bytes(granite.read_bytes())
    with Library(tmp_path / "lib", embeddings=False) as lib:
        lib.ingest([elsewhere])
        report = lib.sync_zotero(zotero)
        assert report.failed == [] and report.added == ["quarry2022echo"]
        ((path, warning),) = report.warnings
        assert path == str(granite) and "not added: same content as" in warning
        echo = lib.document("quarry2022echo")
        assert (echo.csl or {})["zotero_uri"] == "zotero://select/library/items/PARENT01"
    found = read_zotero(zotero)
    group = next(a for a in found if a.key == "ATTACH02")
    assert group.metadata.extra["zotero_uri"] == "zotero://select/groups/4711/items/PARENT02"


def test_answers_and_exports_link_the_zotero_item(tmp_path: Path, zotero: Path) -> None:
    from citewise.api.literature import Literature

    with Library(tmp_path / "lib", embeddings=False) as lib:
        assert lib.sync_zotero(zotero).failed == []
        answer = lib.ask("What accuracy did the classifier reach on the held-out test set?")
        assert not answer.refused
        links = {e.zotero for e in answer.evidence}
        assert links and all(
            link and link.startswith("zotero://select/library/items/") for link in links
        )
        shown = answer.to_dict()["evidence"]
        assert isinstance(shown, list) and all("zotero" in e for e in shown)
        literature = Literature(tmp_path / "lib")
        bibtex = literature.export_library("bibtex").text
        ris = literature.export_library("ris").text
    assert "zotero = {zotero://select/library/items/PARENT01}" in bibtex
    assert "L2  - zotero://select/library/items/PARENT01" in ris
