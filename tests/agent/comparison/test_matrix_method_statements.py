"""The method cell on papers whose proposal is in general words
(agent/comparison/aspect_readers/method_statements.py): a proposal that names only a kind of
thing and its purpose gives way to the next sentence stating the means; a proposal that says
how it works, or one no means statement follows, stays the cell; a proposal after an adverb or
a first verb is read; a title naming "background" does not make the abstract related work."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.comparison.aspect_readers.matrix_cells import in_sections
from citewise.agent.comparison.aspect_readers.method_statements import in_general_words
from tests.agent.comparison.test_matrix_cells import cells, ingest

GENERAL_THEN_MEANS = """# Counting Cars on Rural Roads

## Abstract

Traffic counts on small roads are rarely taken. In this paper we present a system that can \
count vehicles passing a village crossing. We combine a motion detector with a small \
convolutional classifier that labels each moving blob as car, bicycle or tractor. On four \
weeks of footage it is within 5% of a manual count.

## Introduction

Councils plan repairs without knowing how many cars use a road.

## Experiments

We recorded four weeks at two crossings.
"""

GENERAL_ONLY = """# Counting Cars on Rural Roads

## Abstract

Traffic counts on small roads are rarely taken. In this paper we present a system that can \
count vehicles passing a village crossing. The counts are shared with the council every week. \
On four weeks of footage it is within 5% of a manual count.

## Experiments

We recorded four weeks at two crossings.
"""


def test_a_proposal_in_general_words_gives_way_to_the_means_stated_next(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"cars": GENERAL_THEN_MEANS})
    value = str(cells(lib, ids["cars"], "method")["method"]["value"])
    assert "motion detector" in value
    assert "can count vehicles" not in value


def test_a_proposal_in_general_words_stays_where_no_means_follow(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"cars": GENERAL_ONLY})
    value = str(cells(lib, ids["cars"], "method")["method"]["value"])
    assert value.startswith("a system that can count vehicles")


def test_what_counts_as_general_words() -> None:
    assert in_general_words("a system that can count vehicles passing a crossing")
    assert in_general_words("simple yet effective methods to improve word-by-word translation")
    assert in_general_words("our submission for the shared task on rumour detection")
    assert in_general_words("an extension, which measures how often two people co-occur")
    # how it works, a coined name, or what it rests on: not general
    assert not in_general_words("an approach based on attention over the sentence's words")
    assert not in_general_words("a model that uses a parser's trees as features")
    assert not in_general_words("a graph-based approach to rank keyphrases")
    assert not in_general_words("a BiGRU model for tagging")
    assert not in_general_words("a recogniser (VarRec) with a latent variable")
    assert not in_general_words("a new approach which treats the task as reading comprehension")
    assert not in_general_words("a curve tracer guided by a digit recogniser")


AFTER_A_FIRST_VERB = """# Reading Meter Dials From Phone Photos

## Abstract

Utilities still read water meters by hand. We gather 2,000 phone photos of dials from three \
towns, and develop a digit reader with a rotation-invariant encoder and a counting decoder. \
It reads 94% of dials exactly.

## Experiments

The photos were split by town.
"""


def test_a_proposal_after_a_first_verb_fills_the_method_cell(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"meters": AFTER_A_FIRST_VERB})
    value = str(cells(lib, ids["meters"], "method")["method"]["value"])
    assert value.startswith("a digit reader with a rotation-invariant encoder")


def test_a_sequel_proposing_an_evaluation_is_not_the_method(tmp_path: Path) -> None:
    paper = AFTER_A_FIRST_VERB.replace(
        "and develop a digit reader with a rotation-invariant encoder and a counting decoder",
        "and then present results of three existing readers",
    )
    lib, ids = ingest(tmp_path, {"meters": paper})
    cell = cells(lib, ids["meters"], "method")["method"]
    assert "results of three" not in str(cell["value"])


TITLE_WITH_BACKGROUND = """# GridRank: Ranking Keyphrases With Background Knowledge From Wikis

## Abstract

In this paper, we propose GridRank, an unsupervised method that ranks keyphrases by their \
links to encyclopedia articles. GridRank improves F1 by 3 points over TextRank.

## Background

Earlier rankers (Mihalcea and Tarau, 2004) use word co-occurrence only.

## Experiments

We test GridRank on 500 news articles.
"""


def test_a_title_naming_background_is_not_a_section_about_others(tmp_path: Path) -> None:
    # the abstract's path opens at the title; a word of it is no related-work heading
    lib, ids = ingest(tmp_path, {"grid": TITLE_WITH_BACKGROUND})
    value = str(cells(lib, ids["grid"], "method")["method"]["value"])
    assert value.startswith("GridRank, an unsupervised method that ranks keyphrases")
    assert in_sections("Background > Earlier rankers", "others_sections")


STUDY = """# How Much Do Spell Checkers Help Learners?

## Abstract

Learners of German make many spelling errors. In this work we conduct a controlled study of \
three spell checkers with 120 learners writing short essays. Learners using a checker make 30% \
fewer errors.

## Results

The errors fell most for compound nouns.
"""

BY_MEANS = """# Finding Sarcasm in Product Reviews

## Abstract

Sarcastic reviews mislead rating systems. In this paper, we detect sarcastic reviews by \
contrasting the star rating with the sentiment of the review's last sentence. It finds 71% of \
sarcastic reviews.

## Experiments

We annotated 3,000 reviews.
"""


def test_a_study_states_its_method_as_the_study_it_conducts(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"spell": STUDY})
    value = str(cells(lib, ids["spell"], "method")["method"]["value"])
    assert value.startswith("a controlled study of three spell checkers")


def test_the_means_a_sentence_gives_with_by_fills_an_otherwise_empty_cell(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"sarcasm": BY_MEANS})
    value = str(cells(lib, ids["sarcasm"], "method")["method"]["value"])
    assert "by contrasting the star rating with the sentiment" in value


SHARED_TASK = """# Team Heron at the Bird Call Challenge

## Abstract

This paper describes our participation in the bird call challenge to name the species singing \
in a field recording. We tackled the problem using a gradient-boosted tree over mel-spectrogram \
statistics and a small recurrent network. We ranked third of twelve teams.

## Experiments

The recordings come from three forests.
"""


def test_a_participation_gives_way_to_how_the_problem_was_tackled(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"heron": SHARED_TASK})
    value = str(cells(lib, ids["heron"], "method")["method"]["value"])
    assert "gradient-boosted tree" in value
    assert in_general_words("our participation in the bird call challenge to name the species")
    assert not in_general_words("the approach of introducing a thesaurus into topic models")


REVIEW = """# Open Questions in Wildlife Camera Trapping

## Abstract

Camera traps produce millions of photographs a year. In this paper, we review the ways \
ecologists label, store and share trap photographs, and the biases each brings.

## Labelling

Volunteers label most photographs.
"""


def test_a_review_states_what_it_reviews_as_its_method(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"traps": REVIEW})
    value = str(cells(lib, ids["traps"], "method")["method"]["value"])
    assert value.startswith("review the ways ecologists label, store and share")
