"""Per answer shape (agent/pipeline/proposers.py), on each pool half: how often it fires and
what it lifts. Writes the table into docs/benchmarks.md (issue 38, Build 5).

For each half: one traced run (every proposer proposes, `ask --trace`) gives each shape's
trigger rate (a proposer returned a candidate; a reviser changed the answer) and how often
it won; then one run per shape with that shape disabled by name gives the accuracy (and the
share of unanswerable questions refused) without it. Lift = with - without.

    python scripts/proposer_table.py --pool qasper=LIB --pool tatqa=LIB [--half even --half odd]
        [--only table,draft] [--json out.json] [--write docs/benchmarks.md]

LIB is a library of that pool's corpus (e.g. /tmp/citewise-pools/<state>/qasper-lib, made
by `../shared/tools/pools`); the items are `../shared/qa/external/<pool>/splits/<half>.yaml`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from citewise.agent.answer import Answer
from citewise.agent.pipeline.trace import fired
from citewise.api import Library
from citewise.eval.harness import QAItem, evaluate, file_name_map, load_items

# the shared research material beside the repository (../shared), else the development
# machine's /work/shared (for a worktree elsewhere); --external names another place
_BESIDE = Path(__file__).resolve().parents[2] / "shared" / "qa" / "external"
EXTERNAL = _BESIDE if _BESIDE.is_dir() else Path("/work/shared/qa/external")
DOCS = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
START, END = "<!-- proposer-table:start -->", "<!-- proposer-table:end -->"
# the rule of issue 38 (Build 5): a shape stays if it fires on at least this share of the
# half it was not developed on, and lifts it
MIN_TRIGGER = 0.01


def _rates(rows: list[dict[str, object]]) -> tuple[float, float]:
    """Accuracy over answerable items, share of unanswerable ones refused."""
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    accuracy = sum(bool(r["correct"]) for r in answerable) / max(1, len(answerable))
    refused = sum(bool(r["refused"]) for r in unanswerable) / max(1, len(unanswerable))
    return accuracy, refused if unanswerable else float("nan")


def measure(library: Path, items: list[QAItem], only: set[str]) -> dict[str, object]:
    """One half: the traced run, then one run per disabled shape."""
    with Library(library) as lib:
        names = file_name_map([(d.id, d.path) for d in lib.documents()])
        lib.ask("warm up", review=False)
        registry = lib.answerer.registry
        traces: list[dict[str, object]] = []

        def traced(question: str, docs: list[str]) -> Answer:
            answer = lib.ask(question, docs, 8, review=False, trace=True)
            traces.append(answer.pipeline or {})
            return answer

        started = time.perf_counter()
        full = evaluate(items, traced, names, scope_docs=True).items
        accuracy, refused = _rates(full)
        shapes: dict[str, dict[str, float]] = {}
        for name in registry.names():
            if only and name not in only:
                continue
            registry.disabled = {name}
            try:
                without = evaluate(
                    items,
                    lambda q, d: lib.ask(q, d, 8, review=False),
                    names,
                    scope_docs=True,
                ).items
            finally:
                registry.disabled = set()
            acc, ref = _rates(without)
            shapes[name] = {
                "trigger": sum(name in fired(t) for t in traces) / len(traces),
                "won": sum(t.get("winner") == name for t in traces) / len(traces),
                "accuracy_without": acc,
                "lift": accuracy - acc,
                "refused_lift": refused - ref,
                "answers_changed": sum(
                    a["answer"] != b["answer"] or a["refused"] != b["refused"]
                    for a, b in zip(full, without, strict=True)
                ),
            }
        return {
            "n": len(items),
            "accuracy": accuracy,
            "unanswerable_refused": refused,
            "shapes": shapes,
            "seconds": round(time.perf_counter() - started),
        }


def _pct(value: float) -> str:
    return "—" if value != value else f"{100 * value:.1f}%"  # NaN: no such items


def _signed(value: float) -> str:
    return "—" if value != value else f"{value:+.3f}"


def table(results: dict[str, dict[str, object]], commit: str) -> str:
    """The Markdown section: one row per shape and half."""
    lines = [
        START,
        "## Answer shapes: trigger rate and lift per pool half (`scripts/proposer_table.py`)",
        "",
        f"At {commit}, no model. *Fired*: the proposer returned a candidate (a reviser: "
        "changed the answer) in a traced run where every proposer proposes. *Won*: its "
        "candidate was the answer. *Lift*: accuracy (answerable items) with all shapes minus "
        "accuracy with this one disabled (`CITEWISE_DISABLE_PROPOSERS=name`); *refusal lift*: "
        "the same for the share of unanswerable items refused. Issue 38's rule: a shape stays "
        f"if it fires on at least {MIN_TRIGGER:.0%} of the half it was not developed on and "
        "lifts it.",
        "",
        "| pool / half | shape | fired | won | lift | refusal lift | answers changed |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for half, result in results.items():
        shapes: dict[str, dict[str, float]] = result["shapes"]  # type: ignore[assignment]
        acc = result["accuracy"]
        for name, s in shapes.items():
            lines.append(
                f"| {half} (n={result['n']}, acc {acc:.3f}) | `{name}` | {_pct(s['trigger'])} | "
                f"{_pct(s['won'])} | {_signed(s['lift'])} | {_signed(s['refused_lift'])} | "
                f"{int(s['answers_changed'])} |"
            )
    lines.append(END)
    return "\n".join(lines)


def write(section: str, path: Path) -> None:
    """Put the section in place of the last one (or at the end)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if START in text and END in text:
        old = re.escape(START) + r".*?" + re.escape(END)
        text = re.sub(old, lambda _: section, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pool", action="append", default=[], metavar="NAME=LIBRARY")
    parser.add_argument("--half", action="append", default=[], choices=("odd", "even"))
    parser.add_argument("--only", default="", help="comma-separated shape names")
    parser.add_argument("--external", type=Path, default=EXTERNAL, help="the pools' folder")
    parser.add_argument("--commit", default="this tree", help="named in the table")
    parser.add_argument("--json", type=Path, help="write the numbers here")
    parser.add_argument("--write", type=Path, help="put the table in this Markdown file")
    args = parser.parse_args(argv)
    if not args.pool:
        parser.error("give --pool qasper=LIBRARY (and/or tatqa=LIBRARY)")
    only = {n.strip() for n in args.only.split(",") if n.strip()}
    results: dict[str, dict[str, object]] = {}
    for spec in args.pool:
        pool, _, library = spec.partition("=")
        for half in args.half or ["even", "odd"]:
            items = load_items(args.external / pool / "splits" / f"{half}.yaml")
            results[f"{pool}/{half}"] = measure(Path(library), items, only)
            print(f"{pool}/{half}: {json.dumps(results[f'{pool}/{half}'])}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    section = table(results, args.commit)
    if args.write:
        write(section, args.write)
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
