"""One reading of a yes/no question's shape (agent/yesno/asking.py) serves both leads: the
word-for-word one (agent/yesno/polar.py `is_polar`) and the judged one (agent/yesno/lead.py
`is_yes_no_question`); they differ only where the shape says why."""

from __future__ import annotations

import pytest

from citewise.agent.yesno.asking import asking_clause, yes_no_shape
from citewise.agent.yesno.lead import is_yes_no_question
from citewise.agent.yesno.polar import is_polar


@pytest.mark.parametrize(
    "question",
    [
        "Which port does the ferry parser read?",
        "Is the parser tuned on the Bergen or the Oslo timetables?",
        "Does the parser read departures/arrivals?",
        "Could you list the harbours the parser reads?",
        "The parser reads timetables.",
    ],
)
def test_neither_lead_reads_what_is_not_a_yes_no_question(question: str) -> None:
    assert yes_no_shape(question) is None
    assert not is_polar(question) and not is_yes_no_question(question)


def test_both_leads_read_a_plain_yes_no_question_alike() -> None:
    for question in (
        "Does the parser read ferry timetables?",
        "In the evaluation, is the parser tested on Skagerrak?",
        "Is the parser tuned on Bergen timetables, yes or no?",
    ):
        assert is_polar(question) and is_yes_no_question(question)
    assert asking_clause("In the evaluation, is it tested?") == "is it tested?"


def test_a_negator_in_the_claim_stops_only_the_word_for_word_lead() -> None:
    shape = yes_no_shape("Is the parser tuned without harbour names?")
    assert shape is not None and shape.negators and not shape.negated
    assert is_yes_no_question("Is the parser tuned without harbour names?")
    assert not is_polar("Is the parser tuned without harbour names?")
    # a question that is itself negative is led by neither
    assert not is_yes_no_question("Doesn't the parser read ferry timetables?")
    assert not is_polar("Is the parser not tuned on Bergen timetables?")


def test_than_is_a_comparison_only_when_its_sides_are_found() -> None:
    excluded = "Is the parser tested on corpora other than Skagerrak?"
    shape = yes_no_shape(excluded)
    assert shape is not None and shape.than
    assert is_yes_no_question(excluded) and not is_polar(excluded)
    assert is_polar("Is the column tagger faster than the row tagger?")
