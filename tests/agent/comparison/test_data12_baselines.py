"""Baselines readings of the tenth session (aspect_readers/baselines.py); sentences the tests
write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.baselines import baseline_findings
from citewise.agent.comparison.extraction import Unit


def baselines(*texts: str) -> list[str]:
    units = [Unit(t, f"b-{i}", 4, "5 Results", "paragraph", i) for i, t in enumerate(texts)]
    return [f.value for f in baseline_findings(units, "A reef paper")]


def test_a_name_set_off_by_commas_after_baseline_is_the_baseline() -> None:
    found = baselines("The strongest baseline, ReefNet-2, reaches an accuracy of 81%.")
    assert found[:1] == ["ReefNet-2"]
    found = baselines("The embedding based baseline, the KelpVec-avg method, scores lower.")
    assert found[:1] == ["KelpVec-avg"]


def test_a_name_after_a_comparison_clause_is_no_baseline() -> None:
    assert baselines("Compared to the first baseline, ReefNet outperforms it on reefs.") == []
