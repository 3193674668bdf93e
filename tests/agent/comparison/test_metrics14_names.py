"""The metric names as a data file (agent/data/metric_names.txt, joined by
agent/comparison/patterns.py); sentences the tests write."""

from __future__ import annotations

import re

from citewise.agent.comparison.patterns import METRIC_NAMES, METRICS_FILE
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import read_lists

_NAME = re.compile(rf"(?<![\w-])(?:{METRIC_NAMES})(?![\w-])")


def names(text: str) -> list[str]:
    return [m.group() for m in _NAME.finditer(text)]


def test_every_list_of_the_file_has_its_provenance() -> None:
    lists, sourced = read_lists(shipped_text(METRICS_FILE))
    assert lists and set(lists) <= sourced
    assert all(lists.values())


def test_the_names_are_read_as_papers_print_them() -> None:
    assert names("We report accuracy and macro-F1 on the kelp notes.") == ["accuracy", "macro-F1"]
    assert names("BLEU-4 and Rouge-L of the reef summaries") == ["BLEU-4", "Rouge-L"]
    assert names("the mortality rates of the two wards") == ["mortality rates"]


def test_measures_named_by_the_work_that_defined_them() -> None:
    text = (
        "We score the simplified kelp notes with SARI and FKGL, the decoder's real-time "
        "factor (RTF) and the retrieval's Mean Average Precision (MAP) and NDCG@10."
    )
    assert names(text) == ["SARI", "FKGL", "real-time factor", "RTF", "Mean Average Precision",
                           "MAP", "NDCG@10"]  # fmt: skip
    assert names("Agreement was Krippendorff's alpha = 0.7 and Fleiss' kappa = 0.6.") == [
        "Krippendorff's alpha",
        "Fleiss' kappa",
    ]
    assert names("the clusters' purity and V-measure; an f-measure of 0.8") == [
        "purity",
        "V-measure",
        "f-measure",
    ]


def test_map_as_maximum_a_posteriori_or_inside_a_name_is_no_metric() -> None:
    assert names("we decode the MAP parse tree of each reef sentence") == []
    assert names("our Hi-MAP model summarises the notes") == []
    assert names("Hi-MAP reaches a MAP of .31") == ["MAP"]


def test_plural_correlations_are_read() -> None:
    assert names("Table 1: Pearson correlations between the two reef surveys") == [
        "Pearson correlations"
    ]


def test_a_name_that_extends_another_is_read_whole() -> None:
    assert names("Performance is measured in recall at k, with k = 1, 5 and 10.") == ["recall at k"]
    assert names("ranking measures such as precision at $k$ and MRR") == ["precision at $k$", "MRR"]
