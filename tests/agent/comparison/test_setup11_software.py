"""Programs the eleventh setup helper reads (agent/comparison/settings/setup_software.py), on
sentences the tests write: a tool "adopted" or "employed" is used, and a kind of model named by
what it is built on ("an LSTM-based tagger") is no program."""

from __future__ import annotations

import pytest

from tests.agent.comparison.test_setup_software import read


@pytest.mark.parametrize(
    "sentence,expected",
    [
        ("We adopted the spaCy sentence splitter to cut every review into sentences.", "spaCy"),
        ("Stanford CoreNLP tokenizer was employed for splitting the forum posts into tokens.",
         "Stanford CoreNLP"),
    ],
)  # fmt: skip
def test_a_tool_adopted_or_employed_is_software(sentence: str, expected: str) -> None:
    assert expected in read("software", sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "We employ a small GRU-based tagger to predict the case of every noun BIBREF4 .",
        # a name without a verb of use stays unread
        "The spaCy sentence splitter is popular for product reviews.",
    ],
)  # fmt: skip
def test_no_program_from_a_model_kind_or_a_mention(sentence: str) -> None:
    assert read("software", sentence) == []
