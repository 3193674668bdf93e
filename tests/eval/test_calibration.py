"""Refusal fitting and leave-one-document-out on logged signals (no library needed)."""

from __future__ import annotations

from dataclasses import replace

from citewise.eval.calibration import (
    calibration_table,
    fit_policy,
    leave_one_document_out,
    redecide,
)


def _row(doc: str, answerable: bool, coverage: float, right: bool) -> dict[str, object]:
    signals = {"drafted": 1.0, "coverage": coverage, "attribute": 1.0, "type_fit": 1.0,
               "in_scope": 1.0, "about": coverage}  # fmt: skip
    return {"id": f"{doc}-{coverage}", "docs": [doc], "type": "t", "answerable": answerable,
            "refused": False, "correct": right, "draft_correct": right, "page_hit": right,
            "support": coverage, "signals": signals, "ms": 1.0}  # fmt: skip


ROWS = [
    _row(doc, answerable, coverage, right)
    for doc in ("a", "b", "c", "d")
    for answerable, coverage, right in ((True, 0.8, True), (True, 0.6, True), (False, 0.3, False))
]


def test_the_fitted_threshold_separates_answers_from_unanswerable_drafts() -> None:
    policy = fit_policy(ROWS)
    assert 0.3 < policy.threshold <= 0.6
    decided = [redecide(r, policy) for r in ROWS]
    assert all(r["refused"] is (not r["answerable"]) for r in decided)


def test_leave_one_document_out_scores_each_document_with_the_others_fit() -> None:
    result = leave_one_document_out(ROWS, fit=True)
    assert result["folds"] == 4
    assert result["lodo"]["accuracy"] == 1.0 and result["lodo"]["refusal_recall"] == 1.0


def test_the_calibration_table_bins_answers_by_support() -> None:
    table = calibration_table(ROWS)
    top = next(b for b in table if b["support"] == "0.8-1.0")
    assert top["answers"] == 4 and top["right"] == 1.0


def test_a_question_the_yes_no_lead_answered_stays_answered_under_a_stricter_policy() -> None:
    row = _row("e", True, 0.3, True)
    unrefused = {**row, "signals": {**row["signals"], "yes_no_unrefused": 1.0}}  # type: ignore[dict-item]
    strict = replace(fit_policy(ROWS), threshold=0.9)
    assert redecide(row, strict)["refused"] is True
    assert redecide(unrefused, strict)["refused"] is False
    assert redecide(unrefused, strict)["correct"] is True
