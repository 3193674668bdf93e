"""Cell answers on a results table the test writes: a two-level header, a superlative over
a column, the last row, and no cell answer when the row is not in the table."""

from __future__ import annotations

import pytest

from citewise.agent.ask.question import analyse
from citewise.agent.numeric.cells import TableView, match_cell, superlative
from citewise.agent.numeric.numeric_answer import answer_numeric
from citewise.api import Library
from tests.agent.tables_pdf import write_results_paper


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("cells")
    write_results_paper(folder / "results.pdf")
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([folder / "results.pdf"])
    return lib


def _cell_sentence(library: Library, question: str) -> tuple[dict, list[str], int]:
    answer = library.ask(question)
    assert not answer.refused, answer.answer
    (sentence,) = answer.sentences
    assert sentence.kind in ("cell", "computed")
    (cited,) = sentence.citations
    page = next(e.page for e in answer.evidence if e.id == cited)
    return sentence.cell or {}, [answer.answer], page


def test_a_cell_is_found_under_a_two_level_header(library: Library) -> None:
    cell, (text,), page = _cell_sentence(
        library, "What nDCG@10 does BM25 + rerank reach on SciFact?"
    )
    assert cell == {
        "table": "Table 1",
        "row": "BM25 + rerank",
        "column": "SciFact nDCG@10",
        "value": "73.2",
    }
    assert text.startswith("73.2 ") and page == 1
    # the JSON face carries the cell; the cited evidence quotes the row verbatim
    data = library.ask("What nDCG@10 does BM25 + rerank reach on SciFact?").to_dict()
    (sentence,) = data["sentences"]  # type: ignore[misc]
    assert sentence["kind"] == "cell" and sentence["cell"]["row"] == "BM25 + rerank"
    (evidence,) = data["evidence"]  # type: ignore[misc]
    assert evidence["quote"] == "BM25 + rerank 73.2 93.5 35.7 27.9"


def test_a_superlative_reads_the_whole_column(library: Library) -> None:
    cell, (text,), _ = _cell_sentence(
        library, "Which model has the highest Recall@100 on NFCorpus?"
    )
    assert cell["row"] == "Hybrid fusion" and cell["value"] == "28.3"
    assert text.startswith("Hybrid fusion")


def test_the_last_row_is_the_tables_last_body_row(library: Library) -> None:
    cell, _, _ = _cell_sentence(library, "What is the NFCorpus nDCG@10 in the last row of Table 1?")
    assert cell["row"] == "Hybrid fusion" and cell["value"] == "34.8"


def test_no_cell_answer_when_the_row_is_not_in_the_table(library: Library) -> None:
    text = "What nDCG@10 does ColBERT reach on SciFact?"
    question = analyse(text)
    hits = library.answerer.retriever.search(text, k=8, terms=question.terms)
    assert answer_numeric(text, question, hits, library.store) is None


def test_ties_and_unnamed_columns_give_no_cell() -> None:
    view = TableView(
        "Table 9",
        "",
        ["System", "Dev F1", "Test F1"],
        [["Alpha", "80.1", "79.0"], ["Beta", "81.5", "79.0"]],
    )
    assert match_cell("What F1 does Alpha get?", view) is None  # Dev or Test: a tie
    assert match_cell("What Test F1 does Alpha get?", view).value == "79.0"  # type: ignore[union-attr]
    assert superlative("Which system has the best Test F1?", view) is None  # 79.0 twice
    best = superlative("Which system has the best Dev F1?", view)
    assert best is not None and best.row == "Beta"


RUNS = """run_id,model,lr,acc_top1,val_loss,notes
r01,resnet50,0.1,0.712,1.21,baseline
r02,resnet50,0.05,0.748,1.08,
r03,vit_b16,0.001,0.831,0.86,warmup
r04,vit_b16,0.0005,,0.91,crashed
r05,convnext,0.004,0.806,0.88,
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("csv")
    (folder / "runs.csv").write_text(RUNS, encoding="utf-8")
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([folder / "runs.csv"])
    return lib


def test_a_csv_column_range_and_missing_share_come_from_its_schema(runs: Library) -> None:
    answer = runs.ask("What is the range of acc_top1 in runs.csv?")
    (sentence,) = answer.sentences
    assert answer.answer == "acc_top1 ranges from 0.712 to 0.831 in runs.csv."
    assert sentence.cell == {
        "table": "runs.csv",
        "row": "range",
        "column": "acc_top1",
        "value": "0.712 to 0.831",
    }
    (evidence,) = answer.evidence
    assert evidence.id == sentence.citations[0]
    assert evidence.quote == "acc_top1 (number, 0.712 to 0.831, 20% missing)"
    missing = runs.ask("What share of acc_top1 values is missing in runs.csv?")
    assert missing.answer.startswith("20% of acc_top1 values are missing")


def test_the_best_run_reads_every_row_and_knows_a_loss_is_best_low(runs: Library) -> None:
    best = runs.ask("Which run has the best acc_top1?")
    assert best.answer == "r03 (run_id) has the best acc_top1: 0.831."
    assert best.evidence[0].quote == "r03 vit_b16 0.001 0.831 0.86 warmup"
    assert runs.ask("Which run has the lowest lr?").answer.startswith("r04 ")


def test_no_column_answer_for_a_column_the_file_lacks(runs: Library) -> None:
    text = "What is the range of top5 accuracy in runs.csv?"
    question = analyse(text)
    hits = runs.answerer.retriever.search(text, k=8, terms=question.terms)
    assert answer_numeric(text, question, hits, runs.store) is None
