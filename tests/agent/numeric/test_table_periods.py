"""Which periods a table operation reads when the question names fewer than it needs, and
tables that print their periods down the rows: on HTML tables these tests write, each
answer's operands quoted and cited and re-derived by the numeric check."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.agent.ask.answer import Answer
from citewise.agent.numeric.numeric_check import numeric_problems
from citewise.api import Library

FLOWS = """<!DOCTYPE html><html><head><title>Cash of a ferry operator</title></head>
<body><h1>Cash generated</h1>
<p>The operator reports the cash its routes generate each year.</p>
<table>
<tr><th>(in millions)</th><th>2020</th><th>2019</th><th>2018</th></tr>
<tr><td>Cash from ticket sales</td><td>900</td><td>800</td><td>650</td></tr>
<tr><td>Harbour fees paid</td><td>(120)</td><td>(100)</td><td>(90)</td></tr>
<tr><td>Weighted average fare</td><td>12.5</td><td>11.0</td><td>10.5</td></tr>
</table>
</body></html>
"""

# periods down the rows: sections headed by a year, and labels that carry their date
STACKED = """<!DOCTYPE html><html><head><title>Fleet of a ferry operator</title></head>
<body><h1>Vessels</h1>
<p>Vessels owned and chartered at each year end.</p>
<table>
<tr><th></th><th>Owned %</th><th>Chartered %</th></tr>
<tr><td>Year ended 31 March 2020</td><td></td><td></td></tr>
<tr><td>Passenger ships</td><td>70%</td><td>30%</td></tr>
<tr><td>Cargo ships</td><td>55%</td><td>45%</td></tr>
<tr><td>Year ended 31 March 2019</td><td></td><td></td></tr>
<tr><td>Passenger ships</td><td>64%</td><td>36%</td></tr>
<tr><td>Cargo ships</td><td>50%</td><td>50%</td></tr>
</table>
<h1>Crew</h1>
<p>Crew contracts outstanding.</p>
<table>
<tr><th></th><th>Contracts</th><th>Average wage</th></tr>
<tr><td>Open as of March 31, 2019</td><td>1,200</td><td>$41.0</td></tr>
<tr><td>Signed</td><td>300</td><td>$43.5</td></tr>
<tr><td>Ended</td><td>(150)</td><td>$40.0</td></tr>
<tr><td>Open as of March 31, 2020</td><td>1,350</td><td>$42.0</td></tr>
</table>
</body></html>
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("table_periods")
    (folder / "flows.html").write_text(FLOWS)
    (folder / "fleet.html").write_text(STACKED)
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([folder / "flows.html", folder / "fleet.html"])
    return lib


def _ask(library: Library, question: str, stem: str = "flows") -> Answer:
    doc = next(d.id for d in library.store.documents() if Path(d.path).stem == stem)
    return library.ask(question, (doc,))


def _computed(library: Library, question: str, stem: str = "flows") -> Answer:
    answer = _ask(library, question, stem)
    assert not answer.refused, answer.answer
    (sentence,) = answer.sentences
    assert sentence.kind == "computed", answer.answer
    assert numeric_problems(answer) == []  # re-derived from the quoted cells
    return answer


def test_an_average_in_one_year_runs_over_it_and_the_year_before(library: Library) -> None:
    answer = _computed(library, "How much was the 2019 average cash from ticket sales?")
    assert "(650 + 800) / 2 = 725.00" in answer.answer
    later = _computed(library, "Give the average harbour fees paid in 2020.")
    assert "(-100 + -120) / 2 = -110.00" in later.answer


def test_a_weighted_average_of_one_year_is_not_averaged_again(library: Library) -> None:
    answer = _ask(library, "What was the weighted average fare in 2020?")
    assert all(s.kind != "computed" for s in answer.sentences), answer.answer


def test_sections_headed_by_a_year_are_that_years_figures(library: Library) -> None:
    answer = _computed(
        library,
        "What was the change in the chartered share of cargo ships from 2019 to 2020?",
        "fleet",
    )
    assert "45 − 50 = -5.00" in answer.answer
    mean = _computed(library, "Average owned passenger ships % over 2019 and 2020?", "fleet")
    assert "(64 + 70) / 2 = 67.00" in mean.answer


def test_rows_whose_labels_carry_their_date(library: Library) -> None:
    answer = _computed(
        library, "Sum the open crew contracts as of March 31, 2019 and 2020.", "fleet"
    )
    assert "1,200 + 1,350 = 2,550.00" in answer.answer
    quotes = " ".join(e.quote for e in answer.evidence)
    assert "Open as of March 31, 2019" in quotes and "Open as of March 31, 2020" in quotes


def test_a_change_over_a_span_of_years_runs_from_its_first_to_its_last(library: Library) -> None:
    answer = _computed(library, "How much did cash from ticket sales grow from 2018 to 2020?")
    assert "900 − 650 = 250.00" in answer.answer
    total = _computed(library, "What was the total cash from ticket sales from 2018 to 2020?")
    assert "650 + 800 + 900" in total.answer  # a total over a span counts every year in it


def test_an_undated_row_the_question_names_is_not_read_as_a_dated_one(library: Library) -> None:
    """ "Signed" has no period of its own: the dated "Open as of ..." rows must not answer
    a question about it."""
    answer = _ask(library, "What is the sum of crew contracts signed in 2019 and 2020?", "fleet")
    assert all(s.kind != "computed" for s in answer.sentences), answer.answer
