"""Limitations cells from a weakness the paper reports of its own work through a pronoun
(agent/comparison/aspect_readers/own_weaknesses.py, `_said_before`), on papers the test writes:
"our tagger finds most towns, but it performs poorly on rivers" is the paper's own; a pronoun
after a compared system, after "we find that X ...", or after "than our tagger" is not."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.comparison.aspect_readers.own_weaknesses import reported_weakness
from citewise.agent.comparison.extraction import Unit
from tests.agent.comparison.test_limits15_own_weaknesses import _paper
from tests.agent.comparison.test_matrix_cells import cell_value as _cell

OWN = "Our tagger finds nearly all town names, but it performs poorly on river names."
COMPARED = "The rule baseline finds nearly all town names, but it performs poorly on river names."
FOUND = (
    "We find that while the gazetteer lookup beats the published numbers on towns, "
    "it fails to reach the tagger of the archive on rivers."
)
THAN = "The rule lists hold more names than our tagger does, but they perform poorly on rivers."


def _unit(text: str) -> Unit:
    return Unit(text, "b1", 1, "Results", "paragraph", 1)


def test_a_pronoun_after_the_papers_own_work_fills_the_cell(tmp_path: Path) -> None:
    value = _cell(tmp_path, "own", _paper(OWN), "limitations")
    assert "performs poorly on river names" in value, value


def test_a_pronoun_after_a_compared_system_is_not_the_papers(tmp_path: Path) -> None:
    assert _cell(tmp_path, "compared", _paper(COMPARED), "limitations") == "not stated"


def test_a_pronoun_after_what_we_find_of_another_is_not_the_papers() -> None:
    assert reported_weakness(_unit(FOUND), None) is None


def test_a_pronoun_after_than_our_work_is_not_the_papers() -> None:
    assert reported_weakness(_unit(THAN), None) is None


def test_a_short_sentence_keeps_the_papers_subject() -> None:
    span = reported_weakness(_unit(OWN), None)
    assert span is not None and not span[2], span
    assert OWN[span[0] : span[1]].startswith("Our tagger finds"), span
