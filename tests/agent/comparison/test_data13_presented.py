"""The unnamed dataset a paper presents as its own (aspect_readers/described_data.py);
sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.described_data import (
    DESCRIBED_DATA_SCORE,
    PRESENTED_SCORE,
    described_datasets,
)
from citewise.agent.comparison.extraction import Unit


def found(*texts: str) -> list[tuple[str, float]]:
    units = [Unit(t, f"b-{i}", 1, "Abstract", "paragraph", i) for i, t in enumerate(texts)]
    return [(f.value, f.score) for f in described_datasets(units)]


def test_a_dataset_the_paper_presents_with_what_it_is_for_is_its_data() -> None:
    got = found("We describe a dataset developed for tagging species in reef survey logs.")
    assert got == [("a dataset developed for tagging species in reef survey logs", PRESENTED_SCORE)]
    got = found("Here we present a new mixed-domain corpus with annotations of kelp stands.")
    assert got[0][0].startswith("a new mixed-domain corpus with annotations")
    assert got[0][1] == PRESENTED_SCORE


def test_a_subset_of_a_named_corpus_is_not_presented_data() -> None:
    assert found("We present a new subset of the Reef corpus with balanced classes.") == []


def test_a_presented_dataset_without_what_it_holds_is_no_description() -> None:
    assert found("We introduce a new reef dataset, KelpSet, and a model.") == []


def test_a_used_dataset_of_stays_below_a_presented_one() -> None:
    assert found("We used a manually-curated dataset of 400 reef notes.") == [
        ("a manually-curated dataset of 400 reef notes", DESCRIBED_DATA_SCORE)
    ]
