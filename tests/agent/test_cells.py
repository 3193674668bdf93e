"""Cell answers on a results table the test writes: a two-level header, a superlative over
a column, the last row, and no cell answer when the row is not in the table."""

from __future__ import annotations

import pytest

from citewise.agent.cells import TableView, match_cell, superlative
from citewise.agent.numeric_answer import answer_numeric
from citewise.agent.question import analyse
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
