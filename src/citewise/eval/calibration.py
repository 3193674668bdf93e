"""Is `support` honest, and do the refusal parameters hold on papers they were not fitted on?

`calibration_table` bins answered items by support and says how many were right.
`fit_policy` searches the refusal parameters over logged signals; `leave_one_document_out`
fits on all documents but one and scores the one left out, which predicts the unseen score.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import asdict, replace

from citewise.agent.ask.refusal import DEFAULT_POLICY, RefusalPolicy, decide, support
from citewise.eval.metrics import Row, metrics

BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.01)

# Only the threshold is fitted: with ~100 items over ~15 documents, fitting the factors
# too won in-sample and lost 0.2 of refusal recall left-one-document-out.
THRESHOLDS = [round(0.2 + 0.02 * i, 2) for i in range(26)]


def _support(row: Row) -> float:
    value = row["support"]
    return float(value) if isinstance(value, int | float) else 0.0


def calibration_table(rows: list[Row]) -> list[dict[str, object]]:
    """For each support bin: answers given, and the share of them that were right."""
    answered = [r for r in rows if not r["refused"]]
    table = []
    for low, high in itertools.pairwise(BINS):
        inside = [r for r in answered if low <= _support(r) < high]
        right = sum(1 for r in inside if r["correct"])
        table.append(
            {
                "support": f"{low:.1f}-{min(high, 1.0):.1f}",
                "answers": len(inside),
                "right": round(right / len(inside), 3) if inside else None,
            }
        )
    return table


def _signals(row: Row) -> dict[str, float]:
    signals = row.get("signals") or {}
    assert isinstance(signals, dict)
    return signals


def redecide(row: Row, policy: RefusalPolicy) -> Row:
    """The row as it would have come out under `policy` (fixed when it logged no signals). A
    question the yes/no lead answered although the policy refused it (`yes_no_unrefused`) is
    answered under any policy: the lead, not the threshold, decided it."""
    signals = _signals(row)
    if not signals:
        return row
    refused = decide(signals, policy) is not None and not signals.get("yes_no_unrefused")
    return {
        **row,
        "refused": refused,
        "correct": bool(row["draft_correct"]) and not refused,
        "page_hit": bool(row.get("draft_page_hit", row["page_hit"])),
        "support": round(support(signals, policy), 3),
    }


def utility(rows: Iterable[Row]) -> float:
    """Right answers plus honest refusals; a refused answerable item costs a little."""
    score = 0.0
    for r in rows:
        if r["answerable"]:
            score += 1.0 if r["correct"] else (-0.1 if r["refused"] else 0.0)
        else:
            score += 1.0 if r["refused"] else 0.0
    return score


def candidate_policies() -> list[RefusalPolicy]:
    return [replace(DEFAULT_POLICY, threshold=t) for t in THRESHOLDS]


def fit_policy(rows: list[Row]) -> RefusalPolicy:
    """The policy with the best utility on `rows`; ties go to the shipped default's side."""
    best, best_score = DEFAULT_POLICY, utility(redecide(r, DEFAULT_POLICY) for r in rows)
    for policy in candidate_policies():
        score = utility(redecide(r, policy) for r in rows)
        if score > best_score + 1e-9:
            best, best_score = policy, score
    return best


def document_key(row: Row) -> str:
    docs = row.get("docs") or []
    assert isinstance(docs, list)
    return "+".join(str(d) for d in docs) or str(row["id"])


def leave_one_document_out(rows: list[Row], fit: bool = False) -> dict[str, object]:
    """Metrics when each document's items are decided by a policy fitted on the others.

    Without `fit`, only the in-sample re-decision under the shipped policy is checked
    (cheap); `fit=True` runs the search (citewise eval --fit)."""
    if not fit:
        return {"folds": 0}
    documents = sorted({document_key(r) for r in rows})
    held_out: list[Row] = []
    for doc in documents:
        train = [r for r in rows if document_key(r) != doc]
        policy = fit_policy(train)
        held_out += [redecide(r, policy) for r in rows if document_key(r) == doc]
    in_sample_policy = fit_policy(rows)
    return {
        "folds": len(documents),
        "lodo": metrics(held_out).to_dict(),
        "in_sample": metrics([redecide(r, in_sample_policy) for r in rows]).to_dict(),
        "fitted_policy": asdict(in_sample_policy),
        "shipped": metrics([redecide(r, DEFAULT_POLICY) for r in rows]).to_dict(),
    }
