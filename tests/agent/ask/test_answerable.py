"""Whether the paper states what is asked (agent/ask/answerable.py): a focus term with a filler
of the asked type near it, the paper's own statement or another's; the fitted probability
and its threshold refuse with their kind; the support's calibration (agent/ask/calibration.py)
loads with numpy and follows the scorer — on papers these tests write."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from citewise.agent.ask.answerable import (
    PAPER_BLOCKS,
    STATED,
    STATED_CITED,
    UNWRITTEN,
    AnswerableModel,
    answerable_in_use,
    shipped_model,
)
from citewise.agent.ask.calibration import (
    SupportCalibration,
    calibrated,
    shipped_calibration,
    wilson_lower,
)
from citewise.agent.ask.refusal import NOT_ANSWERED
from citewise.api import Library
from citewise.errors import CitewiseError

PAPER = """# Grading Apples by Skin Colour

## Abstract

We grade apples from photographs of their skin taken on a packing line.

## Data

The photographs come from three orchards in the north of the valley.
Each apple was graded by a packer as first class, second class or juice.
{extra}
## Model

A small convolutional network reads each photograph and predicts the grade.
The network was trained on the photographs of two orchards and tested on the third.

## Results

The network grades most apples the way the packers did.
Errors mostly confuse first class with second class apples.
"""
COUNT = "The packers graded 9,120 apples in all, one photograph each.\n"
ASKED = "How many apples were graded by the packers?"


def _library(folder: Path, extra: str) -> Library:
    folder.mkdir()
    (folder / "apples.md").write_text(PAPER.format(extra=extra), encoding="utf-8")
    lib = Library(folder / "library", embeddings=False)
    assert lib.ingest([folder / "apples.md"]).failed == []
    return lib


@pytest.fixture(scope="module")
def papers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Library, Library]]:
    """The same paper without and with the sentence that states the count."""
    root = tmp_path_factory.mktemp("apples")
    silent, stating = _library(root / "silent", ""), _library(root / "stating", COUNT)
    yield silent, stating
    silent.close()
    stating.close()


def _ask(lib: Library, question: str = ASKED) -> object:
    return lib.ask(question, [lib.documents()[0].id])


def _on_stated(threshold: float) -> AnswerableModel:
    """A model reading only `stated`: P = sigmoid(6 * stated - 3)."""
    one = np.ones(1)
    return AnswerableModel((STATED,), np.zeros(1), one, 6 * one, -3.0, threshold)


def test_a_paper_about_the_topic_that_never_states_the_count_states_nothing(
    papers: tuple[Library, Library],
) -> None:
    silent, stating = papers
    never, said = _ask(silent), _ask(stating)
    # every term of the question is written in both papers, so coverage cannot tell them apart
    assert never.signals[UNWRITTEN] == said.signals[UNWRITTEN] == 0.0  # type: ignore[attr-defined]
    assert never.signals[STATED] == 0.0 < said.signals[STATED]  # type: ignore[attr-defined]
    assert "9,120" in said.answer  # type: ignore[attr-defined]
    model = shipped_model()
    assert model.probability(never.signals) < model.probability(said.signals)  # type: ignore[attr-defined]


def test_below_the_fitted_threshold_the_question_is_refused_as_not_answered(
    papers: tuple[Library, Library],
) -> None:
    silent, stating = papers
    with answerable_in_use(_on_stated(0.5)):
        never, said = _ask(silent), _ask(stating)
    assert never.refused and never.refusal_kind == NOT_ANSWERED  # type: ignore[attr-defined]
    assert not said.refused and "9,120" in said.answer  # type: ignore[attr-defined]
    with answerable_in_use(None):  # no refusal by answerability: the draft is given
        assert not _ask(silent).refused  # type: ignore[attr-defined]


def test_a_term_the_paper_never_writes_counts_in_unwritten(
    papers: tuple[Library, Library],
) -> None:
    silent, _ = papers
    answer = _ask(silent, "How many GPUs were used to grade the apples?")
    assert answer.signals.get(UNWRITTEN, 1.0) > 0.0  # type: ignore[attr-defined]


def test_a_sentence_that_cites_others_states_their_work_not_the_paper_s(tmp_path: Path) -> None:
    cited = "Earlier graders [4] sorted 5,300 apples by hand in one season.\n"
    with _library(tmp_path / "cited", cited) as lib:
        answer = _ask(lib, "How many apples were sorted by hand?")
    assert answer.signals[STATED_CITED] > 0.0 == answer.signals[STATED]  # type: ignore[attr-defined]
    assert answer.signals[PAPER_BLOCKS] > 0.0  # type: ignore[attr-defined]


def test_a_which_question_wants_a_name_the_question_does_not_write(tmp_path: Path) -> None:
    named = "The photographs were taken at the Hollins and Marbury orchards.\n"
    with _library(tmp_path / "named", named) as lib:
        answer = _ask(lib, "Which orchards were the photographs taken at?")
    with _library(tmp_path / "unnamed", "") as lib:
        unnamed = _ask(lib, "Which orchards were the photographs taken at?")
    assert answer.signals[STATED] > 0.0 == unnamed.signals.get(STATED, 0.0)  # type: ignore[attr-defined]


def test_the_weights_and_the_calibration_load_with_numpy() -> None:
    model, calibration = shipped_model(), shipped_calibration()
    assert isinstance(model.weights, np.ndarray) and len(model.weights) == len(model.signals)
    assert len(calibration.weights) == len(calibration.signals) + 1
    values = [value for _, value in calibration.bins]
    assert values == sorted(values) and all(0.0 <= v <= 1.0 for v in values)
    text = resources.files("citewise.agent").joinpath("data", "answerable.json").read_text()
    assert np.allclose(AnswerableModel.from_dict(json.loads(text)).weights, model.weights)


@pytest.mark.parametrize("kind", [AnswerableModel, SupportCalibration])
def test_malformed_weights_are_a_clear_error(kind: type) -> None:
    with pytest.raises(CitewiseError) as raised:
        kind.from_dict({"signals": ["stated"], "mean": [0.0]})
    assert raised.value.code in ("BAD_ANSWERABLE_WEIGHTS", "BAD_SUPPORT_CALIBRATION")
    good = {"signals": ["a"], "mean": [0.0], "scale": [1.0], "weights": [1.0], "bias": 0.0,
            "threshold": 0.5, "bins": []}  # fmt: skip
    with pytest.raises(CitewiseError):  # a calibration has one more input than signals
        SupportCalibration.from_dict(good)


def test_support_follows_the_scorer_and_a_bin_is_valued_at_its_lower_bound() -> None:
    signals = {PAPER_BLOCKS: 4.0}
    supports = [calibrated(p, signals) for p in (0.2, 0.5, 0.8, 0.95)]
    assert supports == sorted(supports) and supports[0] < supports[-1]
    # the same share right is a surer support over more answers
    assert wilson_lower(9, 10) < wilson_lower(90, 100) < 0.9
    flat = replace(shipped_calibration(), bins=())
    assert flat.support(0.9, signals) > flat.support(0.3, signals)
