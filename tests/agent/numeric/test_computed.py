"""Computed answers: figures from statements on different pages, each quoted and cited,
the arithmetic shown and recomputed; a refusal naming the missing statement."""

from __future__ import annotations

import pytest

from citewise.agent.numeric.computed import Computation, Operand, check, evaluate, render
from citewise.api import Library
from tests.agent.tables_pdf import write_annual_report, write_results_paper


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


@pytest.fixture(scope="module")
def filings(tmp_path_factory: pytest.TempPathFactory) -> tuple[Library, Library]:
    """Granite Corp's 10-K with both statements, and one whose income statement is missing."""
    whole, partial = tmp_path_factory.mktemp("whole"), tmp_path_factory.mktemp("partial")
    write_annual_report(whole / "granite_2018_10k.pdf")
    write_annual_report(partial / "granite_2018_10k.pdf", with_income=False)
    libraries = []
    for folder in (whole, partial):
        lib = Library(folder / "lib", embeddings=False)
        lib.ingest([folder / "granite_2018_10k.pdf"])
        libraries.append(lib)
    return libraries[0], libraries[1]


def test_a_statement_line_item_for_a_fiscal_year_is_its_cell(
    filings: tuple[Library, Library],
) -> None:
    answer = filings[0].ask("What is Granite Corp's FY2018 capital expenditure (in USD millions)?")
    (sentence,) = answer.sentences
    assert sentence.kind == "cell" and sentence.cell is not None
    assert sentence.cell["row"] == "Purchases of property, plant and equipment"
    assert sentence.cell["column"] == "2018" and sentence.cell["value"] == "(1,577)"
    assert "(1,577) (in millions)" in answer.answer
    (evidence,) = answer.evidence
    assert (
        evidence.page == 1
        and evidence.quote == "Purchases of property, plant and equipment (1,577) (1,373)"
    )


def test_a_margin_across_two_statement_pages_shows_its_definition(
    filings: tuple[Library, Library],
) -> None:
    text, operands, pages = _computed(
        filings[0], "What is Granite Corp's FY2018 EBITDA less capex (in USD millions)?"
    )
    # parenthesized capex is an outflow: its magnitude is subtracted
    assert "7,207 + 1,488 − 1,577 = 7,118" in text and "[1][2]" in text
    assert [(o["row"], o["value"]) for o in operands] == [
        ("Operating income", "7,207"),
        ("Depreciation and amortization", "1,488"),
        ("Purchases of property, plant and equipment", "(1,577)"),
    ]
    assert [pages[str(o["citation"])] for o in operands] == [2, 1, 1]
    text, _, _ = _computed(filings[0], "What is Granite Corp's FY2018 operating margin?")
    assert "7,207 / 32,765 × 100 = 22.0%" in text and "operating income / revenue" in text


def test_a_scale_asked_for_converts_from_the_statements_millions(
    filings: tuple[Library, Library],
) -> None:
    text, operands, _ = _computed(
        filings[0], "How much did Granite Corp pay in dividends in FY2017 (in USD billions)?"
    )
    assert "2,803 / 1,000 = 2.80 (in billions)" in text
    assert [o["value"] for o in operands] == ["(2,803)"]


def test_refuses_a_metric_whose_statement_is_missing(filings: tuple[Library, Library]) -> None:
    answer = filings[1].ask("What is Granite Corp's FY2018 operating margin?")
    assert answer.refused and answer.sentences == []
    assert "operating income for FY2018" in answer.answer
    # the cash flow figure alone is still answered
    assert not filings[1].ask("What is Granite Corp's FY2018 capital expenditure?").refused


def test_a_change_between_two_years_and_a_line_named_in_full(
    filings: tuple[Library, Library],
) -> None:
    text, operands, _ = _computed(
        filings[0], "By what percentage did Granite Corp's net sales change from FY2017 to FY2018?"
    )
    assert "(32,765 − 31,657) / 31,657 × 100 = 3.5%" in text
    assert [o["label"] for o in operands] == ["revenue, FY2018", "revenue, FY2017"]
    # a label no standard name covers, named word for word in the question
    answer = filings[0].ask("What was Granite Corp's FY2018 net cash used in investing activities?")
    (sentence,) = answer.sentences
    assert sentence.cell is not None and sentence.cell["value"] == "(2,210)"


def test_a_paper_is_not_read_as_a_filing(library: Library) -> None:
    from citewise.agent.packs.finance.filing_answer import filing_computation

    # the file is results.pdf: the question names it and a year, but it has no statements
    question = "What revenue do the results report for FY2019?"
    assert filing_computation(question, library.store) is None
