"""Free-phrase readings (agent/comparison/aspect_readers/matrix_phrases.py,
matrix_phrase_numbers.py) on
sentences the tests write: counts before the thing counted, measures as numbers, names the
paper uses over definitions and background, no number a sentence credits to cited work."""

from __future__ import annotations

import pytest

from citewise.agent.comparison.aspect_readers.phrases.columns import (
    asks_for_number,
    phrase_findings,
)
from citewise.agent.comparison.extraction import Unit


def best(phrase: str, *sentences: str, section: str = "4 Model") -> str | None:
    """The value of the best-scored reading over the sentences, or None."""
    units = [Unit(t, f"b-{n}", 2, section, "paragraph", n) for n, t in enumerate(sentences)]
    found = phrase_findings(phrase, units)
    assert all(f.value in f.quote for f in found)
    return max(found, key=lambda f: f.score).value if found else None


@pytest.mark.parametrize(
    "phrase,sentence,expected",
    [
        # a count is the number written before the plural thing counted
        ("number of layers", "The quarry tagger stacks 3 convolutional layers of 64 units.", "3"),
        # ... spelled out, or as a compound ("a 4-layer encoder")
        ("number of annotators", "Each slate sample was labelled by three geology annotators.",
         "three"),
        ("number of layers", "We adopt a 4-layer encoder for the basalt notes.", "4"),
        ("number of folds", "All taggers are scored by 5-fold cross-validation.", "5"),
        ("number of parameters", "The slate tagger has 110M parameters in all.", "110M"),
        # a measure asks for its measured value, through a symbol if there is one
        ("inter-rater agreement", "On the basalt notes, inter-rater agreement was κ = 0.81.",
         "0.81"),
        # a name the phrase is given right after it, not the phrase's own initials
        ("sentence encoder", "A sentence encoder (QuarryBERT) reads each field note.",
         "QuarryBERT"),
        ("sentence encoder", "The granite sentence encoder (GSE) reads one note at a time.",
         "granite sentence encoder"),
        # "pretrained" and "pre-trained" are one word
        ("pretrained encoder", "We fine-tune a pre-trained encoder, ShaleNet, on the notes.",
         "ShaleNet"),
    ],
)  # fmt: skip
def test_a_phrase_is_read_as_the_paper_states_it(phrase: str, sentence: str, expected: str
                                                 ) -> None:  # fmt: skip
    assert best(phrase, sentence) == expected


@pytest.mark.parametrize(
    "phrase,sentence",
    [
        # a number after the counted noun alone is its size or index, not a count
        ("number of layers", "The hidden layer of the tagger has 256 units."),
        ("number of layers", "Figure 2 shows the attention weights of layer 5."),
        # a number before a singular noun is a size
        ("number of layers", "The decoder is a 512-dimensional recurrent layer."),
        # a multiplier counts nothing
        ("number of folds", "Our contribution is two-fold: a tagger and a corpus."),
        ("number of parameters", "The slate tagger has 13 times fewer parameters than ours."),
        # a name phrase is a compound: "base model" is not a "based model"
        ("base model", "We train a rule-based model on the notes."),
        # a number the sentence credits to a cited work
        ("inter-rater agreement", "BIBREF7 report an inter-rater agreement of 0.62 on shale."),
        # ... or a name it credits to one
        ("sentence encoder", "Ruiz et al. propose a shale sentence encoder for field notes."),
        # a linked clause says something about the thing, not which one
        ("sentence encoder", "A drawback of the sentence encoder is that it reads notes twice."),
        # a generic definition of the thing, not the paper's choice
        ("sentence encoder", "A sentence encoder is a network that maps a sentence to a vector."),
        # a predicate says what the thing is like, not which one
        ("sentence encoder", "The sentence encoder is also sensitive to the note length."),
    ],
)  # fmt: skip
def test_sentences_that_state_no_choice_of_the_paper_give_nothing(phrase: str, sentence: str
                                                                  ) -> None:  # fmt: skip
    assert best(phrase, sentence) is None


def test_the_papers_own_use_wins_over_a_kind_named_in_passing() -> None:
    background = "Deep sentence encoders such as those of earlier basalt studies are popular."
    own = "We use a bidirectional GRU sentence encoder for every field note."
    assert best("sentence encoder", background, own) == "bidirectional GRU sentence encoder"


def test_a_kind_named_in_passing_in_an_introduction_is_not_the_papers_choice() -> None:
    sentence = "A contextual sentence encoder changed how rock descriptions are compared."
    assert best("sentence encoder", sentence, section="1 Introduction") is None
    assert best("sentence encoder", sentence, section="3 Model") == "contextual sentence encoder"


def test_a_measure_phrase_asks_for_a_number() -> None:
    assert asks_for_number("inter-rater agreement") and asks_for_number("number of layers")
    assert not asks_for_number("sentence encoder")
