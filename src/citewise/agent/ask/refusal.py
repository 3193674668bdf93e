"""When to refuse: several signals about the drafted answer, one decision.

The answerer drafts its best answer first, then measures it: how much of the question's key
terms the chosen span covers, whether it names what was asked about, whether it holds what
the question's type needs (a number, a name, a definition), whether it comes from the paper
the question names, how much any retrieved passage is about the question at all, and whether
the paper answers what was asked (agent/ask/asked.py). The support is the fitted
scorer's probability that the answer is right (agent/ask/scorer.py), calibrated per answer
family (agent/ask/calibration.py); the decision is the answered-share rule below (or, with
`by_support`, the one threshold fitted with the support), then the fitted probability that
the paper states what is asked (agent/ask/answerable.py); the harness re-applies `decide`
to logged signals to check that.
"""

from __future__ import annotations

from dataclasses import dataclass

from citewise.agent.ask.answerable import unanswerable
from citewise.agent.ask.calibration import calibrated
from citewise.agent.ask.scorer import answer_scorer

# Refusal kinds (the `refusal_kind` of ask --json).
NOT_IN_LIBRARY = "not_in_library"  # nothing retrieved is about the question
NOT_ANSWERED = "not_answered"  # related passages, none of them answers it
IN_FIGURE = "in_figure"  # the answer is drawn in a figure, which text cannot show

REFUSALS = {
    NOT_IN_LIBRARY: "Nothing in the library is about this.",
    NOT_ANSWERED: "Related passages were found, but none of them answers this.",
    IN_FIGURE: "The answer is in a figure's image, which citewise cannot read.",
}

# Below this share of the question's weighted key terms named by an answer, it probably
# answers something else ("mean age" never said).
ATTRIBUTE_NAMED_SHARE = 0.4


@dataclass(frozen=True)
class RefusalPolicy:
    """Where refusal starts. The decision reads how much of the question the drafted span
    covers (less when it never names what is asked about, lacks the shape the question
    needs, or comes from a paper other than the one named); these values were fitted by
    leave-one-document-out over dev.yaml + MMLongBench-Doc dev (`citewise eval --fit`,
    folds 0.38-0.42). A refusal's kind is "not in the library" when the retrieved passages
    cover less than `about_floor` of the question, else "not answered".

    `by_support` decides instead by the one threshold fitted with the calibrated support
    (agent/ask/scorer.py, scripts/fit_answer_scorer.py). Measured on the pools' other
    halves it refused fewer unanswerable questions than this rule (QASPER even 0.31 against
    0.46, held-out and dev sets lower still) for fewer false refusals (0.09 against 0.17),
    so it is not the default: docs/benchmarks.md, "Refusal by the fitted support"."""

    threshold: float = 0.40
    attribute_factor: float = 0.6  # the span never names what is asked about
    type_factor: float = 0.5  # the span lacks what the question type needs
    scope_factor: float = 0.35  # the span comes from a paper other than the one named
    about_floor: float = 0.34  # no retrieved passage covers this much: not in the library
    by_support: bool = False


DEFAULT_POLICY = RefusalPolicy()


def answered_share(signals: dict[str, float], policy: RefusalPolicy = DEFAULT_POLICY) -> float:
    """How much of the question the paper answers (0..1), for the decision: read off the
    sentences that cover the most of it (`answered_*`, agent/sentences/draft.py), else the draft."""

    def read(name: str, default: float) -> float:
        return signals.get(f"answered_{name}", signals.get(name, default))

    value = read("coverage", 0.0)
    if read("attribute", 1.0) < ATTRIBUTE_NAMED_SHARE:
        value *= policy.attribute_factor
    if read("type_fit", 1.0) < 0.5:
        value *= policy.type_factor
    if read("in_scope", 1.0) < 0.5:
        value *= policy.scope_factor
    return min(1.0, value)


def support(signals: dict[str, float], policy: RefusalPolicy = DEFAULT_POLICY) -> float:
    """The drafted answer's support (0..1): the scorer's probability that it is right
    (agent/ask/scorer.py), calibrated per answer family (agent/ask/calibration.py); 0 when
    nothing was drafted."""
    if "logit" not in signals or signals.get("drafted", 1.0) < 0.5:
        return 0.0
    return calibrated(answer_scorer().support(signals), signals)


def decide(signals: dict[str, float], policy: RefusalPolicy = DEFAULT_POLICY) -> str | None:
    """The refusal kind for a drafted answer with these signals, or None to answer."""
    kind = NOT_IN_LIBRARY if signals.get("about", 0.0) < policy.about_floor else NOT_ANSWERED
    if not signals or signals.get("drafted", 1.0) < 0.5:
        return kind
    if policy.by_support:  # the threshold was fitted on the scorer's own support
        scorer = answer_scorer()
        return None if scorer.support(signals) >= scorer.threshold else kind
    if answered_share(signals, policy) < policy.threshold:
        return kind
    # about the topic, but the paper likely never states what is asked (answerable.py)
    return NOT_ANSWERED if unanswerable(signals) else None
