"""The fitted answer scorer: candidates ranked by its probability, support calibrated from
the drafted answer's signals, one fitted threshold for refusal, on a paper the test writes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from citewise.agent.ask.features import FEATURES, section_role
from citewise.agent.ask.refusal import DEFAULT_POLICY, REFUSALS, support
from citewise.agent.ask.scorer import AnswerScorer, answer_scorer, binned, scorer_in_use
from citewise.api import Library
from citewise.errors import CitewiseError

PAPER = """# Listening to Wrens: Call Classification from Field Recordings

## Abstract

We study how well small neural models tell wren calls apart in noisy field recordings.

## Introduction

Birdsong classification helps ecologists survey populations without trapping birds.
Field recordings are noisy, and calls overlap with wind and insects.

## Data

Our corpus holds 4,812 annotated call segments recorded at nine sites in Wales.
Two ornithologists labelled every segment with one of six call types.

## Model

The classifier is a three-layer convolutional network over mel spectrograms.
It was trained with the Adam optimizer for forty epochs.

## Results

The network reaches 91.4 percent accuracy on the held-out sites.
Errors concentrate on alarm calls recorded in strong wind.

## Conclusion

Small convolutional models are enough to classify wren calls in the field.
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Library, str]]:
    folder = tmp_path_factory.mktemp("wrens")
    (folder / "wrens.md").write_text(PAPER, encoding="utf-8")
    lib = Library(folder / "library")
    assert lib.ingest([folder / "wrens.md"]).failed == []
    doc = lib.documents()[0].id
    yield lib, doc
    lib.close()


# A paper whose one answering sentence is outnumbered by sentences that repeat the
# question's words without stating the answer.
DISTRACTED = """# Measuring Reading Time on Mobile Screens

## Introduction

Reading time on mobile screens matters, and reading time on mobile screens is what
designers of mobile screens care about when they measure reading time.
Measuring reading time on small mobile screens is hard, and reading time varies.

## Study

Participants read twelve news articles on a phone while an eye tracker recorded fixations.
On average, a participant needed 212 seconds to read one article on the phone.

## Discussion

Reading time on mobile screens and reading time on paper differ, as reading time studies show.
"""


@pytest.fixture(scope="module")
def distracted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Library, str]]:
    folder = tmp_path_factory.mktemp("reading")
    (folder / "reading.md").write_text(DISTRACTED, encoding="utf-8")
    lib = Library(folder / "library")
    assert lib.ingest([folder / "reading.md"]).failed == []
    yield lib, lib.documents()[0].id
    lib.close()


def test_the_shipped_weights_are_fitted_for_the_features_computed() -> None:
    scorer = answer_scorer()
    assert scorer.features == FEATURES
    assert 0.0 < scorer.threshold < 1.0
    assert 0.0 < DEFAULT_POLICY.threshold < 1.0


def test_the_stating_sentence_is_chosen_over_one_dense_with_the_questions_words(
    distracted: tuple[Library, str],
) -> None:
    lib, doc = distracted
    answer = lib.ask("How long did one article take people to read on a phone?", [doc])
    assert not answer.refused
    assert "212 seconds" in answer.sentences[0].text
    assert len(answer.answer.split()) <= 80


def test_support_changes_with_the_scorer_in_use(library: tuple[Library, str]) -> None:
    """Support is the fitted calibration of the draft's signals: another calibration gives
    another support for the same answer (a constant would not move)."""
    lib, doc = library
    question = "Which optimizer trained the network?"
    shipped = lib.ask(question, [doc])
    surer = replace(
        answer_scorer(), calibration_bias=answer_scorer().calibration_bias + 2.0, bins=()
    )
    with scorer_in_use(surer):
        again = lib.ask(question, [doc])
    assert again.answer == shipped.answer
    assert again.support_score > shipped.support_score


def test_an_answer_states_what_was_asked_with_support_from_the_scorer(
    library: tuple[Library, str],
) -> None:
    lib, doc = library
    answer = lib.ask("How large is the set of recordings they annotated?", [doc])
    assert not answer.refused
    assert "4,812" in answer.answer
    # the support is the scorer's calibrated probability of these signals, not a constant
    assert answer.support_score == pytest.approx(support(answer.signals), abs=1e-3)
    assert 0.0 < answer.support_score < 1.0
    other = lib.ask("Which optimizer trained the network?", [doc])
    assert "Adam" in other.answer
    assert other.support_score != answer.support_score


def test_an_on_topic_question_the_paper_does_not_answer_is_refused(
    library: tuple[Library, str],
) -> None:
    lib, doc = library
    for question in (
        "How much did the microphones they deployed cost per unit?",
        "What learning rate trained the network?",
    ):
        answer = lib.ask(question, [doc])
        assert answer.refused, (question, answer.answer)
        assert answer.refusal_kind in REFUSALS
        assert answer.evidence  # the closest passages are still shown


def test_the_candidates_are_ordered_by_the_scorers_probability() -> None:
    scorer = answer_scorer()
    rows = np.zeros((2, len(FEATURES)), dtype=np.float32)
    rows[1] = scorer.mean + scorer.scale * np.sign(scorer.weights)  # one step up each feature
    rows[0] = scorer.mean - scorer.scale * np.sign(scorer.weights)
    low, high = scorer.logits(rows)
    assert high > low


def test_section_roles_come_from_the_heading_words() -> None:
    assert section_role("A Paper > Abstract") == "abstract"
    assert section_role("A Paper > Experimental Setup") == "results"
    assert section_role("A Paper > Related Work") == "related"
    assert section_role("A Paper > Wrens") is None


def test_malformed_weights_are_a_clear_error() -> None:
    with pytest.raises(CitewiseError) as caught:
        AnswerScorer.from_dict({"features": ["coverage"]})
    assert caught.value.code == "BAD_SCORER_WEIGHTS"
    good = answer_scorer().to_dict()
    with pytest.raises(CitewiseError):
        AnswerScorer.from_dict({**good, "features": ["coverage"]})
    assert AnswerScorer.from_dict(good).features == FEATURES


def test_weights_refit_by_the_script_round_trip(tmp_path: Path) -> None:
    scorer = answer_scorer()
    again = AnswerScorer.from_dict(scorer.to_dict())
    assert np.allclose(again.weights, scorer.weights, atol=1e-5)
    assert again.threshold == pytest.approx(scorer.threshold)


def test_isotonic_bins_map_raw_support_to_a_line_that_never_falls() -> None:
    bins = ((0.1, 0.1), (0.4, 0.3), (0.8, 0.9))
    assert binned(0.05, bins) == 0.1  # flat below the first bin's middle
    assert binned(0.25, bins) == pytest.approx(0.2)  # halfway between two middles
    assert binned(0.6, bins) == pytest.approx(0.6)
    assert binned(0.95, bins) == 0.9
    assert binned(0.5, ()) == 0.5
    values = [binned(r / 100, bins) for r in range(101)]
    assert all(b >= a - 1e-9 for a, b in zip(values, values[1:], strict=False))
