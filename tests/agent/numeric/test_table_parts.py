"""Questions naming several rows or columns of one table (agent/numeric/tables/,
agent/ask/table_reading.py): a share of two or more rows in a total, a total and an average
of three rows, one row's name that holds "and" kept whole, and columns headed by digit
ranges ("1–30", "31–60 days", ">60") rather than periods, on HTML tables these tests
write; every operand quoted and re-derived by the numeric check."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.agent.ask.answer import Answer
from citewise.agent.ask.table_reading import read
from citewise.agent.numeric.numeric_check import numeric_problems
from citewise.agent.numeric.tables.locate import ranges
from citewise.api import Library

HTML = """<!DOCTYPE html><html><head><title>Sales of a lamp maker</title></head>
<body><h1>Where we sell</h1>
<p>Sales by country of the buyer were as follows.</p>
<table>
<tr><th>(in thousands)</th><th>2021</th><th>2020</th></tr>
<tr><td>Norway</td><td>1,200</td><td>1,000</td></tr>
<tr><td>Chile</td><td>800</td><td>700</td></tr>
<tr><td>Kenya</td><td>500</td><td>300</td></tr>
<tr><td>Research and development grants</td><td>40</td><td>30</td></tr>
<tr><td>Total sales</td><td>2,540</td><td>2,030</td></tr>
</table>
<h2>Overdue invoices</h2>
<p>Invoices past their due date, by the days overdue.</p>
<table>
<tr><th>Days overdue</th><th>1–30</th><th>31–60</th><th>&gt;60</th><th>Total</th></tr>
<tr><td>Retail buyers</td><td>420</td><td>95</td><td>60</td><td>575</td></tr>
<tr><td>Wholesale buyers</td><td>130</td><td>210</td><td>15</td><td>355</td></tr>
</table>
</body></html>
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("table_parts")
    (folder / "lamps.html").write_text(HTML)
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([folder / "lamps.html"])
    return lib


def _computed(library: Library, question: str) -> Answer:
    doc = next(d.id for d in library.store.documents() if Path(d.path).stem == "lamps")
    answer = library.ask(question, (doc,))
    assert not answer.refused, answer.answer
    sentence = answer.sentences[0]
    assert sentence.kind == "computed", answer.answer
    assert numeric_problems(answer) == []  # the check re-derives it from the quotes
    return answer


def test_a_share_of_two_rows_in_the_total(library: Library) -> None:
    answer = _computed(
        library, "What proportion of 2021 sales from Norway and Chile over total sales, in percent?"
    )
    assert "(1,200 + 800) / 2,540 × 100 = 78.74%" in answer.answer


def test_a_share_of_three_rows_listed_with_commas(library: Library) -> None:
    answer = _computed(
        library, "What were Norway, Chile and Kenya as a percentage of total sales in 2020?"
    )
    assert "(1,000 + 700 + 300) / 2,030 × 100 = 98.52%" in answer.answer


def test_a_total_and_an_average_of_three_rows(library: Library) -> None:
    total = _computed(library, "What is the sum of Norway, Chile and Kenya sales in 2021?")
    assert "1,200 + 800 + 500 = 2,500.00" in total.answer
    mean = _computed(library, "What was the average of Norway, Chile and Kenya in 2020?")
    assert "(1,000 + 700 + 300) / 3 = 666.67" in mean.answer


def test_a_row_whose_name_holds_and_stays_one_row(library: Library) -> None:
    answer = _computed(
        library,
        "What were research and development grants as a percentage of total sales in 2021?",
    )
    assert "40 / 2,540 × 100 = 1.57%" in answer.answer


def test_two_columns_headed_by_day_ranges(library: Library) -> None:
    answer = _computed(
        library, "What is the difference between 31-60 and 1-30 days overdue for retail buyers?"
    )
    assert "95 − 420 = -325.00" in answer.answer


def test_one_column_headed_by_a_day_range_for_two_rows(library: Library) -> None:
    answer = _computed(
        library, "How much more was overdue from retail than wholesale buyers for 1-30 days?"
    )
    assert "420 − 130 = 290.00" in answer.answer


def test_the_reader_lists_the_rows_each_side_names() -> None:
    ask = read("What were Norway, Chile and Kenya as a percentage of total sales in 2020?")
    assert ("Norway", "Chile", "Kenya") in [first for first, _ in ask.groups]
    assert ranges("between 1 - 30 and 31–60 days, not >60, in 2019-2020") == {
        "1-30", "31-60", ">60"}  # fmt: skip


def test_a_percentage_change_of_two_rows_together(library: Library) -> None:
    answer = _computed(
        library, "What was the percentage change in sales of Norway and Chile from 2020 to 2021?"
    )
    assert "((1,200 + 800) − (1,000 + 700)) / (1,000 + 700) × 100 = 17.65%" in answer.answer


def test_a_change_in_a_row_whose_name_holds_and(library: Library) -> None:
    answer = _computed(
        library, "What was the change in research and development grants from 2020 to 2021?"
    )
    assert "40 − 30 = 10.00" in answer.answer
