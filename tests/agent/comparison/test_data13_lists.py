"""Lists of data in one sentence (agent/comparison/aspect_readers/matrix_datasets_listed.py);
sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_datasets_listed import (
    LIST_EDGE,
    listed_beside,
)
from citewise.agent.comparison.extraction import Finding, Unit, merged_value


def units(*texts: str) -> list[Unit]:
    return [Unit(t, f"b-{i}", 3, "4 Experiments", "paragraph", i) for i, t in enumerate(texts)]


def read(value: str, unit: Unit, score: float = 3.0) -> Finding:
    return Finding("datasets", value, unit.text, unit.page, unit.block_id, unit.section, score)


def test_names_joined_before_a_plural_data_word_join_a_name_read_elsewhere() -> None:
    us = units(
        "We train on the reef notes of KelpSet.",
        "Our model is evaluated on the ReefCount BIBREF3 and larger KelpSet BIBREF4 datasets.",
    )
    found = [read("KelpSet", us[1], 3.0), read("KelpSet", us[0], 2.0)]
    listed = listed_beside(found, us)
    assert [f.value for f in listed] == ["ReefCount", "KelpSet"]
    assert all(f.score == 3.0 + LIST_EDGE and f.quote == us[1].text for f in listed)
    cell = merged_value(sorted(found + listed, key=lambda f: -f.score))
    assert cell is not None and cell.value.startswith("ReefCount") and "KelpSet" in cell.value


def test_a_counted_list_in_brackets_keeps_a_name_that_opens_with_a_digit() -> None:
    us = units("Our experiments on two corpora (ReefCount and 12kelp-notes-v2) show gains.")
    listed = listed_beside([read("ReefCount", us[0])], us)
    assert [f.value for f in listed] == ["ReefCount", "12kelp-notes-v2"]


def test_a_list_none_of_whose_names_was_read_is_left_out() -> None:
    us = units("For tuning we use the ReefCount and KelpSet corpora.", "We gathered 400 notes.")
    assert listed_beside([read("400 notes", us[1], 0.6)], us) == []


def test_a_citation_after_a_name_is_not_part_of_it() -> None:
    us = units("We report scores on the ReefCount BIBREF7 and KelpSet BIBREF8 benchmarks.")
    listed = listed_beside([read("KelpSet", us[0])], us)
    assert [f.value for f in listed] == ["ReefCount", "KelpSet"]


def test_a_single_name_before_a_data_word_is_no_list() -> None:
    us = units("We use the ReefCount and other public corpora.", "KelpSet is small.")
    assert listed_beside([read("ReefCount", us[0])], us) == []
