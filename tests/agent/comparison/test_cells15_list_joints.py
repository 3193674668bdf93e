"""A cell widened across the findings of one quote only where they are joined as a list
(extraction.merged_value, list_joint); sentences the tests write."""

from __future__ import annotations

import pytest

from citewise.agent.comparison.extraction import Finding, list_joint, merged_value

SECTION = "4 Experiments"


def found(quote: str, *values: str, aspect: str = "datasets") -> list[Finding]:
    """The values as findings of one quote, best (highest score) first."""
    return [
        Finding(aspect, v, quote, 3, "b-1", SECTION, 3.0 - i / 10) for i, v in enumerate(values)
    ]


def cell(quote: str, *values: str, aspect: str = "datasets") -> str:
    merged = merged_value(found(quote, *values, aspect=aspect))
    assert merged is not None and merged.value in quote
    return merged.value


def test_a_list_as_written_is_one_cell() -> None:
    quote = "We train on ReefCount, KelpSet and TideBank for every run."
    assert cell(quote, "KelpSet", "ReefCount", "TideBank") == "ReefCount, KelpSet and TideBank"


def test_a_clause_between_two_findings_keeps_the_best_alone() -> None:
    quote = "Replies are scored by coverage which checks that every note is matched, and drift."
    assert cell(quote, "coverage", "drift", aspect="metrics") == "coverage"


def test_the_run_around_the_best_finding_stops_at_the_clause() -> None:
    quote = "KelpSet serves as raw text for the pretraining stage, and ReefCount and TideBank."
    assert cell(quote, "ReefCount", "KelpSet", "TideBank") == "ReefCount and TideBank"


def test_citations_and_short_asides_between_items_still_join_them() -> None:
    quote = "We report reef error (RE) BIBREF4 and tide loss (0.31) on all notes."
    assert cell(quote, "tide loss", "reef error", aspect="metrics") == (
        "reef error (RE) BIBREF4 and tide loss"
    )


def test_one_qualifying_word_joins_but_a_phrase_of_function_words_does_not() -> None:
    assert cell("We use the ReefCount corpora and KelpSet.", "KelpSet", "ReefCount") == (
        "ReefCount corpora and KelpSet"
    )
    assert cell("We use the ReefCount part of the KelpSet.", "KelpSet", "ReefCount") == "KelpSet"


def test_a_single_finding_or_none_is_passed_through() -> None:
    assert cell("We use KelpSet alone.", "KelpSet") == "KelpSet"
    assert merged_value([]) is None


@pytest.mark.parametrize(
    ("gap", "joins"),
    [
        (", ", True),
        (" and ", True),
        (", and the ", True),
        (" as well as ", True),
        (" / ", True),
        ("", True),
        (" which measures how often a note is right, and ", False),
        (" on the ", False),
        ("; RC: ", False),
        (" (counting the ", False),
        (", +0.4 in terms of ", False),
    ],
)
def test_list_joint(gap: str, joins: bool) -> None:
    assert list_joint(gap) is joins
