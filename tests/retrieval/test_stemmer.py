"""The light stemmer (retrieval/terms.stem): a word and its regular inflections meet, so a
question's "approve" finds a paper's "approved"; different words stay apart."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.api import Library
from citewise.retrieval.terms import stem
from tests.agent.ask.test_answers_that_generalize import FILLER, paper_library

# Each line: a base word and its regular inflections (-s/-es/-ies, -ed/-ied, -ing), with
# the spelling changes English makes (a dropped e, a doubled consonant, y -> i).
INFLECTIONS = [
    "approve approves approved approving",
    "study studies studied studying",
    "apply applies applied applying",
    "stop stops stopped stopping",
    "plan plans planned planning",
    "embed embeds embedded embedding embeddings",
    "label labels labeled labelled labeling",
    "agree agrees agreed agreeing",
    "exceed exceeds exceeded exceeding",
    "continue continues continued continuing",
    "value values valued valuing",
    "title titles titled",
    "cache caches cached caching",
    "match matches matched matching",
    "box boxes boxed",
    "process processes processed processing",
    "need needs needed needing",
    "train trains trained training",
    "finding findings",
    "hundred hundreds",
    "percentage percentages",
    "hero heroes",
    "movie movies",
]


@pytest.mark.parametrize("forms", INFLECTIONS)
def test_a_word_and_its_regular_inflections_share_one_stem(forms: str) -> None:
    words = forms.split()
    assert {stem(w) for w in words} == {stem(words[0])}, {w: stem(w) for w in words}


def test_words_that_only_look_inflected_keep_their_endings() -> None:
    # a base ending in -ss, -us, -is, -ing without a vowel before it, or -eed after a
    # consonant is not an inflection
    for word in ("class", "corpus", "analysis", "string", "need", "speed", "call"):
        assert stem(word) in (word, word.rstrip("e")), word
    assert stem("analyses") == "analysis"
    # different words stay apart
    assert stem("rmse") != stem("rms")
    assert stem("string") != stem("strong")


@pytest.fixture(scope="module")
def protocol(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    pages = [
        ["The field protocol was reviewed by the quarry safety board in May 2018.", FILLER],
        [FILLER, "The regional ethics board approved the field protocol in March 2019."],
    ]
    title = "Field Trials of Acoustic Probes"
    with paper_library(tmp_path_factory, "protocol.pdf", title, pages) as lib:
        yield lib


def test_a_question_in_one_inflection_finds_the_sentence_in_another(protocol: Library) -> None:
    answer = protocol.ask("When did the board approve the field protocol?")
    assert not answer.refused and "March 2019" in answer.answer
    assert "May 2018" not in answer.answer
    studied = protocol.ask("Which board approves field protocols?")
    assert not studied.refused and "ethics board approved" in studied.answer
