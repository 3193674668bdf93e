"""What the yes/no lead did on an evaluation run, as totals by signal (no item printed).

    citewise --library LIB eval ITEMS.yaml --scope-docs --json > RUN.json
    python scripts/yes_no_report.py RUN.json ITEMS.yaml

For the questions the lead judged (their answers carry `yes_no_probability`, agent/yesno/
lead.py): the leads right on the "yes" and the "no" items; the refused questions it answered
(`yes_no_unrefused`) with how many of those leads were right and how many were unanswerable;
the unanswerable questions it judged, answered and refused; and each of these by how far the
model's probability lies from its threshold and by whether the claim reached past the paper
(`yes_no_widened`). Totals only, so a run on the half not developed on can be read too.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

import yaml

from citewise.agent.yesno.model import model

# bands of |probability - threshold|
BANDS = (0.03, 0.1)


def band(probability: float, threshold: float) -> str:
    """The band of the probability's distance from the threshold, as its label."""
    distance = abs(probability - threshold)
    low = 0.0
    for edge in BANDS:
        if distance < edge:
            return f"{low:.2f}-{edge:.2f}"
        low = edge
    return f">={low:.2f}"


def outcome(row: dict[str, object], gold: dict[str, object]) -> str:
    """ "unanswerable answered/refused" for a question without an answer; else "right",
    "wrong" (another or no lead) or "refused" for a yes/no item, "other" for the rest."""
    refused = bool(row["refused"])
    if not gold["answerable"]:
        return "unanswerable refused" if refused else "unanswerable answered"
    if gold["type"] != "yes_no":
        return "other refused" if refused else "other answered"
    if refused:
        return "refused"
    word = str(gold["accept"][0]).strip().lower()  # type: ignore[index]
    said = re.match(rf"\W*{word}\b", str(row.get("answer") or "").lower())
    return "right" if said else "wrong"


def report(
    rows: list[dict[str, object]], items: dict[str, dict[str, object]]
) -> dict[str, Counter[str]]:
    """Counts of outcomes: all judged, answered though refused, and by band and widened."""
    threshold = model().threshold
    tables: dict[str, Counter[str]] = {}
    for row in rows:
        signals = row.get("signals") or {}
        assert isinstance(signals, dict)
        if "yes_no_probability" not in signals:
            continue
        gold = items[str(row["id"])]
        kind = outcome(row, gold)
        if gold["type"] == "yes_no" and kind != "refused":
            kind += " (" + str(gold["accept"][0]).strip().lower() + ")"  # type: ignore[index]
        groups = [
            "judged",
            f"margin {band(float(signals['yes_no_probability']), threshold)}",
            f"widened {int(signals.get('yes_no_widened', 0.0))}",
        ]
        if signals.get("yes_no_unrefused"):
            groups += [f"answered though refused, {g}" for g in groups]
        for group in groups:
            tables.setdefault(group, Counter())[kind] += 1
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", help="the JSON of `citewise eval --json`")
    parser.add_argument("items", help="the QA file the run asked")
    args = parser.parse_args()
    rows = json.loads(Path(args.run).read_text())["items"]
    items = {str(i["id"]): i for i in yaml.safe_load(Path(args.items).read_text())}
    for group, counts in sorted(report(rows, items).items()):
        print(f"{group}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
