"""Span answers from tables and their text (issue 33): the change a table prints beside the
one computed, a change asked "by what percentage", the row a total names, the largest row
without the total, the years a table covers, a lookup by words only the table's
introduction says, and the span a long sentence is cut to keeping the figure asked for.
Tables these tests write (HTML, CSV); questions paraphrased."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.agent.ask.proposers import STATED_SUPPORT
from citewise.agent.ask.question import analyse
from citewise.agent.numeric.numeric_check import numeric_problems
from citewise.agent.numeric.tables.support import support
from citewise.agent.sentences.spans import shortest_span
from citewise.api import Library

HTML = """<!DOCTYPE html><html><head><title>Sales by product line</title></head>
<body><h1>Product lines</h1>
<table>
<tr><th>(Dollars in thousands)</th><th>2019</th><th>2018</th><th>2019 vs. 2018</th>
<th>% change</th></tr>
<tr><td>Widgets</td><td>2,500</td><td>2,000</td><td>500</td><td>25%</td></tr>
<tr><td>Gadgets</td><td>1,210</td><td>1,100</td><td>110</td><td>10%</td></tr>
<tr><td>Total product sales</td><td>3,710</td><td>3,100</td><td>610</td><td>19.7%</td></tr>
</table>
<p>Widget demand rose with the new retail partners.</p>
</body></html>
"""

# a harbour's report: what its table measures is said only by the sentence introducing it
HARBOUR = """<!DOCTYPE html><html><head><title>Harbour report</title></head>
<body><h1>Quays</h1>
<p>Cargo handled in kilotonnes by quay was as follows:</p>
<table>
<tr><th></th><th>2020</th><th>2019</th></tr>
<tr><td>East quay</td><td>410</td><td>380</td></tr>
<tr><td>West quay</td><td>220</td><td>260</td></tr>
</table>
</body></html>
"""

CSV = """Terminal,tonnes,ships
East quay,410,38
West quay,220,26
North quay,305,31
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("table_spans")
    (folder / "lines.html").write_text(HTML)
    (folder / "harbour.html").write_text(HARBOUR)
    (folder / "cargo.csv").write_text(CSV)
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([folder / "lines.html", folder / "harbour.html", folder / "cargo.csv"])
    return lib


def _doc(library: Library, stem: str = "lines") -> tuple[str]:
    return (next(d.id for d in library.store.documents() if Path(d.path).stem == stem),)


def test_a_computed_change_is_followed_by_the_change_the_table_prints(library: Library) -> None:
    answer = library.ask("What was the percentage growth in widgets between 2018 and 2019?",
                         _doc(library))  # fmt: skip
    assert not answer.refused, answer.answer
    computed, printed = answer.sentences[:2]
    assert computed.kind == "computed" and "25.00%" in computed.text
    assert printed.kind == "cell" and "25%" in printed.text  # the report's own figure
    assert printed.citations == computed.citations
    assert numeric_problems(answer) == []


def test_a_change_asked_by_what_percentage_is_a_percentage_change(library: Library) -> None:
    answer = library.ask("By what percentage did gadgets increase from 2018 to 2019?",
                         _doc(library))  # fmt: skip
    assert not answer.refused, answer.answer
    assert answer.sentences[0].kind == "computed"
    assert "10.00%" in answer.answer and "110.00" not in answer.answer


def test_a_printed_change_that_disagrees_is_not_quoted(library: Library) -> None:
    # 2019 vs 2018 for the total is 610, its printed percentage 19.7% is (3,710-3,100)/3,100
    answer = library.ask("What was the change in total product sales from 2018 to 2019?",
                         _doc(library))  # fmt: skip
    assert "610" in answer.answer
    assert "19.7%" not in answer.answer  # a change in dollars is not followed by a percentage


def test_the_total_named_with_one_year_is_its_row_not_a_sum(library: Library) -> None:
    answer = library.ask("What were total product sales in 2019?", _doc(library))
    assert not answer.refused, answer.answer
    assert "3,710" in answer.answer
    assert all(s.kind != "computed" for s in answer.sentences)


def test_the_largest_row_is_never_the_total(library: Library) -> None:
    answer = library.ask("Which product line had the highest sales in 2019?", _doc(library))
    assert not answer.refused, answer.answer
    assert answer.answer.startswith("Widgets")


def test_the_years_a_table_covers_when_asked_what_they_are(library: Library) -> None:
    answer = library.ask("What are the years shown in the table?", _doc(library))
    assert not answer.refused, answer.answer
    assert "2019" in answer.answer and "2018" in answer.answer


def test_a_table_answer_is_scored_from_its_features_by_the_one_scoring_step(
    library: Library,
) -> None:
    question = "How much did gadgets grow between 2018 and 2019?"
    answer = library.ask(question, _doc(library), trace=True)
    assert "110" in answer.answer
    trace = answer.pipeline or {}
    shapes = trace["proposers"]
    (won,) = [c for p in shapes for c in p["candidates"] if c["won"]]  # type: ignore[attr-defined]
    assert trace["winner"] == "table"
    features = won["features"]
    assert STATED_SUPPORT not in features  # no support handed over by the proposer
    table = {k.removeprefix("table_"): v for k, v in features.items() if k.startswith("table_")}
    assert table and won["support"] == round(support(table), 3) == answer.support_score


def test_the_rows_of_a_table_laid_out_by_what_is_asked_for(library: Library) -> None:
    answer = library.ask("What are the quays whose cargo is reported?", _doc(library, "harbour"))
    assert not answer.refused, answer.answer
    assert "East quay" in answer.answer and "West quay" in answer.answer
    (sentence,) = answer.sentences
    assert len({e.quote for e in answer.evidence if e.id in sentence.citations}) >= 1


def test_a_lookup_reads_what_the_introduction_says_the_table_measures(library: Library) -> None:
    answer = library.ask("How much cargo did the West quay handle in 2019?",
                         _doc(library, "harbour"))  # fmt: skip
    assert not answer.refused, answer.answer
    assert answer.sentences[0].kind == "cell" and "260" in answer.sentences[0].text


LONG_DATES = (
    "Following the vesting of the plan's units, the tax savings the firm realised for the "
    "years ended June 30, 2020, 2019 and 2018 were $41 million, $37 million and $22 "
    "million, respectively."
)
TRAILING = (
    "The shift in the obligation was booked in other comprehensive loss, part of which is "
    "amortised over the expected remaining service of the members, which was about 11 "
    "years at the end of 2020."
)


def test_a_span_is_not_cut_inside_a_date_and_says_more_than_the_question() -> None:
    question = analyse("What tax savings did the firm realise for the year ended 30 June 2020?")
    span = shortest_span(LONG_DATES, question)
    assert "$41 million" in span


def test_a_span_keeps_the_clause_said_of_what_the_question_asks_about() -> None:
    question = analyse("What is the expected remaining service of the members?")
    span = shortest_span(TRAILING, question)
    assert "11 years" in span


LISTED = (
    "The main lines of the business over the reporting period were boat repair, marine "
    "and river engine servicing, dock rental, fuel sales, chandlery and winter storage services."
)


def test_a_span_does_not_cut_the_list_it_opens() -> None:
    question = analyse("What were the main lines of the business over the period?")
    span = shortest_span(LISTED, question)
    assert "boat repair" in span and "winter storage services" in span


def test_the_relative_clause_comes_by_the_one_widening_rule() -> None:
    # no second rule: without the clause after the span, the relative clause is not added
    question = analyse("What is the expected remaining service of the members?")
    span = shortest_span(TRAILING, question, then_next=False)
    assert "11 years" not in span and "remaining service" in span, span
