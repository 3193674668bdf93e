"""Terminal tables for eval results, comparisons and refusal fits."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from citewise.eval.metrics import EvalResult, Metrics

COLUMNS = (
    ("items", "items"),
    ("accuracy", "accuracy"),
    ("citation_page_accuracy", "cited page"),
    ("refusal_recall", "refused unans."),
    ("false_refusal_rate", "refused ans."),
    ("p50_ms", "p50 ms"),
    ("p95_ms", "p95 ms"),
)


def _list(value: object) -> list[dict[str, object]]:
    return [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []


def _metrics_table(rows: Sequence[tuple[str, object]]) -> Table:
    table = Table("scope", *(title for _, title in COLUMNS))
    for name, m in rows:
        values = m.to_dict() if isinstance(m, Metrics) else m if isinstance(m, dict) else {}
        table.add_row(name, *(str(values.get(key, "")) for key, _ in COLUMNS))
    return table


def print_eval(console: Console, result: EvalResult) -> None:
    """Overall, per-type and per-evidence metrics, then the support calibration."""
    console.print(_metrics_table([("overall", result.overall), *result.by_type.items()]))
    if result.by_evidence:
        console.print("by evidence (unanswerable items counted in each):")
        console.print(_metrics_table(list(result.by_evidence.items())))
    table = Table("support", "answers", "right")
    for row in _list(result.calibration):
        table.add_row(str(row["support"]), str(row["answers"]), str(row["right"]))
    console.print(table)


def print_fit(console: Console, result: dict[str, object]) -> None:
    rows = [(k, result[k]) for k in ("shipped", "in_sample", "lodo") if k in result]
    console.print(f"{result.get('folds')} documents left out in turn")
    console.print(_metrics_table(rows))
    console.print(f"fitted on all: {result.get('fitted_policy')}")


def print_comparison(console: Console, comparison: dict[str, object], a: str, b: str) -> None:
    table = Table("scope", f"acc {a}", f"acc {b}", f"false ref. {a}", f"false ref. {b}")
    for row in _list(comparison["by_type"]):
        table.add_row(
            str(row["scope"]),
            str(row["accuracy_a"]),
            str(row["accuracy_b"]),
            str(row["false_refusal_rate_a"]),
            str(row["false_refusal_rate_b"]),
        )
    console.print(table)
    items = Table("item", a, b)
    for row in _list(comparison["items"]):
        if row["changed"]:
            items.add_row(str(row["id"]), str(row["a"]), str(row["b"]))
    console.print(items)
