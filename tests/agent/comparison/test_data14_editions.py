"""A platform's data of one year ("Reefly 2013" where "Reefly" is a platform the word lists
name) is a dataset, not a source; a list of such editions joins the cell
(agent/comparison/aspect_readers/matrix_datasets.py, matrix_datasets_listed.py); sentences
the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_datasets import is_source
from citewise.agent.comparison.aspect_readers.matrix_datasets_listed import listed_beside
from citewise.agent.comparison.extraction import Finding, Unit


def units(*texts: str) -> list[Unit]:
    return [Unit(t, f"b-{i}", 3, "4 Experiments", "paragraph", i) for i, t in enumerate(texts)]


def read(value: str, unit: Unit, score: float = 3.0) -> Finding:
    return Finding("datasets", value, unit.text, unit.page, unit.block_id, unit.section, score)


def test_a_platform_with_a_year_names_that_years_dataset() -> None:
    assert not is_source("Yelp 2015")
    assert not is_source("Reddit-2019")
    assert is_source("Yelp")  # the platform alone is where data comes from
    assert is_source("Twitter")


def test_a_language_with_a_year_stays_a_source() -> None:
    assert is_source("Icelandic 2018")
    assert is_source("English-German")


def test_a_list_of_editions_joins_a_name_read_elsewhere() -> None:
    us = units("We train on three review sets: KelpSet, Yelp 2011, and Yelp 2012 datasets.")
    listed = listed_beside([read("KelpSet", us[0])], us)
    assert [f.value for f in listed] == ["KelpSet", "Yelp 2011", "Yelp 2012"]


def test_a_short_plain_word_without_a_year_is_no_list_name() -> None:
    us = units("We compare the KelpSet, Reef and Kelp datasets.")
    listed = listed_beside([read("KelpSet", us[0])], us)
    assert [f.value for f in listed] == []
