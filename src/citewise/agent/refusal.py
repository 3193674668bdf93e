"""When to refuse: one fitted threshold on the drafted answer's calibrated support.

The answerer drafts its best answer first, then measures it: how much of the question's key
terms the chosen span covers, whether it names what was asked about, whether it holds what
the question's type needs, how much any retrieved passage is about the question, and
whether the paper answers what was asked at all (agent/pipeline/asked.py). The support is
the fitted scorer's calibrated probability that the answer is right
(agent/pipeline/scorer.py); below the threshold fitted with it the answer is refused, as
"not in the library" when no retrieved passage is much about the question, else "not
answered". The harness re-applies `decide` to logged signals to check that.
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
# How much less of the question a span answers when it never names what is asked about,
# lacks the shape the question needs, or comes from a paper other than the one named
# (`answered_share`: agent/figures.py's drawn-only test reads it, not the refusal).
ATTRIBUTE_FACTOR, TYPE_FACTOR, SCOPE_FACTOR = 0.6, 0.5, 0.35


@dataclass(frozen=True)
class RefusalPolicy:
    """Where refusal starts: a support below `threshold` is refused, as "not in the
    library" when the retrieved passages cover less than `about_floor` of the question.
    None (the default) reads both from the fitted scorer in use (agent/data/answer_scorer.json,
    scripts/fit_answer_scorer.py); `citewise eval --fit` tries others on logged signals."""

    threshold: float | None = None
    about_floor: float | None = None

    def refuses_below(self) -> float:
        return answer_scorer().threshold if self.threshold is None else self.threshold

    def not_in_library_below(self) -> float:
        return answer_scorer().about_floor if self.about_floor is None else self.about_floor


DEFAULT_POLICY = RefusalPolicy()


def answered_share(signals: dict[str, float]) -> float:
    """How much of the question the paper answers (0..1), read off the sentences that cover
    the most of it (`answered_*`, agent/draft.py), else the draft."""

    def read(name: str, default: float) -> float:
        return signals.get(f"answered_{name}", signals.get(name, default))

    value = read("coverage", 0.0)
    if read("attribute", 1.0) < ATTRIBUTE_NAMED_SHARE:
        value *= ATTRIBUTE_FACTOR
    if read("type_fit", 1.0) < 0.5:
        value *= TYPE_FACTOR
    if read("in_scope", 1.0) < 0.5:
        value *= SCOPE_FACTOR
    return min(1.0, value)


def support(signals: dict[str, float], policy: RefusalPolicy = DEFAULT_POLICY) -> float:
    """The drafted answer's support (0..1): the scorer's calibrated probability that it is
    right (agent/pipeline/scorer.py); 0 when nothing was drafted."""
    if "logit" not in signals or signals.get("drafted", 1.0) < 0.5:
        return 0.0
    return answer_scorer().support(signals)


def decide(signals: dict[str, float], policy: RefusalPolicy = DEFAULT_POLICY) -> str | None:
    """The refusal kind for a drafted answer with these signals, or None to answer: refused
    when its support is below the one fitted threshold."""
    about = signals.get("about", 0.0) if signals else 0.0
    kind = NOT_IN_LIBRARY if about < policy.not_in_library_below() else NOT_ANSWERED
    if not signals or signals.get("drafted", 1.0) < 0.5:
        return kind
    return None if support(signals, policy) >= policy.refuses_below() else kind
