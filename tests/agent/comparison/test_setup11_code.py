"""Code offered without a link, read to its end (agent/comparison/settings/setup_code.py), on
sentences the tests write: "make ... code ... publicly available" keeps "available"."""

from __future__ import annotations

import pytest

from tests.agent.comparison.test_setup_software import read


@pytest.mark.parametrize(
    "sentence,expected",
    [
        ("To help others, we make all our scripts and annotations publicly available.",
         "publicly available"),
        ("We make the annotated dialogues, as well as our code for scoring them, freely "
         "available online.", "our code for scoring them, freely available online"),
    ],
)  # fmt: skip
def test_code_made_available_is_read_to_available(sentence: str, expected: str) -> None:
    values = read("code availability", sentence)
    assert len(values) == 1 and expected in values[0]


def test_data_alone_made_available_is_no_code() -> None:
    assert read("code availability", "We make the annotated dialogues available to others.") == []
