"""When to refuse: several signals about the drafted answer, one calibrated support score.

The answerer drafts its best answer first, then measures it: how much of the question's key
terms the chosen span covers, whether it names what was asked about, whether it holds what
the question's type needs (a number, a name, a definition), whether it comes from the paper
the question names, and how much any retrieved passage is about the question at all. The
support is the fitted scorer's calibrated probability (agent/pipeline/scorer.py) and the
threshold is fitted with it; the harness re-applies `decide` to logged signals to check that.
"""

from __future__ import annotations

from dataclasses import dataclass

from citewise.agent.pipeline.scorer import answer_scorer

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
    """Where refusal starts: below `threshold` support, or when no retrieved sentence covers
    `about_floor` of the question. None: the values fitted with the answer scorer
    (scripts/fit_answer_scorer.py; `citewise eval --fit` searches others over logged signals)."""

    threshold: float | None = None
    about_floor: float | None = None

    def refuse_below(self) -> float:
        return answer_scorer().threshold if self.threshold is None else self.threshold

    def about(self) -> float:
        return answer_scorer().about_floor if self.about_floor is None else self.about_floor


DEFAULT_POLICY = RefusalPolicy()


def support(signals: dict[str, float], policy: RefusalPolicy = DEFAULT_POLICY) -> float:
    """The drafted answer's support (0..1): the scorer's calibrated probability that it is
    right (agent/pipeline/scorer.py; an answer from outside the paper named is one of its
    signals). The policy only decides where refusal starts."""
    if "logit" not in signals:
        return 0.0  # nothing drafted
    return answer_scorer().support(signals)


def decide(signals: dict[str, float], policy: RefusalPolicy = DEFAULT_POLICY) -> str | None:
    """The refusal kind for a drafted answer with these signals, or None to answer."""
    kind = NOT_IN_LIBRARY if signals.get("about", 0.0) < policy.about() else NOT_ANSWERED
    if not signals or signals.get("drafted", 1.0) < 0.5 or kind == NOT_IN_LIBRARY:
        return kind  # nothing drafted, or no retrieved sentence writes enough of the question
    return None if support(signals, policy) >= policy.refuse_below() else kind
