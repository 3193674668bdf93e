"""Free-phrase readings of the sixth session (agent/comparison/aspect_readers/
matrix_phrase_uses.py, matrix_phrase_numbers.py) on sentences the tests write: a name phrase
read from the paper's own statement of use, a name given before its kind, counts read whole
and only where they count the paper's own things."""

from __future__ import annotations

import pytest

from tests.agent.comparison.test_matrix_phrases import best


@pytest.mark.parametrize(
    "phrase,sentence,expected",
    [
        # the object of the paper's verb of use, from the words that say which one
        ("word embeddings", "For every field note we use the pre-trained ShaleVec word embeddings.",
         "pre-trained ShaleVec word embeddings"),
        # names that share the phrase's head noun are all of them
        ("knowledge base", "We use the QuarryNet, SlateBase and Granite knowledge bases here.",
         "QuarryNet, SlateBase and Granite knowledge bases"),
        # a name given before its kind
        ("topic model", "We propose BasaltLDA, a topic model for outcrop notes.", "BasaltLDA"),
        # "NAME is a/an <kind> X": the name
        ("learning algorithm",
         "ShaleBoost is a gradient-boosted learning algorithm that we picked for the notes.",
         "ShaleBoost"),
        # the last of a list of settings where it has words of its own
        ("character embeddings",
         "We use 512-dimensional GRUs, 64-dimensional character embeddings and a CRF.",
         "64-dimensional character embeddings"),
    ],
)  # fmt: skip
def test_a_name_phrase_is_what_the_paper_says_it_uses(phrase: str, sentence: str, expected: str
                                                      ) -> None:  # fmt: skip
    assert best(phrase, sentence) == expected


@pytest.mark.parametrize(
    "phrase,sentence",
    [
        # the verb's object runs through another clause
        ("word embeddings", "We use ShaleVec to initialise the word embeddings."),
        # nothing but a count or vague words say which one
        ("word embeddings", "We use two different word embeddings."),
        # a linked value that opens with a participle describes, it names nothing
        ("attention mechanism", "The attention mechanism is introduced to weigh the notes."),
        # a caption labels a picture
        ("attention mechanism", "Figure 3: Gated attention mechanism over the field notes."),
        # a verb is no name: after "to", or a gerund after a preposition
        ("knowledge base", "The tagger needs extra steps to query knowledge bases of rocks."),
        ("knowledge base", "Table 2 compares three methods for embedding knowledge bases."),
        # a title-cased mention inside a longer name is not named by it
        ("knowledge base", "The survey reports on Automated Knowledge Base Construction."),
        # a kind named after a citation, in a sentence that says nothing of the paper's own
        ("attention mechanism", "The tagger of BIBREF4 is based on a gated attention mechanism."),
        # a linked subject that joins the phrase to another noun: said of both
        ("target language", "The source and target languages are all unseen in training."),
        ("character embeddings", "The sizes of word and character embeddings are 300 and 50."),
    ],
)  # fmt: skip
def test_sentences_that_name_no_choice_give_nothing(phrase: str, sentence: str) -> None:
    assert best(phrase, sentence) is None


def test_a_subject_that_names_nothing_is_no_name() -> None:
    sentence = "This model is a supervised learning algorithm."
    assert best("learning algorithm", sentence, section="1 Introduction") is None


def test_the_papers_use_of_a_cited_thing_wins_over_its_definition() -> None:
    definition = "GraniteNet is a knowledge base of rock names and their relations."
    use = "In this work, we use the GraniteNet BIBREF3 and SlateBase BIBREF4 knowledge bases."
    assert (
        best("knowledge base", definition, use)
        == "GraniteNet BIBREF3 and SlateBase BIBREF4 knowledge bases"
    )


@pytest.mark.parametrize(
    "phrase,sentence,expected",
    [
        # a thousands separator is part of the count
        ("number of training examples", "The quarry set holds 12,480 training examples.",
         "12,480"),
        # a power of ten written out is part of the count
        ("number of sentences", "The outcrop corpus holds 3 million sentences of notes.",
         "3 million"),
        # where the bare count first stands inside another word ("attention"), the cell names
        # what it counts
        ("number of layers", "The attention network stacks ten recurrent layers.",
         "ten recurrent layers"),
    ],
)  # fmt: skip
def test_a_count_is_read_whole(phrase: str, sentence: str, expected: str) -> None:
    assert best(phrase, sentence) == expected


def test_a_count_of_a_noun_that_names_a_kind_of_another_is_no_count() -> None:
    assert best("number of languages", "Each note is tagged by one language model.") is None


def test_a_count_where_the_paper_frames_its_field_needs_its_own_statement() -> None:
    world = "More than 7000 languages are spoken across the continents."
    own = "We annotate field notes in 12 languages."
    assert best("number of languages", world, section="1 Introduction") is None
    assert best("number of languages", own, section="1 Introduction") == "12"


def test_a_count_of_one_gives_way_to_another_count() -> None:
    one = "Each outcrop is described in one language by its surveyor."
    many = "The notes cover 9 languages of the survey region."
    assert best("number of languages", one, many) == "9"


@pytest.mark.parametrize(
    "sentence",
    [
        "Each tagger is trained with a batch size of 32 sentences.",
        "The summary keeps the top 3 sentences of every field note.",
        "On average, each survey holds 40 sentences.",
        "Every field note is truncated to 400 tokens before tagging.",
        "The batch size is set to be 2048 tokens.",
    ],
)
def test_a_count_that_is_a_setting_a_bound_or_an_average_is_no_total(sentence: str) -> None:
    assert best("number of sentences", sentence) is None
    assert best("number of tokens", sentence) is None


@pytest.mark.parametrize(
    "phrase,sentence,expected",
    [
        # the name given right after its kind, with no comma or bracket
        ("tagging model", "We train the sequence tagging model RockTag on the notes.", "RockTag"),
        ("core encoder", "Notes pass through the core encoder StrataNet2 and a softmax.",
         "StrataNet2"),
    ],
)  # fmt: skip
def test_the_name_after_its_kind_is_the_cell(phrase: str, sentence: str, expected: str) -> None:
    assert best(phrase, sentence) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        # inside a longer capitalised name, or the kind's own initials
        "We compare to the Auxiliary Tagging Model GAN on the notes.",
        "We train a tagging model TM on the notes.",
    ],
)
def test_a_name_after_its_kind_that_is_part_of_a_name_or_initials_is_not_read(
    sentence: str,
) -> None:
    assert best("tagging model", sentence) not in {"GAN", "TM"}
