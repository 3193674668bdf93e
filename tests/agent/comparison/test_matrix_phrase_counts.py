"""Free-phrase counts of the seventh session (agent/comparison/aspect_readers/
matrix_phrase_numbers.py) on sentences the tests write: a count says how many things the
paper's own work has, so a count that picks one thing of its kind, makes a compound of
another word or counts a selection is no count of the phrase."""

from __future__ import annotations

import pytest

from tests.agent.comparison.test_matrix_phrases import best


@pytest.mark.parametrize(
    "phrase,sentence",
    [
        # a count of one after a preposition or a copula picks one thing of its kind
        ("number of languages", "The tagger maps a field note in one language to another."),
        ("number of topics", "Each outcrop report stays on a single topic."),
        ("number of documents", "A surveyor's log is a single document of notes."),
        # a count joined to another word by a hyphen makes a compound of that word
        ("number of features", "We add 4d one-hot rock-type features to every token."),
        ("number of topics", "We sampled notes from ten-trending topics of the survey."),
        # a count after "between" names the members of a relation: any two
        ("number of sentences", "The tagger scores the similarity between two sentences."),
    ],
)  # fmt: skip
def test_a_count_that_counts_nothing_of_the_papers_is_no_count(phrase: str, sentence: str
                                                              ) -> None:  # fmt: skip
    assert best(phrase, sentence) is None


@pytest.mark.parametrize(
    "phrase,sentence",
    [
        # the ninth session's gate: a count of one or two written out before the noun picks a
        # thing or a pair, even where the paper says it of its own work (a network's layers,
        # heads or units are its size instead: test_matrix_phrase_kinds.py)
        ("number of parameters", "There is only one parameter to tune in the tagger."),
        ("number of sentences", "The tagger then merges the two sentences of each note."),
    ],
)  # fmt: skip
def test_a_written_count_of_one_or_two_fills_no_count_cell(phrase: str, sentence: str
                                                          ) -> None:  # fmt: skip
    assert best(phrase, sentence) is None


@pytest.mark.parametrize(
    "phrase,sentence,expected",
    [
        # linked to the whole phrase, a count of one or two is the paper's own statement
        ("number of layers", "In the slate tagger the number of layers is 1.", "1"),
        ("number of classes", "For our notes the number of classes is 2.", "2"),
        # "between the three ..." names the paper's own set, "between 2 and 9" is a range
        ("number of classes", "Notes fall unevenly between the three rock classes.", "three"),
    ],
)  # fmt: skip
def test_a_count_the_paper_states_of_its_own_stays(phrase: str, sentence: str, expected: str
                                                   ) -> None:  # fmt: skip
    assert best(phrase, sentence) == expected


def test_a_number_of_the_cited_work_a_sentence_describes_is_not_the_papers() -> None:
    cited = "Authors in BIBREF10 collected 1400 field sentences from quarry logs."
    assert best("number of sentences", cited) is None
    # the paper's own setup tied to a cited work keeps its number
    own = "The slate tagger is based on BIBREF10, with 3 recurrent layers over the notes."
    assert best("number of layers", own) == "3"
    used = "Notes are split using the splitter of BIBREF4 into 1200 sentences."
    assert best("number of sentences", used) == "1200"


@pytest.mark.parametrize(
    "sentence",
    [
        "We drop every field note that is shorter than 7 tokens.",
        "Each tagger reads no more than 4,200 tokens per step.",
        "We feed the first 200 tokens of every note to the encoder.",
    ],
)
def test_a_threshold_or_a_selection_is_no_total(sentence: str) -> None:
    assert best("number of tokens", sentence) is None


def test_more_than_a_count_approximates_the_total() -> None:
    sentence = "The quarry corpus holds more than 24K tokens of notes."
    assert best("number of tokens", sentence) == "24K"


def test_a_count_per_item_gives_way_to_the_total() -> None:
    per_note = "Each survey note carries three labels per outcrop in our data."
    total = "Our survey uses 14 labels in all."
    assert best("number of labels", per_note, total) == "14"
    assert best("number of labels", total, per_note) == "14"
    # alone it is still the paper's own count, read as written
    assert best("number of labels", per_note) == "three"
    # "for each of the N" distributes over the paper's own set: no per-item count
    spread = "We drew 40 rock samples for each of the sites."
    assert best("number of samples", spread, "The survey logged 9 samples per site.") == "40"


def test_a_space_groups_thousands_in_a_count() -> None:
    sentence = "The quarry archive holds 48 312 survey notes from three sites."
    assert best("number of notes", sentence) == "48 312"
    # the counts before the counted noun keep their groups whole ("7 500", not "500"), and
    # coordinated they are one list (test_matrix_phrase_kinds.py)
    sizes = "We also release archives of 2 000 and 7 500 notes."
    assert best("number of notes", sizes) == "2 000 and 7 500"


def test_kinds_of_something_else_are_no_count_of_the_papers_classes() -> None:
    kinds = "We designed two classes of taggers for the outcrop notes."
    assert best("number of classes", kinds) is None
    # a determiner after "of": the classes of the paper's own data
    own = "There are four classes of the quarry notes: shale, slate, chalk and flint."
    assert best("number of classes", own) == "four"
    # with the paper's own label set stated too, that is the count
    stated = "Each note is labelled with one of 5 rock classes."
    assert best("number of classes", kinds, stated) == "5"


def test_an_example_or_a_supposition_gives_way_to_the_papers_own_count() -> None:
    example = "For example, a surveyor may compare two notes from one outcrop."
    supposed = "Let a and b be 2 notes of lengths m and n."
    own = "Our quarry archive contains 640 notes."
    assert best("number of notes", example, own) == "640"
    assert best("number of notes", own, supposed) == "640"
    # alone a supposition is still read, as written (it is demoted, not dropped)
    assert best("number of notes", supposed) == "2"


def test_a_kind_that_lists_its_members_gives_the_members() -> None:
    listed = "We tested several rock classifiers, including Random Forest and SlateNet, on notes."
    assert best("rock classifier", listed) == "Random Forest and SlateNet"
    colon = "We compare three rock classifiers: Random Forest, SlateNet and QuarryBERT."
    assert best("rock classifier", colon) == "Random Forest, SlateNet and QuarryBERT"
    # a description after the colon is no list of names
    described = "Baseline with rock classifiers: It is a classical RNN tagger, basic but sound."
    assert best("rock classifier", described) != "It is a classical RNN tagger"
