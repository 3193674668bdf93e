"""`citewise ingest --zotero DIR` and `--manifest library.yaml`: files with their metadata,
and clear errors for a locked or unknown Zotero database and for bad manifest entries."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from citewise.cli import app
from citewise.cli.testing import CliRunner
from citewise.documents.manifests.zotero import ZoteroError, read_zotero
from citewise.store.sqlite.library import LibraryStore
from tests.pdfs import write_paper
from tests.structure.paper import write_structured_paper
from tests.structure.zotero_db import build_zotero

runner = CliRunner()


@pytest.fixture
def papers(tmp_path: Path) -> dict[str, Path]:
    return {
        "ATTACH01": write_structured_paper(tmp_path / "echo.pdf"),
        "ATTACH02": write_paper(tmp_path / "granite.pdf"),
    }


def test_zotero_attachments_come_with_their_items_metadata(
    tmp_path: Path, papers: dict[str, Path]
) -> None:
    zotero = build_zotero(tmp_path / "Zotero", papers)
    found = read_zotero(zotero)
    usable = [a for a in found if a.problem is None]
    assert [a.path.name for a in usable] == ["echo.pdf", "granite.pdf"]
    echo = usable[0].metadata
    assert echo.title == "Echo Profiles of Quarry Stone"
    assert echo.authors == ["Ada Quarry", "Ben Stone", "Cleo Editor"]
    assert (echo.year, echo.doi, echo.venue) == (
        2022,
        "10.5555/echo.2022.1",
        "Journal of Rock Acoustics",
    )
    assert echo.extra == {
        "item_type": "journalArticle",
        "collections": ["Thesis / Chapter 2"],
        "tags": ["acoustics", "to read"],
        "notes": ["Check the wet blocks."],
        "zotero_key": "PARENT01",
        "zotero_attachment": "ATTACH01",
        "zotero_uri": "zotero://select/library/items/PARENT01",
    }
    # the deleted item is skipped; the attachment whose file is gone is reported
    (missing,) = [a for a in found if a.problem]
    assert missing.problem == f"attachment file missing: {zotero}/storage/MISSING1/missing.pdf"


def test_ingest_zotero_stores_files_with_metadata_and_reports_missing_ones(
    tmp_path: Path, papers: dict[str, Path]
) -> None:
    zotero = build_zotero(tmp_path / "Zotero", papers)
    lib = tmp_path / "lib"
    result = runner.invoke(app, ["--library", str(lib), "ingest", "--no-embed", "--json",
                                 "--zotero", str(zotero)])  # fmt: skip
    assert result.exit_code == 1  # one attachment's file is missing
    report = json.loads(result.stdout)
    assert len(report["added"]) == 2
    assert report["failed"][0]["code"] == "ZOTERO_ATTACHMENT"
    store = LibraryStore(lib)
    docs = {d.title: d for d in store.documents()}
    echo = docs["Echo Profiles of Quarry Stone"]
    assert (echo.year, echo.doi, echo.authors[:2]) == (
        2022,
        "10.5555/echo.2022.1",
        ["Ada Quarry", "Ben Stone"],
    )
    (csl,) = store.db.execute("SELECT csl FROM documents WHERE id = ?", (echo.id,)).fetchone()
    assert json.loads(csl)["collections"] == ["Thesis / Chapter 2"]
    store.close()


def test_zotero_database_of_unknown_schema_version_is_a_clear_error(
    tmp_path: Path, papers: dict[str, Path]
) -> None:
    zotero = build_zotero(tmp_path / "Zotero", papers, userdata_version=999)
    with pytest.raises(ZoteroError) as err:
        read_zotero(zotero)
    assert "unknown Zotero schema version 999" in err.value.message


def test_locked_zotero_database_is_a_clear_error_and_the_rest_of_the_batch_goes_in(
    tmp_path: Path, papers: dict[str, Path]
) -> None:
    zotero = build_zotero(tmp_path / "Zotero", papers)
    # Zotero in the middle of a write: an exclusive lock and a hot rollback journal
    writer = sqlite3.connect(zotero / "zotero.sqlite", isolation_level=None)
    writer.execute("PRAGMA journal_mode = DELETE")
    writer.execute("BEGIN EXCLUSIVE")
    writer.execute("UPDATE itemDataValues SET value = 'Renamed' WHERE valueID = 1")
    try:
        with pytest.raises(ZoteroError, match="is locked"):
            read_zotero(zotero)
        lib = tmp_path / "lib"
        (tmp_path / "other").mkdir()
        other = write_paper(tmp_path / "other" / "basalt.pdf", title="Basalt Columns Cool Slowly")
        result = runner.invoke(app, ["--library", str(lib), "ingest", "--no-embed", "--json",
                                     "--zotero", str(zotero), str(other)])  # fmt: skip
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert len(report["added"]) == 1  # the other file still went in
    (failure,) = report["failed"]
    assert failure["code"] == "ZOTERO_ERROR" and "is locked" in failure["reason"]
    assert "error: " in result.stderr and "zotero.sqlite" in result.stderr


def test_manifest_sets_ids_and_metadata_and_reports_bad_entries(
    tmp_path: Path, papers: dict[str, Path]
) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "echo.pdf").write_bytes(papers["ATTACH01"].read_bytes())
    manifest = tmp_path / "library.yaml"
    manifest.write_text(
        "papers:\n"
        "  - id: quarry2022echo\n"
        "    title: Echo Profiles of Quarry Stone (manifest)\n"
        "    authors: [Ada Quarry, Ben Stone]\n"
        "    year: 2022\n"
        "    doi: 10.5555/echo.2022.1\n"
        "    file_path: papers/echo.pdf\n"
        "    notes: Read for chapter 2.\n"
        "  - id: lost2020\n"
        "    file_path: papers/lost.pdf\n"
        "  - id: badyear\n"
        "    year: twenty\n"
        "    file_path: papers/echo.pdf\n"
    )
    lib = tmp_path / "lib"
    result = runner.invoke(app, ["--library", str(lib), "ingest", "--no-embed", "--json",
                                 "--manifest", str(manifest)])  # fmt: skip
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["added"] == ["quarry2022echo"]
    reasons = sorted(f["reason"] for f in report["failed"])
    assert reasons == [
        f"papers[2] (lost2020): file not found: {folder / 'lost.pdf'}",
        "papers[3] (badyear): year 'twenty' is not a number",
    ]
    shown = json.loads(runner.invoke(app, ["--library", str(lib), "show", "quarry2022echo",
                                           "--json"]).stdout)  # fmt: skip
    assert shown["title"] == "Echo Profiles of Quarry Stone (manifest)"
    assert (shown["year"], shown["doi"]) == (2022, "10.5555/echo.2022.1")
    # running it again with new metadata updates the stored document in place
    manifest.write_text(manifest.read_text().replace("(manifest)", "(revised)"))
    runner.invoke(app, ["--library", str(lib), "ingest", "--no-embed", "--manifest", str(manifest)])
    shown = json.loads(runner.invoke(app, ["--library", str(lib), "show", "quarry2022echo",
                                           "--json"]).stdout)  # fmt: skip
    assert shown["title"] == "Echo Profiles of Quarry Stone (revised)"


def test_manifest_that_is_not_yaml_is_a_clear_error(tmp_path: Path) -> None:
    manifest = tmp_path / "library.yaml"
    manifest.write_text("papers: [unclosed\n")
    result = runner.invoke(app, ["--library", str(tmp_path / "lib"), "ingest", "--no-embed",
                                 "--manifest", str(manifest)])  # fmt: skip
    assert result.exit_code == 1
    assert "invalid YAML in manifest" in result.stderr
