"""One fitted threshold on the calibrated support decides refusal, with its kind; the draft
carries whether the paper answers what was asked (agent/ask/asked.py); no shape gives
a constant support — on papers these tests write."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import citewise
from citewise.agent.ask.asked import CLOSEST, RAREST
from citewise.agent.ask.refusal import (
    DEFAULT_POLICY,
    NOT_ANSWERED,
    NOT_IN_LIBRARY,
    RefusalPolicy,
    decide,
    support,
)
from citewise.agent.ask.scorer import answer_scorer, scorer_in_use
from citewise.agent.comparison.compare import Cell, Comparison
from citewise.agent.comparison.compare_answer import comparative_answer
from citewise.agent.comparison.extraction import Finding
from citewise.api import Library

PAPER = """# Sorting Beetles by Wing Pattern

## Abstract

We classify ground beetles from measurements of their wing cases.

## Data

The collection holds 2,340 pinned specimens from four museums.
Each specimen was labelled by an entomologist with one of eleven species.

## Model

A small residual network reads forty measurements of each specimen.
It was trained with stochastic gradient descent for sixty epochs.

## Results

The network names the right species for 87.2 percent of the test specimens.
Most mistakes confuse two species with nearly identical wing stripes.
"""


@pytest.fixture(scope="module")
def beetles(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Library, str]]:
    folder = tmp_path_factory.mktemp("beetles")
    (folder / "beetles.md").write_text(PAPER, encoding="utf-8")
    lib = Library(folder / "library")
    assert lib.ingest([folder / "beetles.md"]).failed == []
    yield lib, lib.documents()[0].id
    lib.close()


def _sure(bias: float) -> object:
    """The shipped scorer with its calibration moved by `bias` and no bins."""
    scorer = answer_scorer()
    return replace(scorer, calibration_bias=scorer.calibration_bias + bias, bins=())


SIGNALS = {"drafted": 1.0, "logit": -1.0, "margin": 0.1, "attribute": 1.0, "about": 0.8,
           "type_fit": 1.0, "table": 0.0, "in_scope": 1.0, CLOSEST: 0.6, RAREST: 2.0}  # fmt: skip


def test_the_one_fitted_support_threshold_decides_when_asked_to() -> None:
    value = answer_scorer().support(SIGNALS)  # the scale the threshold was fitted on
    by_support = RefusalPolicy(by_support=True)
    with scorer_in_use(replace(answer_scorer(), threshold=value + 0.01)):
        assert decide(SIGNALS, by_support) == NOT_ANSWERED
    with scorer_in_use(replace(answer_scorer(), threshold=value - 0.01)):
        assert decide(SIGNALS, by_support) is None
    # the default decides by the answered share, whatever the support's threshold
    covered = {**SIGNALS, "coverage": 0.9}
    with scorer_in_use(replace(answer_scorer(), threshold=1.0)):
        assert decide(covered, DEFAULT_POLICY) is None
        assert decide({**SIGNALS, "coverage": 0.1}, DEFAULT_POLICY) == NOT_ANSWERED


def test_a_refusal_s_kind_says_whether_the_library_is_about_the_question() -> None:
    high = RefusalPolicy(threshold=1.0)
    assert decide({**SIGNALS, "about": 0.9}, high) == NOT_ANSWERED
    assert decide({**SIGNALS, "about": 0.05}, high) == NOT_IN_LIBRARY
    assert decide({"drafted": 0.0, "about": 0.9}, RefusalPolicy(threshold=0.0)) == NOT_ANSWERED


def test_support_rises_with_what_the_calibration_learned_not_a_constant() -> None:
    lower = support(SIGNALS)
    with scorer_in_use(_sure(2.0)):  # type: ignore[arg-type]
        assert support(SIGNALS) > lower
    assert support({"drafted": 0.0}) == 0.0


def test_a_draft_says_whether_the_paper_writes_what_was_asked(
    beetles: tuple[Library, str],
) -> None:
    lib, doc = beetles
    stated = lib.ask("How many specimens does the collection hold?", [doc])
    assert not stated.refused and "2,340" in stated.answer
    never = lib.ask("How many GPUs trained the residual network?", [doc])
    # "GPUs" is written nowhere in the paper: its rarest term has no block
    assert never.signals[RAREST] == 0.0 < stated.signals[RAREST]
    assert 0.0 < stated.signals[CLOSEST] <= 1.0


def test_an_on_topic_question_the_paper_never_answers_is_refused(
    beetles: tuple[Library, str],
) -> None:
    lib, doc = beetles
    stated = lib.ask("How many specimens does the collection hold?", [doc])
    for question in (
        "How many GPUs trained the residual network?",
        "Which programming language was the network written in?",
    ):
        answer = lib.ask(question, [doc])
        assert answer.refused and answer.refusal_kind in (NOT_ANSWERED, NOT_IN_LIBRARY)
        assert answer.support_score < stated.support_score


def test_a_comparison_s_support_is_the_share_of_asked_cells_a_paper_states() -> None:
    found = Finding("optimizer", "Adam", "We train with Adam.", 1, "b1", "Method", 2.0)
    cells = (Cell("a", "optimizer", found), Cell("b", "optimizer", None))
    comparison = Comparison((("a", "A"), ("b", "B")), ("optimizer",), cells, ())
    answer = comparative_answer("Compare the optimizers", comparison, lambda _: None, list)
    assert not answer.refused and answer.support_score == 0.5
    assert all(s.support == 0.5 for s in answer.sentences)


def test_without_an_embedding_model_closeness_is_not_measured(tmp_path: Path) -> None:
    """A library ingested without embeddings gives no `closest` (the calibration reads its
    mean), so its answers are not marked down for a similarity nobody computed."""
    (tmp_path / "beetles.md").write_text(PAPER, encoding="utf-8")
    with Library(tmp_path / "lib", embeddings=False) as lib:
        lib.ingest([tmp_path / "beetles.md"])
        answer = lib.ask("How many specimens does the collection hold?", [lib.documents()[0].id])
    assert not answer.refused and "2,340" in answer.answer
    assert CLOSEST not in answer.signals and RAREST in answer.signals


# A support written as a number other than 0 (a refusal's) in code that answers questions:
# `support = 1.0`, `support_score=0.9`, `support: float = 0.5`, `{STATED_SUPPORT: 1.0}`.
_CONSTANT_SUPPORT = re.compile(
    r"\b(?:support|support_score|stated_support|STATED_SUPPORT|LABEL_MATCH)\b\s*"
    r"(?::\s*float\s*)?[:=]\s*(\d+(?:\.\d*)?)"
)
# research/ writes report claims, not answers to a question (their `support` is a claim's).
_ANSWERING = ("ask", "sentences", "numeric", "comparison", "yesno", "packs", "generation")


def test_no_code_that_answers_sets_a_support_to_a_constant() -> None:
    root = Path(citewise.__file__).parent
    files = [p for part in _ANSWERING for p in (root / "agent" / part).rglob("*.py")]
    files += list((root / "api").rglob("*.py"))
    found = [
        f"{path.relative_to(root)}:{n}: {line.strip()}"
        for path in files
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "==" not in line
        for match in [_CONSTANT_SUPPORT.search(line)]
        if match and float(match.group(1)) != 0.0
    ]
    assert len(files) > 50 and found == []
