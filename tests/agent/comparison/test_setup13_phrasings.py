"""Schedules and warmups a paper states in words (tenth session, setup13): a decay named after
the rate it changes, a warmup given as a share or named without its length."""

from __future__ import annotations

from citewise.agent.comparison.extraction import Finding, Unit, best_distinct, find_in_unit
from citewise.agent.comparison.settings.matrix_settings import settings_findings

SECTION = "4 Training Details"


def read(aspect: str, texts: list[str]) -> list[str]:
    units = [Unit(t, f"b-{n}", 3, SECTION, "paragraph", n) for n, t in enumerate(texts, 1)]
    found: list[Finding] = [f for u in units for f in find_in_unit(aspect, u)]
    kept = best_distinct(settings_findings(aspect, units, "", set(), found), 3)
    assert all(f.value in f.quote for f in kept)
    return [f.value for f in kept]


def test_a_decay_named_after_the_learning_rate_is_the_schedule() -> None:
    assert read("schedule", ["The learning rate starts at 0.5 with a learning rate decay."]) == [
        "with a learning rate decay"
    ]
    assert read("schedule", ["We warm up to a peak learning rate of 2e-4 followed by decay."]) == [
        "followed by decay"
    ]
    text = "The learning rate is 2.0 for three epochs, the rate halving by a factor of 3 after."
    assert read("schedule", [text]) == ["the rate halving by a factor of 3 after"]


def test_a_decay_without_the_learning_rate_is_no_schedule() -> None:
    assert read("schedule", ["The heron signal fades with a decay over the marsh."]) == []
    assert read("schedule", ["The sampling rate is halved by the recorder."]) == []


def test_a_warmup_given_as_a_share_or_by_name_is_read() -> None:
    assert read("warmup", ["We fine-tune with a warmup proportion of 0.08 for every task."]) == [
        "0.08"
    ]
    assert read("warmup", ["We set the learning rate warmup in HeronQA to 0.2 and 0.1 else."]) == [
        "0.2 and 0.1"
    ]
    assert read("warmup", ["We train with learning rate warmup over the first $k$ steps."]) == [
        "learning rate warmup"
    ]


def test_a_warmup_of_something_else_is_not() -> None:
    assert read("warmup", ["The decoder runs a warm-up stage before the heron queries."]) == []


def test_dropout_the_papers_models_use_without_a_rate_is_read_by_its_name() -> None:
    assert read(
        "dropout", ["In all our models, besides dropout regularization, we stop early."]
    ) == ["dropout regularization"]
    text = "It consists of three layers, dropout to regularize the weights, and a softmax."
    assert read("dropout", [text]) == ["dropout to regularize the weights"]


def test_dropout_a_paper_does_without_or_only_discusses_is_not_this_reading() -> None:
    assert read("dropout", ["Heron calls are noisy, so dropout regularization may help."]) == []
