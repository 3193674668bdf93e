"""When to refuse: several signals about the drafted answer, one calibrated support score.

The answerer drafts its best answer first, then measures it: how much of the question's key
terms the chosen span covers, whether it names what was asked about, whether it holds what
the question's type needs (a number, a name, a definition), whether it comes from the paper
the question names, and how much any retrieved passage is about the question at all. The
support is the fitted scorer's calibrated probability (agent/answer_scorer.py) and the
threshold is fitted with it; the harness re-applies `decide` to logged signals to check that.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from citewise.agent.answer_scorer import answer_scorer

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


def _fitted_threshold() -> float:
    return answer_scorer().threshold


def _fitted_about_floor() -> float:
    return answer_scorer().about_floor


@dataclass(frozen=True)
class RefusalPolicy:
    """Where refusal starts, and what a span from outside the named paper is worth."""

    # fitted with the scorer (scripts/fit_answer_scorer.py); `citewise eval --fit` searches
    # other values over logged signals
    threshold: float = field(default_factory=_fitted_threshold)
    scope_factor: float = 0.35  # the span comes from a paper other than the one named
    # no retrieved passage covers this much of the question: not in the library (fitted too)
    about_floor: float = field(default_factory=_fitted_about_floor)


DEFAULT_POLICY = RefusalPolicy()


def support(signals: dict[str, float], policy: RefusalPolicy = DEFAULT_POLICY) -> float:
    """The drafted answer's support (0..1): the scorer's calibrated probability that it is
    right (agent/answer_scorer.py), less when it comes from outside the paper named."""
    if "logit" not in signals:
        return 0.0  # nothing drafted
    value = answer_scorer().support(signals)
    if signals.get("in_scope", 1.0) < 0.5:
        value *= policy.scope_factor
    return min(1.0, value)


def decide(signals: dict[str, float], policy: RefusalPolicy = DEFAULT_POLICY) -> str | None:
    """The refusal kind for a drafted answer with these signals, or None to answer."""
    if not signals or signals.get("drafted", 1.0) < 0.5:
        return NOT_IN_LIBRARY if signals.get("about", 0.0) < policy.about_floor else NOT_ANSWERED
    if signals.get("about", 1.0) < policy.about_floor:
        return NOT_IN_LIBRARY  # no retrieved sentence writes enough of the question's terms
    if support(signals, policy) >= policy.threshold:
        return None
    return NOT_IN_LIBRARY if signals.get("about", 0.0) < policy.about_floor else NOT_ANSWERED
