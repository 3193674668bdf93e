"""Arithmetic on any table (agent/numeric/tables/): change, percentage change, average, total,
share, difference of rows, the larger period, counts and period lists, on an HTML table
and a Markdown pipe table these tests write; every operand quoted and cited, the result
re-derived by the numeric check, a tie between rows lowering support."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.agent.ask.answer import Answer
from citewise.agent.ask.table_reading import read
from citewise.agent.numeric.numeric_check import numeric_problems
from citewise.api import Library

HTML = """<!DOCTYPE html><html><head><title>Annual figures of a small maker</title></head>
<body><h1>Results of the year</h1>
<p>Our sales kept growing while we spent more on reaching new buyers.</p>
<table>
<tr><th>(in thousands)</th><th>2019</th><th>2018</th></tr>
<tr><td>Revenue</td><td>5,200</td><td>4,800</td></tr>
<tr><td>Cost of sales</td><td>(1,164)</td><td>(1,020)</td></tr>
<tr><td>Selling expenses:</td><td></td><td></td></tr>
<tr><td>Marketing</td><td>300</td><td>250</td></tr>
<tr><td>Other</td><td>40</td><td>35</td></tr>
<tr><td>Deferred items:</td><td></td><td></td></tr>
<tr><td>Other</td><td>12</td><td>18</td></tr>
</table>
<p>The figures above are audited.</p>
</body></html>
"""

MARKDOWN = """# Plant output

Tonnes shipped by each plant over three seasons.

| Plant | 2017 | 2018 | 2019 |
|---|---|---|---|
| North mill | 120.5 | 130.0 | 150.25 |
| South mill | 80 | 76 | 90 |

## Leases

| Year | Operating leases | Finance leases |
|---|---|---|
| 2021 | 138 | 6 |
| 2022 | 135 | 7 |
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("table_math")
    (folder / "maker.html").write_text(HTML)
    (folder / "plants.md").write_text(MARKDOWN)
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([folder / "maker.html", folder / "plants.md"])
    return lib


def _doc(library: Library, stem: str) -> str:
    return next(d.id for d in library.store.documents() if Path(d.path).stem == stem)


def _computed(library: Library, question: str, stem: str = "maker") -> Answer:
    answer = library.ask(question, (_doc(library, stem),))
    assert not answer.refused, answer.answer
    (sentence,) = answer.sentences
    assert sentence.kind == "computed", answer.answer
    quotes = {e.id: e.quote for e in answer.evidence}
    for operand in sentence.operands or []:  # each operand cited, its figure in the quote
        assert operand["citation"] in sentence.citations
        assert str(operand["value"]) in quotes[str(operand["citation"])]
    assert numeric_problems(answer) == []  # the check re-derives it from the quotes
    return answer


def test_a_change_runs_from_the_earlier_period_to_the_later(library: Library) -> None:
    forward = _computed(library, "By what amount did revenue increase from 2018 to 2019?")
    assert "5,200 − 4,800 = 400.00" in forward.answer
    backward = _computed(library, "What is the change in revenue between 2019 and 2018?")
    assert "= 400.00" in backward.answer  # the later year minus the earlier, as written
    assert "thousands" in forward.answer  # the table's scale is stated


def test_a_percentage_change_divides_by_the_earlier_figure(library: Library) -> None:
    answer = _computed(library, "What was the percent change in revenue over 2018 to 2019?")
    assert "(5,200 − 4,800) / 4,800 × 100 = 8.33%" in answer.answer


def test_an_average_and_a_total_over_the_years_named(library: Library) -> None:
    mean = _computed(library, "What was the mean revenue across 2018 and 2019?")
    assert "= 5,000.00" in mean.answer
    combined = _computed(library, "What is the combined revenue for 2018 and 2019?")
    assert "= 10,000.00" in combined.answer


def test_figures_in_parentheses_are_negative(library: Library) -> None:
    answer = _computed(library, "How did the cost of sales change between 2018 and 2019?")
    assert "-1,164 − -1,020 = -144.00" in answer.answer
    operands = answer.sentences[0].operands or []
    assert [o["value"] for o in operands] == ["(1,020)", "(1,164)"]


def test_a_share_of_one_row_in_another(library: Library) -> None:
    answer = _computed(library, "What was marketing as a percentage of revenue in 2019?")
    assert "300 / 5,200 × 100 = 5.77%" in answer.answer


def test_a_difference_of_two_rows_in_the_year_named(library: Library) -> None:
    answer = _computed(library, "How much more was revenue than marketing in 2018?")
    assert "4,800 − 250 = 4,550.00" in answer.answer


def test_the_year_with_the_larger_figure(library: Library) -> None:
    answer = library.ask("In which year was marketing spend higher?", (_doc(library, "maker"),))
    assert answer.answer.startswith("2019 (Marketing: 300 in 2019")
    assert answer.sentences[0].kind == "cell" and numeric_problems(answer) == []


def test_a_count_of_years_over_a_figure(library: Library) -> None:
    answer = library.ask("How many years did revenue exceed 5,000?", (_doc(library, "maker"),))
    assert answer.answer.startswith("1 (Revenue above 5000")


def test_two_rows_with_the_same_label_lower_support(library: Library) -> None:
    plain = _computed(library, "What was the change in marketing between 2018 and 2019?")
    tied = _computed(library, "What was the change in other between 2018 and 2019?")
    assert tied.support_score < plain.support_score
    assert "matches the question as well" in tied.answer  # the tie is said, not hidden
    clear = _computed(library, "What was the change in other deferred items between 2018 and 2019?")
    assert "12 − 18 = -6.00" in clear.answer  # the section row above settles it
    assert clear.support_score > tied.support_score


def test_a_year_the_table_does_not_have_gets_no_computed_answer(library: Library) -> None:
    answer = library.ask(
        "What was the change in revenue between 2016 and 2017?", (_doc(library, "maker"),)
    )
    assert all(s.kind != "computed" for s in answer.sentences)


def test_markdown_table_average_over_its_three_years(library: Library) -> None:
    answer = _computed(library, "What is the average output of the north mill?", "plants")
    assert "(120.5 + 130 + 150.25) / 3 = 133.58" in answer.answer


def test_a_table_whose_rows_are_years(library: Library) -> None:
    answer = _computed(library, "What was the change in operating leases from 2021 to 2022?",
                       "plants")  # fmt: skip
    assert "135 − 138 = -3.00" in answer.answer


def test_the_years_a_table_covers(library: Library) -> None:
    answer = library.ask("Which years does the table report south mill figures for?",
                         (_doc(library, "plants"),))  # fmt: skip
    assert answer.answer.startswith("2017, 2018 and 2019")


@pytest.mark.parametrize(
    ("question", "operation", "years"),
    [
        (
            "What was the percentage increase in net sales from FY18 to FY19?",
            "pct_change",
            [2018, 2019],
        ),
        ("Give the average headcount for fiscal 2017 and fiscal 2018.", "average", [2017, 2018]),
        ("What was the rent as a proportion of total costs in 2019?", "share", [2019]),
        ("What is the increase / (decrease) in fees from 2018 to 2019?", "change", [2018, 2019]),
    ],
)
def test_the_question_names_its_operation_and_periods(
    question: str, operation: str, years: list[int]
) -> None:
    ask = read(question)
    assert ask.operation == operation
    assert [p.year for p in ask.periods] == years


def test_the_parts_of_a_section_listed_and_counted(library: Library) -> None:
    doc = (_doc(library, "maker"),)
    listed = library.ask("What are the components of selling expenses?", doc)
    assert listed.answer.startswith("Marketing; Other")
    counted = library.ask("How many kinds of selling expenses are there?", doc)
    assert counted.answer.startswith("2 (")


def test_a_question_asking_why_is_left_to_the_text(library: Library) -> None:
    answer = library.ask("Why did revenue increase from 2018 to 2019?", (_doc(library, "maker"),))
    assert all(s.kind != "computed" for s in answer.sentences)


def test_every_table_is_a_table_whatever_its_format(library: Library) -> None:
    """The HTML table and both Markdown pipe tables are stored as grids with header rows;
    an unlabelled table is shown by its place in the document ("citewise table DOC 2")."""
    html = library.table(_doc(library, "maker"), "1").to_dict()
    assert html["header_rows"] == 1 and html["grid"][1] == ["Revenue", "5,200", "4,800"]
    leases = library.table(_doc(library, "plants"), "2").to_dict()
    assert leases["header_rows"] == 1
    assert leases["grid"][0] == ["Year", "Operating leases", "Finance leases"]
