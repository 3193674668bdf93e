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


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("table_periods")
    (folder / "flows.html").write_text(FLOWS)
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([folder / "flows.html"])
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
