"""The `citewise` command, run as a subprocess against real PDFs and a real SQLite file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pymupdf
import pytest

from citewise.agent.ask.refusal import NOT_IN_LIBRARY, REFUSALS
from tests.commands import citewise as run
from tests.conftest import has_embedder
from tests.pdfs import write_paper


def db_counts(library: Path) -> tuple[int, int]:
    with sqlite3.connect(library / "library.db") as db:
        docs = db.execute("SELECT count(*) FROM documents").fetchone()[0]
        blocks = db.execute("SELECT count(*) FROM blocks").fetchone()[0]
    return docs, blocks


@pytest.fixture
def bad_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "batch"
    folder.mkdir()
    write_paper(folder / "good.pdf")
    (folder / "empty.pdf").write_bytes(b"")
    (folder / "notes.pdf").write_text("this is a text file, not a PDF\n" * 20)
    good = (folder / "good.pdf").read_bytes()
    (folder / "truncated.pdf").write_bytes(good[: len(good) // 3])
    doc = pymupdf.open(folder / "good.pdf")
    doc.save(
        folder / "locked.pdf",
        encryption=pymupdf.PDF_ENCRYPT_AES_256,
        user_pw="secret",
        owner_pw="owner",
    )
    return folder


def test_bad_files_get_one_error_line_each_and_the_rest_is_ingested(
    bad_folder: Path, library_dir: Path
) -> None:
    result = run(
        library_dir, "ingest", "--no-embed", str(bad_folder), str(bad_folder / "missing.pdf")
    )
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    by_file = {Path(line.split(":")[1].strip()).name: line for line in errors}
    assert set(by_file) == {"empty.pdf", "notes.pdf", "truncated.pdf", "locked.pdf", "missing.pdf"}
    assert "empty" in by_file["empty.pdf"]
    assert "not a PDF" in by_file["notes.pdf"]
    assert "encrypted" in by_file["locked.pdf"]
    assert "no such file" in by_file["missing.pdf"]
    assert "1 document (1 new" in result.stdout
    listed = json.loads(run(library_dir, "list", "--json").stdout)
    assert [Path(d["path"]).name for d in listed] == ["good.pdf"]
    # No partial rows: every block belongs to the one good document.
    docs, blocks = db_counts(library_dir)
    assert docs == 1 and blocks == listed[0]["blocks"] > 0


def test_rerun_is_a_no_op_and_a_copy_is_reported_as_duplicate(
    paper: Path, library_dir: Path
) -> None:
    first = json.loads(run(library_dir, "ingest", "--no-embed", "--json", str(paper)).stdout)
    assert len(first["added"]) == 1 and first["pages"] == 1
    again = json.loads(run(library_dir, "ingest", "--no-embed", "--json", str(paper)).stdout)
    assert again["added"] == [] and again["unchanged"] == first["added"]
    copy = paper.with_name("copy.pdf")
    copy.write_bytes(paper.read_bytes())
    dup = run(library_dir, "ingest", "--no-embed", str(copy))
    assert dup.returncode == 1
    assert f"error: {copy}: same content as '{first['added'][0]}'" in dup.stderr
    assert db_counts(library_dir)[0] == 1


def test_changed_file_replaces_its_blocks_under_the_same_id(paper: Path, library_dir: Path) -> None:
    first = json.loads(run(library_dir, "ingest", "--no-embed", "--json", str(paper)).stdout)
    write_paper(paper, sections=[("1 Basalt", ["Basalt columns cool into hexagons."])])
    second = json.loads(run(library_dir, "ingest", "--no-embed", "--json", str(paper)).stdout)
    assert second["replaced"] == first["added"]
    shown = json.loads(run(library_dir, "show", first["added"][0], "--json").stdout)
    assert [(s["number"], s["title"]) for s in shown["sections"]] == [("1", "Basalt")]


def test_list_and_show_report_metadata_and_sections(paper: Path, library_dir: Path) -> None:
    run(library_dir, "ingest", "--no-embed", str(paper))
    listed = json.loads(run(library_dir, "list", "--json").stdout)
    assert set(listed[0]) == {"id", "title", "authors", "year", "path", "pages", "blocks"}
    assert listed[0]["path"] == str(paper.resolve())
    assert listed[0]["title"] == "Granite Sorting with Acoustic Probes"
    assert listed[0]["authors"] == ["Ada Quarry", "Ben Stone"] and "year" in listed[0]
    shown = json.loads(run(library_dir, "show", listed[0]["id"], "--json").stdout)
    assert [(s["number"], s["title"], s["level"], s["page"]) for s in shown["sections"]] == [
        ("1", "Introduction", 1, 1),
        ("2", "Method", 1, 1),
        ("3", "Results", 1, 1),
        ("4", "Limitations", 1, 1),
    ]
    missing = run(library_dir, "show", "nope")
    assert missing.returncode == 3 and "PAPER_NOT_FOUND" in missing.stderr


def test_ask_json_follows_the_schema_and_cites_the_right_page(
    paper: Path, library_dir: Path
) -> None:
    run(library_dir, "ingest", "--no-embed", str(paper))
    result = run(
        library_dir,
        "ask",
        "--json",
        "What accuracy did the classifier reach on the held-out test set?",
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert set(answer) == {
        "question",
        "refused",
        "answer",
        "sentences",
        "evidence",
        "support_score",
        "backend",
        "timings_ms",
        "refusal_kind",
        "scope",
        "signals",
        "withheld",
        "lang",
        "translation",
    }
    assert answer["refused"] is False and answer["backend"] == "extractive"
    assert answer["lang"] == "en" and answer["translation"] == ""
    assert "93.4%" in answer["answer"]
    evidence = {e["id"]: e for e in answer["evidence"]}
    for sentence in answer["sentences"]:
        assert set(sentence) == {"text", "citations", "support"}
        for cited in sentence["citations"]:
            assert sentence["text"] in evidence[cited]["quote"]
    first = answer["evidence"][0]
    assert set(first) == {"id", "document", "title", "page", "bbox", "section", "quote", "link"}
    assert first["page"] == 1 and first["section"].startswith("3 Results")
    assert first["link"] == f"{paper.resolve().as_uri()}#page=1"
    assert len(first["bbox"]) == 4 and first["bbox"][2] > first["bbox"][0]


def test_ask_refuses_with_exit_code_3_when_nothing_answers(paper: Path, library_dir: Path) -> None:
    run(library_dir, "ingest", "--no-embed", str(paper))
    result = run(library_dir, "ask", "--json", "Which telescope observed the supernova in 1987?")
    assert result.returncode == 3
    answer = json.loads(result.stdout)
    # nothing in the granite paper is about telescopes: the first kind of refusal
    assert answer["refused"] is True and answer["refusal_kind"] == NOT_IN_LIBRARY
    assert answer["answer"] == REFUSALS[NOT_IN_LIBRARY]
    assert answer["sentences"] == []
    terminal = run(library_dir, "ask", "Which telescope observed the supernova in 1987?")
    assert terminal.returncode == 3 and REFUSALS[NOT_IN_LIBRARY] in terminal.stdout


def test_terminal_answer_shows_markers_and_an_evidence_board(
    paper: Path, library_dir: Path
) -> None:
    run(library_dir, "ingest", "--no-embed", str(paper))
    result = run(library_dir, "ask", "How many labelled blocks were used for training?")
    assert result.returncode == 0, result.stderr
    assert "1,284 labelled blocks" in result.stdout
    assert "[1]" in result.stdout and "Evidence:" in result.stdout
    assert "#page=1" in result.stdout


def test_eval_scores_a_qa_file(paper: Path, library_dir: Path, tmp_path: Path) -> None:
    run(library_dir, "ingest", "--no-embed", str(paper))
    qa = tmp_path / "qa.yaml"
    qa.write_text(
        "- id: g1\n  doc: granite.pdf\n  question: How much did the probes reduce crusher "
        "downtime?\n  type: numeric\n  answerable: true\n  answer: 41 hours\n"
        "  accept: ['41 hours']\n  pages: [1]\n  evidence: ''\n"
        "- id: g2\n  doc: granite.pdf\n  question: Which telescope observed the supernova?\n"
        "  type: unanswerable\n  answerable: false\n  answer: ''\n  accept: []\n  pages: []\n"
        "  evidence: ''\n"
    )
    result = run(library_dir, "eval", str(qa), "--json")
    assert result.returncode == 0, result.stderr
    scores = json.loads(result.stdout)
    overall = scores["overall"]
    assert overall["accuracy"] == 1.0 and overall["citation_page_accuracy"] == 1.0
    assert overall["refusal_recall"] == 1.0 and overall["false_refusal_rate"] == 0.0
    assert set(scores["by_type"]) == {"numeric", "unanswerable"}
    assert overall["p50_ms"] > 0


@pytest.mark.skipif(not has_embedder(), reason="embedding model not installed")
def test_ingest_embeds_blocks_and_hybrid_ask_answers(paper: Path, library_dir: Path) -> None:
    report = json.loads(run(library_dir, "ingest", "--json", str(paper)).stdout)
    assert report["embedding_model"].startswith("all-MiniLM-L6-v2")  # static, distilled
    assert report["embedded_blocks"] == report["blocks"]
    answer = json.loads(
        run(
            library_dir, "ask", "--json", "What happens to accuracy when the blocks are wet?"
        ).stdout
    )
    assert "78.0%" in answer["answer"]


def test_review_lists_refusals_and_low_support_answers_that_ask_logged(
    paper: Path, library_dir: Path
) -> None:
    run(library_dir, "ingest", "--no-embed", str(paper))
    run(library_dir, "ask", "Which telescope observed the supernova in 1987?")
    run(library_dir, "ask", "What accuracy did the classifier reach on the held-out test set?")
    result = run(library_dir, "review", "--json")
    assert result.returncode == 0, result.stderr
    entries = json.loads(result.stdout)
    questions = [e["question"] for e in entries]
    assert "Which telescope observed the supernova in 1987?" in questions
    refused = next(e for e in entries if e["question"].startswith("Which telescope"))
    assert refused["refused"] is True and refused["refusal_kind"] == NOT_IN_LIBRARY
    assert all(e["refused"] or e["support"] < 0.6 for e in entries)


def test_eval_compare_shows_two_runs_side_by_side(
    paper: Path, library_dir: Path, tmp_path: Path
) -> None:
    run(library_dir, "ingest", "--no-embed", str(paper))
    qa = tmp_path / "qa.yaml"
    qa.write_text(
        "- id: g1\n  doc: granite.pdf\n  question: How much did the probes reduce crusher "
        "downtime?\n  type: numeric\n  answerable: true\n  answer: 41 hours\n"
        "  accept: ['41 hours']\n  pages: [1]\n  evidence: ''\n"
    )
    first = run(library_dir, "eval", str(qa), "--json", "--scope-docs")
    assert first.returncode == 0, first.stderr
    a = tmp_path / "a.json"
    a.write_text(first.stdout)
    run_b = json.loads(first.stdout)
    run_b["items"][0]["correct"] = False  # a second run that got the item wrong
    b = tmp_path / "b.json"
    b.write_text(json.dumps(run_b))
    result = run(library_dir, "eval", "--compare", str(a), "--compare", str(b), "--json")
    assert result.returncode == 0, result.stderr
    comparison = json.loads(result.stdout)
    assert comparison["items"] == [{"id": "g1", "a": "right", "b": "wrong", "changed": True}]
    assert comparison["by_type"][0]["scope"] == "overall"
    assert json.loads(first.stdout)["items"][0]["scope"] != []
