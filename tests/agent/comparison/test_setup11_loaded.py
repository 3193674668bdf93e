"""Pre-trained releases the eleventh setup helper reads (agent/comparison/settings/
setup_loaded.py), on sentences the tests write: a release right after "pre-trained" is the
paper's own even without "we", and a sentence's capital "Pre-trained" starts no longer name."""

from __future__ import annotations

import pytest

from tests.agent.comparison.test_setup_software import read


@pytest.mark.parametrize(
    "sentence,expected",
    [
        ("Pre-trained GloVe vectors BIBREF7 of size 100 are used to embed every review token.",
         "GloVe"),
        ("Each token is mapped to a 200-dimensional vector obtained by pre-trained word2vec "
         "model BIBREF11 before the encoder.", "word2vec"),
    ],
)  # fmt: skip
def test_a_release_after_pre_trained_is_loaded(sentence: str, expected: str) -> None:
    assert read("software", sentence) == [expected]


@pytest.mark.parametrize(
    "sentence",
    [
        # no "pre-trained" right before the name, no "we", no passive use: a remark
        "Each token is mapped to a vector close to its word2vec neighbours in the review space.",
        # a longer name whose first word is no use word
        "Tokens are mapped to vectors obtained by Audio Word2Vec models BIBREF2 elsewhere.",
    ],
)  # fmt: skip
def test_no_release_without_an_own_use(sentence: str) -> None:
    assert read("software", sentence) == []


def test_pre_trained_in_related_work_is_not_the_papers_own() -> None:
    sentence = "Pre-trained GloVe vectors are used by most review classifiers BIBREF3 ."
    assert read("software", sentence, section="2 Related Work") == []
