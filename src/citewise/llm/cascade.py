"""Cascades: a role that lists two models calls the second only when the first is unsure.

The cascade lives in the role-call layer (`ModelClient.escalate`), so every role that
names two models (screen, extract, reason, write, judge) gets it, whoever calls it. How
sure a reply is comes from the reply itself: a failed call, a cut-off reply, a reply that
is not the JSON object asked for, or one whose own `confidence` field is low all escalate.
Callers with a better measure (the `write` role: verification support) cascade on that.
"""

from __future__ import annotations

from dataclasses import replace

from citewise.llm.client import ModelClient
from citewise.llm.confidence import reply_confidence

__all__ = ["chain", "reply_confidence"]


def chain(clients: list[ModelClient], threshold: float) -> list[ModelClient]:
    """The role's clients with each one escalating to the next: `[first→second, second]`.

    Callers that take the first client get the cascade; the list keeps every model for
    callers that report them (doctor, labels).
    """
    chained: list[ModelClient] = []
    nxt: ModelClient | None = None
    for client in reversed(clients):
        nxt = replace(client, escalate=nxt, threshold=threshold)
        chained.insert(0, nxt)
    return chained
