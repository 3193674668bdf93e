"""Limitations cells from the paper's own measured outcome reported as low
(agent/comparison/aspect_readers/own_weaknesses.py, `low_result`), on papers the test writes:
"the recall is rather low on river names" is the paper's own; a compared system's scores, a
case opened by a condition, a measure of another named in between or in brackets are not."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.comparison.aspect_readers.own_weaknesses import low_result
from citewise.agent.comparison.extraction import Unit
from tests.agent.comparison.test_limits15_own_weaknesses import _paper
from tests.agent.comparison.test_matrix_cells import cell_value as _cell

LOW = "On the second archive, the recall is rather low because its letters use older spellings."


def _unit(text: str) -> Unit:
    return Unit(text, "b1", 1, "Results", "paragraph", 1)


def test_a_low_measure_of_the_work_fills_the_cell(tmp_path: Path) -> None:
    value = _cell(tmp_path, "low", _paper(LOW), "limitations")
    assert value.startswith("the recall is rather low"), value


def test_what_we_see_of_the_results_counts() -> None:
    assert (
        low_result(_unit("Again, we see that the results are slightly lower on rivers."))
        is not None
    )


def test_a_compared_systems_scores_are_not_the_papers(tmp_path: Path) -> None:
    text = "On the second archive, the baseline scores are quite low."
    assert _cell(tmp_path, "baseline", _paper(text), "limitations") == "not stated"


def test_a_condition_or_another_measure_is_no_weakness() -> None:
    assert low_result(_unit("When the gazetteer is dropped, the precision is lower.")) is None
    assert low_result(_unit("The results of the rule lists are low on rivers.")) is None
    assert (
        low_result(_unit("Most tags are right (however, the scores are low for rivers).")) is None
    )
    assert low_result(_unit("The scores are of low variance across the archives.")) is None
