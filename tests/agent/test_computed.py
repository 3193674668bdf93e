"""Computed answers: two figures from tables on different pages, each quoted and cited,
the arithmetic shown and recomputed; a refusal naming the missing operand."""

from __future__ import annotations

import pytest

from citewise.agent.computed import Computation, Operand, check, evaluate, render
from citewise.api import Library
from tests.agent.tables_pdf import write_results_paper


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("computed")
    write_results_paper(folder / "results.pdf")
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([folder / "results.pdf"])
    return lib


def _computed(library: Library, question: str) -> tuple[str, list[dict], dict[str, int]]:
    answer = library.ask(question)
    assert not answer.refused, answer.answer
    (sentence,) = answer.sentences
    assert sentence.kind == "computed" and sentence.operands
    pages = {e.id: e.page for e in answer.evidence}
    quotes = {e.id: e.quote for e in answer.evidence}
    for operand in sentence.operands:  # every operand cited, its figure in the cited quote
        assert operand["citation"] in sentence.citations
        assert str(operand["value"]) in quotes[str(operand["citation"])]
    return answer.answer, sentence.operands, pages


def test_a_difference_across_two_tables_on_different_pages(library: Library) -> None:
    text, operands, pages = _computed(
        library, "How many more documents does Quarry Abstracts have than Marble Notes?"
    )
    assert "5,183 − 3,633 = 1,550 [1][2]" in text
    assert [o["value"] for o in operands] == ["5,183", "3,633"]
    assert [pages[str(o["citation"])] for o in operands] == [1, 2]


def test_a_ratio_across_the_same_two_tables(library: Library) -> None:
    text, operands, _ = _computed(
        library, "What is the ratio of documents in Quarry Abstracts to Marble Notes?"
    )
    assert "5,183 / 3,633 = 1.43 [1][2]" in text
    assert [o["label"] for o in operands] == [
        "Quarry Abstracts, Documents",
        "Marble Notes, Documents",
    ]


def test_refuses_when_one_operand_is_not_in_the_library(library: Library) -> None:
    answer = library.ask("How many more documents does Quarry Abstracts have than Granite Notes?")
    assert answer.refused and answer.sentences == []
    assert "Quarry Abstracts, Documents: 5,183" in answer.answer
    assert [e.page for e in answer.evidence] == [1]


def _operand(name: str, printed: str, value: float) -> Operand:
    return Operand(name, name, printed, value, "b1", f"Row {printed} more")


def test_verification_recomputes_from_the_quotes() -> None:
    good = Computation("margin", "a / b * 100", [_operand("a", "7,207", 7207.0),
                       _operand("b", "32,765", 32765.0)], 1, "%")  # fmt: skip
    cited = {"b1": "Row 7,207 more\nRow 32,765 more"}
    assert good.shown_result() == "22.0%" and check(good, cited)
    assert render(good) == "margin = 7,207 / 32,765 × 100 = 22.0% [1]."
    wrong_value = Computation("m", "a / b", [_operand("a", "7,207", 7270.0),
                              _operand("b", "32,765", 32765.0)])  # fmt: skip
    assert not check(wrong_value, cited)
    assert not check(good, {"b1": "Row 7,207 more"})  # an operand not in its cited text
    with pytest.raises(ValueError):
        evaluate("__import__('os')", {})
