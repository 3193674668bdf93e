"""`search --save`: records kept as abstract-level documents that `ask` cites as abstracts,
and replaced in place (same ID, no duplicate) when the PDF is fetched later."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.cli import test_search_cli as search_cli
from tests.cli.test_search_cli import Invoke, write_config
from tests.sources.loopback import DATA
from tests.sources.replay import ReplayServer, Reply

# The search tests' fixtures: the CLI in this process, the replay server, its config.
cli, server, own = search_cli.cli, search_cli.server, search_cli.own

ARXIV = "2101.00001"


def documents(library: Path) -> list[tuple[str, str, str | None, str]]:
    with sqlite3.connect(library / "library.db") as db:
        return db.execute("SELECT id, kind, arxiv_id, path FROM documents ORDER BY id").fetchall()


def test_saved_abstracts_answer_questions_and_reruns_change_nothing(
    cli: Invoke, own: Path, library_dir: Path
) -> None:
    done = cli("search", "graph networks", "--sources-config", str(own), "--save", "--json")
    assert done.returncode == 0, done.stderr
    saved = json.loads(done.stdout)["saved"]
    kept = documents(library_dir)
    assert saved["added"] and len(kept) == len(saved["added"])
    assert {kind for _, kind, _, _ in kept} == {"abstract"}
    assert all(Path(path).parent.name == "abstracts" for *_, path in kept)
    assert "abstract" in done.stderr and "saved" in done.stderr

    answer = cli("ask", "What do graph attention networks predict from molecule graphs?", "--json")
    assert answer.returncode == 0, answer.stderr
    result = json.loads(answer.stdout)
    assert not result["refused"]
    cited = {e["document"]: e for e in result["evidence"]}
    assert any(e["title"].startswith("abstract of ") for e in cited.values())
    # the saved record answers: its title or its abstract sentence names what is predicted
    assert "molecule propert" in result["answer"].lower(), result

    again = cli("search", "graph networks", "--sources-config", str(own), "--save", "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["saved"]["added"] == []
    assert documents(library_dir) == kept


def test_fetching_the_pdf_replaces_the_abstract_in_place(
    cli: Invoke, own: Path, server: ReplayServer, tmp_path: Path, paper: Path, library_dir: Path
) -> None:
    assert cli("search", "graph networks", "--sources-config", str(own), "--save").returncode == 0
    before = documents(library_dir)
    abstract_id, _, _, abstract_file = next(r for r in before if r[2] == ARXIV)
    assert Path(abstract_file).is_file()

    feed = (DATA / "arxiv.xml").read_text("utf-8")
    feed = feed.replace("https://arxiv.org/pdf/2101.00001v2", f"{server.base_url}/pdf/x")
    server.routes.clear()
    server.add("/arxiv/query", Reply(200, feed.encode(), {"content-type": "application/xml"}))
    server.add("/semantic_scholar/", Reply(404, b"{}"))
    server.add("/pdf/x", Reply(200, paper.read_bytes(), {"content-type": "application/pdf"}))
    config = write_config(tmp_path / "fetch.yaml", server)
    done = cli("fetch", f"arXiv:{ARXIV}", "--no-embed", "--json", "--sources-config", str(config))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["document"] == abstract_id

    after = documents(library_dir)
    assert len(after) == len(before)
    row = next(r for r in after if r[0] == abstract_id)
    assert row[1] == "pdf" and row[2] == ARXIV and row[3].endswith(".pdf")
    assert not Path(abstract_file).exists()
    # A later --save does not bring the abstract back beside the full text.
    cli("search", "graph networks", "--sources-config", str(own), "--save")
    assert len(documents(library_dir)) == len(before)
