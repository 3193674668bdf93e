"""The data the authors downloaded, crawled or scraped themselves, described in words
(agent/comparison/aspect_readers/described_data.py, `_GATHERED`); sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.described_data import (
    DESCRIBED_DATA_SCORE,
    described_datasets,
)
from citewise.agent.comparison.extraction import Unit


def described(*texts: str) -> list[tuple[str, float]]:
    units = [Unit(t, f"b-{i}", 3, "3 Data", "paragraph", i) for i, t in enumerate(texts)]
    return [(f.value, f.score) for f in described_datasets(units)]


def test_what_the_authors_scraped_is_their_data_described() -> None:
    found = described("We scraped two years of reef reports using the official KelpWatch API.")
    assert found == [
        ("two years of reef reports using the official KelpWatch API", DESCRIBED_DATA_SCORE)
    ]


def test_a_download_keeps_its_source_and_a_decimal_count() -> None:
    found = described("We download 2.5 million reef notes from the KelpBase archive; we clean.")
    assert found and found[0][0] == "2.5 million reef notes from the KelpBase archive"


def test_a_pronoun_after_the_verb_names_no_data() -> None:
    assert described("Once the notes were found, we downloaded them for later use.") == []


def test_a_sentence_without_the_authors_gathering_describes_nothing() -> None:
    assert described("Other teams crawled the reef forum in 2019.") == []
