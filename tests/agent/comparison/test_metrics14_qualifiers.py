"""A metric cell keeps the unit its scorer counts ("label accuracy", "token F-score") and its
"overall" (agent/comparison/aspects.py `qualified`, data/matrix_cells.txt [metric_qualifiers]);
sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspects import qualified
from citewise.agent.comparison.extraction import Finding


def shown(quote: str, value: str) -> str:
    return qualified(Finding("metrics", value, quote, 3, "b-1", "5 Results", 2.5)).value


def test_the_unit_a_scorer_counts_stays_with_its_metric() -> None:
    assert shown("The reef tagger reaches a label accuracy of 91%.", "accuracy") == "label accuracy"
    assert shown("We report token F-score on the kelp notes.", "F-score") == "token F-score"
    assert shown("Its overall accuracy is 80%.", "accuracy") == "overall accuracy"


def test_a_qualifier_inside_a_hyphenated_word_is_not_taken() -> None:
    assert shown("Per-label precision of the reef tagger.", "precision") == "precision"
