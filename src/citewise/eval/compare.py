"""Saved eval runs: side by side per item and per type, and refusal fitting across runs."""

from __future__ import annotations

import json
from pathlib import Path

from citewise.errors import CitewiseError
from citewise.eval.calibration import calibration_table, leave_one_document_out

Row = dict[str, object]
KEYS = ("accuracy", "false_refusal_rate", "refusal_recall", "citation_page_accuracy")


def load_run(path: Path) -> dict[str, object]:
    """A saved `citewise eval --json` result."""
    try:
        run = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CitewiseError(
            f"cannot read eval run {path}: {exc}",
            code="BAD_EVAL_RUN",
            hint="save one with 'citewise eval QA.yaml --json > run.json'",
        ) from exc
    if not isinstance(run, dict) or not isinstance(run.get("items"), list):
        raise CitewiseError(
            f"{path}: not an eval run (no items)",
            code="BAD_EVAL_RUN",
            hint="save one with 'citewise eval QA.yaml --json > run.json'",
        )
    return run


def _rows(run: dict[str, object]) -> list[Row]:
    items = run.get("items")
    return [r for r in items if isinstance(r, dict)] if isinstance(items, list) else []


def _table(run: dict[str, object], key: str) -> dict[str, dict[str, object]]:
    value = run.get(key)
    return value if isinstance(value, dict) else {}


def _outcome(row: Row) -> str:
    if not row["answerable"]:
        return "refused" if row["refused"] else "answered"
    if row["refused"]:
        return "refused"
    return "right" if row["correct"] else "wrong"


def compare_runs(a: dict[str, object], b: dict[str, object]) -> dict[str, object]:
    """Per type: both runs' metrics; per item: both outcomes, changed ones flagged."""
    rows_a = {str(r["id"]): r for r in _rows(a)}
    rows_b = {str(r["id"]): r for r in _rows(b)}
    items = []
    for item_id in list(dict.fromkeys([*rows_a, *rows_b])):
        ra, rb = rows_a.get(item_id), rows_b.get(item_id)
        oa = _outcome(ra) if ra else "-"
        ob = _outcome(rb) if rb else "-"
        items.append({"id": item_id, "a": oa, "b": ob, "changed": oa != ob})
    by_type_a, by_type_b = _table(a, "by_type"), _table(b, "by_type")
    types = sorted({*by_type_a, *by_type_b})
    scopes = [("overall", _table(a, "overall"), _table(b, "overall"))] + [
        (t, by_type_a.get(t, {}), by_type_b.get(t, {})) for t in types
    ]
    return {
        "by_type": [
            {
                "scope": name,
                **{f"{k}_a": ma.get(k) for k in KEYS},
                **{f"{k}_b": mb.get(k) for k in KEYS},
            }
            for name, ma, mb in scopes
        ],
        "items": items,
    }


def fit_runs(paths: list[Path]) -> dict[str, object]:
    """Fit the refusal parameters over the rows of several saved runs (documents from
    different sets stay apart), and score each document with a policy fitted without it."""
    rows: list[Row] = []
    for path in paths:
        run = load_run(path)
        for row in _rows(run):
            docs = row.get("docs")
            names = [f"{path.stem}:{d}" for d in docs] if isinstance(docs, list) else []
            rows.append({**row, "docs": names})
    result = leave_one_document_out(rows, fit=True)
    result["calibration"] = calibration_table(rows)
    return result
