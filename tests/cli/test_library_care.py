"""Library care (issue 35): `remove` takes a document out with everything that hangs on it,
`ingest --include/--exclude` sorts what a folder holds, and `list` prints IDs whole."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from citewise.api import Library
from citewise.sources.bibliography.graph import library_graph
from tests.commands import citewise

KILN = """# Firing Stoneware in a Wood Kiln

## Results

The wood kiln reached 1300 degrees after nineteen hours of stoking.
Ash glaze formed on the shoulders of every pot facing the firebox.
"""
LOOM = """# Weaving Speed on a Floor Loom

## Results

An experienced weaver threw 42 picks per minute on the floor loom.
The kiln in the next room warmed the weaving shed by two degrees.
"""


def _library(tmp_path: Path) -> tuple[Path, Path]:
    papers = tmp_path / "papers"
    papers.mkdir()
    (papers / "kiln.md").write_text(KILN)
    (papers / "loom.md").write_text(LOOM)
    library = tmp_path / "lib"
    done = citewise(library, "ingest", str(papers))
    assert done.returncode == 0, done.stderr
    return library, papers


def _count(library: Path, sql: str, *params: object) -> int:
    db = sqlite3.connect(library / "library.db")
    try:
        return int(db.execute(sql, params).fetchone()[0])
    finally:
        db.close()


def test_remove_leaves_nothing_of_the_document_behind(tmp_path: Path) -> None:
    library, papers = _library(tmp_path)
    question = "What temperature did the wood kiln reach?"
    with Library(library) as lib:
        kiln_blocks = [b.id for b in lib.store.blocks("kiln")]
        assert lib.ask(question, review=False).evidence[0].document == "kiln"
        lib.matrix(columns=["results"], model=None)  # cells cached for both papers
        # a logged answer citing both papers, and the loom paper's reference to the kiln one
        lib.store.vocabulary.log_review("q", False, None, 0.5, "a", [*kiln_blocks, "x-1"])
        lib.store.db.execute(
            'INSERT INTO "references" (id, document_id, ordinal, raw, title, resolved_document)'
            " VALUES ('loom-r1', 'loom', 1, 'Kiln 2024', ?, 'kiln')",
            ("Firing Stoneware in a Wood Kiln",),
        )
        lib.store.db.commit()
    assert _count(library, "SELECT count(*) FROM matrix_cells WHERE document_id = 'kiln'") > 0

    removed = citewise(library, "remove", "kiln", "--json")
    assert removed.returncode == 0, removed.stderr
    assert [d["id"] for d in json.loads(removed.stdout)["removed"]] == ["kiln"]

    for table in ("blocks", "matrix_cells", "vocabulary", '"references"'):
        assert _count(library, f"SELECT count(*) FROM {table} WHERE document_id = 'kiln'") == 0
    assert _count(library, "SELECT count(*) FROM block_vectors") == _count(
        library, "SELECT count(*) FROM blocks WHERE trusted = 1"
    )
    db = sqlite3.connect(library / "library.db")
    (cited,) = db.execute("SELECT citations FROM answer_reviews").fetchone()
    (resolved,) = db.execute('SELECT resolved_document FROM "references"').fetchone()
    db.close()
    assert json.loads(cited) == ["x-1"] and resolved is None

    check = citewise(library, "doctor", "--check", "--json")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "kiln" not in citewise(library, "list", "--json").stdout
    with Library(library) as lib:
        answer = lib.ask(question, review=False)
        assert all(e.document != "kiln" for e in answer.evidence)
        assert all(h.block.document_id != "kiln" for h in lib.search("wood kiln stoneware"))
        assert [row.document for row in lib.matrix(columns=["results"], model=None).rows] == [
            "loom"
        ]
        graph = library_graph(lib.store, "loom", 2)
        assert "kiln" not in graph.nodes and all("kiln" not in edge for edge in graph.edges)

    # undone by ingesting the file again
    again = citewise(library, "ingest", str(papers / "kiln.md"))
    assert again.returncode == 0, again.stderr
    with Library(library) as lib:
        assert lib.ask(question, review=False).evidence[0].document == "kiln"


def test_remove_of_an_unknown_document_removes_nothing(tmp_path: Path) -> None:
    library, _ = _library(tmp_path)
    result = citewise(library, "remove", "loom", "no-such-paper")
    assert result.returncode == 3  # not found, as for every command given an unknown ID
    assert result.stderr.startswith("error: PAPER_NOT_FOUND: no document 'no-such-paper'")
    assert _count(library, "SELECT count(*) FROM documents") == 2


def test_include_and_exclude_sort_what_a_folder_holds(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    (folder / "drafts").mkdir(parents=True)
    (folder / "kiln.md").write_text(KILN)
    (folder / "Notes-to-self.TXT").write_text("Buy more clay and call the gallery.\n")
    (folder / "drafts" / "loom.md").write_text(LOOM)

    def ingested(library: str, *flags: str) -> list[str]:
        done = citewise(tmp_path / library, "ingest", "--no-embed", str(folder), *flags)
        assert done.returncode == 0, done.stderr
        listed = json.loads(citewise(tmp_path / library, "list", "--json").stdout)
        return sorted(Path(d["path"]).name for d in listed)

    assert ingested("md", "--include", "*.md") == ["kiln.md", "loom.md"]
    assert ingested("no-notes", "--exclude", "notes*") == ["kiln.md", "loom.md"]
    assert ingested("no-drafts", "--exclude", "drafts/") == ["Notes-to-self.TXT", "kiln.md"]
    assert ingested("both", "--include", "*.md", "--exclude", "drafts/*") == ["kiln.md"]
    # a file named on its own goes in whatever the patterns say
    named = citewise(tmp_path / "named", "ingest", "--no-embed", str(folder / "kiln.md"),
                     "--exclude", "*.md")  # fmt: skip
    assert named.returncode == 0, named.stderr
    nothing = citewise(tmp_path / "none", "ingest", "--no-embed", str(folder), "--include", "*.pdf")
    assert nothing.returncode == 2
    assert "matches --include" in nothing.stderr


def test_list_prints_ids_whole_with_authors_on_a_narrow_pipe(tmp_path: Path) -> None:
    from tests.pdfs import write_paper

    folder = tmp_path / "papers"
    folder.mkdir()
    write_paper(folder / "paper.pdf")
    long_name = "field-observations-of-weaving-and-kiln-firing-in-two-workshops"
    (folder / f"{long_name}.md").write_text(LOOM)
    library = tmp_path / "lib"
    assert citewise(library, "ingest", "--no-embed", str(folder)).returncode == 0
    ids = [d["id"] for d in json.loads(citewise(library, "list", "--json").stdout)]
    assert long_name in ids
    for columns in ("80", "200"):  # a narrow pipe: each document under its ID; a wide table
        listed = citewise(library, "list", COLUMNS=columns)
        assert listed.returncode == 0, listed.stderr
        lines = listed.stdout.splitlines()
        for doc_id in ids:
            assert any(doc_id in line for line in lines), (doc_id, listed.stdout)
        assert any("Quarry" in line for line in lines)
        assert all(len(line) <= int(columns) for line in lines)
    assert "authors" in lines[1] and "path" in lines[1]


def test_a_document_is_found_by_its_file_name_without_extension(tmp_path: Path) -> None:
    papers = tmp_path / "papers"
    (papers / "again").mkdir(parents=True)
    (papers / "2101.00042.md").write_text(KILN)
    (papers / "loom.v2.md").write_text(LOOM)
    (papers / "again" / "loom.v2.md").write_text(LOOM.replace("Floor Loom", "Hand Loom"))
    library = tmp_path / "lib"
    assert citewise(library, "ingest", "--no-embed", str(papers)).returncode == 0
    with Library(library) as lib:
        kiln = lib.document("2101.00042")  # the stem, not the ID
        assert kiln.id != "2101.00042" and Path(kiln.path).name == "2101.00042.md"
        assert lib.document("2101.00042.md").id == kiln.id
    shown = citewise(library, "show", "2101.00042")
    assert shown.returncode == 0 and "Wood Kiln" in shown.stdout
    shared = citewise(library, "show", "loom.v2")  # two files share the stem: neither is taken
    assert shared.returncode == 3
    assert "no document 'loom.v2'" in shared.stderr and "shared by" in shared.stderr
