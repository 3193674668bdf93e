"""The scoring step: the one place a candidate gets its support, and the one choice of the
candidate that answers.

`support_of` is the only function that gives support: a drafted answer's from its signals
(agent/ask/refusal.py `support`, the drafting policy), a table answer's from its `table_*`
features by the fitted table function (agent/numeric/tables/support.py), another handler's from
the `stated_support` feature it measured, a refusal's 0. `choose` keeps the old
chain's precedence: the first registered proposer with a candidate that passed every check
wins, so the pipeline may stop at the first one (`STOPS_EARLY`). A fitted scorer over the
candidates' features replaces `choose`'s key without touching the proposers.
"""

from __future__ import annotations

from citewise.agent.ask.proposers import STATED_SUPPORT, TABLE_FEATURE
from citewise.agent.ask.refusal import DEFAULT_POLICY, RefusalPolicy, support
from citewise.agent.ask.state import KIND_REFUSAL, Candidate
from citewise.agent.numeric.tables.support import support as table_support

# The precedence scorer needs no later proposer once one candidate passes its checks.
STOPS_EARLY = True


def draft_support(signals: dict[str, float], spans: int, policy: RefusalPolicy) -> float:
    """A drafted answer's support: its signals through the drafting policy; 0 when nothing
    was drafted."""
    return round(support(signals, policy), 3) if spans else 0.0


def support_of(candidate: Candidate, policy: RefusalPolicy = DEFAULT_POLICY) -> float:
    """The candidate's support (0..1), from its features alone."""
    features = candidate.features
    if candidate.kind == KIND_REFUSAL:
        return 0.0
    table = {k[len(TABLE_FEATURE) :]: v for k, v in features.items() if k.startswith(TABLE_FEATURE)}
    if table:  # a table answer: the fitted table function of its features
        return round(table_support(table), 3)
    if STATED_SUPPORT in features:
        return features[STATED_SUPPORT]
    return draft_support(features, int(features.get("spans", 0)), policy)


def score(candidates: list[Candidate], policy: RefusalPolicy = DEFAULT_POLICY) -> None:
    """Give every candidate its support."""
    for candidate in candidates:
        candidate.support = support_of(candidate, policy)


def choose(candidates: list[Candidate], order: list[str]) -> Candidate | None:
    """The candidate that answers: of those that passed every check, the one whose proposer
    comes first in the registry's order (the old first-match chain's precedence); None
    when no candidate passed."""
    passed = [c for c in candidates if c.passed]
    if not passed:
        return None
    return min(passed, key=lambda c: (order.index(c.proposer), -(c.support or 0.0)))
