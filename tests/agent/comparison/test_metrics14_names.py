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
