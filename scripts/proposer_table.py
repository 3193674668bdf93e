"""Per answer shape (agent/ask/proposers.py), on each pool half: how often it fires and
what it lifts. Writes the table into docs/benchmarks.md (issue 38, Build 5).

For each half: one traced run (every proposer proposes, `ask --trace`) gives each shape's
trigger rate (a proposer returned a candidate; a reviser changed the answer) and how often
it won; then one run per shape with that shape disabled by name gives the accuracy (and the
share of unanswerable questions refused) without it. Lift = with - without.

    python scripts/proposer_table.py --pool qasper=LIB --pool tatqa=LIB [--half even --half odd]
        [--extra NAME=LIB=QA.yaml [--unscoped NAME]] [--only table,draft] [--handlers]
        [--json out.json] [--from-json earlier.json] [--write docs/benchmarks.md]

`--handlers` also measures the handlers inside the `table` proposer (agent/numeric/numeric_answer.py
`answer_numeric` tries them in turn; each is switched off here by wrapping the module's
function for this process only: a measurement, nothing in the code changes). A shape or
handler that never fires in the traced run cannot change an answer when disabled, so its
lift is 0 without a run.

LIB is a library of that pool's corpus (e.g. /tmp/citewise-pools/<state>/qasper-lib, made
by `../shared/tools/pools`); the items are `../shared/qa/external/<pool>/splits/<half>.yaml`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from citewise.agent.ask.answer import Answer
from citewise.agent.ask.trace import fired
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


# the handlers `answer_numeric` tries in turn (agent/numeric/numeric_answer.py), as it names them
HANDLERS = ("table_answer",)


class Handlers:
    """Records which of the table proposer's handlers answered, and switches one off."""

    def __init__(self) -> None:
        self.off: str | None = None
        self.answered: set[str] = set()
        from citewise.agent.numeric import numeric_answer

        for name in HANDLERS:
            original = getattr(numeric_answer, name, None)
            if original is not None:
                setattr(numeric_answer, name, self._wrapped(name, original))

    def _wrapped(self, name: str, original: Callable[..., object]) -> Callable[..., object]:
        def handler(*args: object, **kwargs: object) -> object:
            if name == self.off:
                return None
            found = original(*args, **kwargs)
            if found is not None:
                self.answered.add(name)
            return found

        return handler


def measure(
    library: Path,
    items: list[QAItem],
    only: set[str],
    handlers: Handlers | None,
    scoped: bool = True,
) -> dict[str, object]:
    """One half: the traced run, then one run per disabled shape (and handler)."""
    with Library(library) as lib:
        names = file_name_map([(d.id, d.path) for d in lib.documents()])
        lib.ask("warm up", review=False)
        registry = lib.answerer.registry
        fired_by_item: list[set[str]] = []
        winners: list[object] = []

        def traced(question: str, docs: list[str]) -> Answer:
            if handlers:
                handlers.answered = set()
            answer = lib.ask(question, docs, 8, review=False, trace=True)
            shapes = fired(answer.pipeline or {})
            shapes |= {f"table:{h}" for h in (handlers.answered if handlers else ())}
            fired_by_item.append(shapes)
            winners.append((answer.pipeline or {}).get("winner"))
            return answer

        def untraced(question: str, docs: list[str]) -> Answer:
            return lib.ask(question, docs, 8, review=False)

        started = time.perf_counter()
        full = evaluate(items, traced, names, scope_docs=scoped).items
        accuracy, refused = _rates(full)
        shapes: dict[str, dict[str, float]] = {}
        measured = registry.names() + [f"table:{h}" for h in (HANDLERS if handlers else ())]
        for name in measured:
            if only and name.split(":")[-1] not in only and name not in only:
                continue
            trigger = sum(name in f for f in fired_by_item) / len(items)
            without = full
            if trigger:
                if handlers and name.startswith("table:"):
                    handlers.off = name.split(":", 1)[1]
                else:
                    registry.disabled = {name}
                try:
                    without = evaluate(items, untraced, names, scope_docs=scoped).items
                finally:
                    registry.disabled = set()
                    if handlers:
                        handlers.off = None
            acc, ref = _rates(without)
            shapes[name] = {
                "trigger": trigger,
                "won": sum(w == name for w in winners) / len(items),
                "accuracy_without": acc,
                "lift": accuracy - acc,
                "refused_lift": refused - ref if unanswerable_in(full) else float("nan"),
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


def meets(shape: dict[str, float]) -> bool:
    """Issue 38's rule on one half: fires on at least MIN_TRIGGER of it and lifts its
    accuracy or its unanswerable refusals."""
    refused = shape["refused_lift"]
    lifts = shape["lift"] > 0 or (refused == refused and refused > 0)
    return shape["trigger"] >= MIN_TRIGGER and lifts


def unanswerable_in(rows: list[dict[str, object]]) -> bool:
    return any(not r["answerable"] for r in rows)


def _pct(value: float) -> str:
    return "—" if value != value else f"{100 * value:.1f}%"  # NaN: no such items


def _signed(value: float) -> str:
    return "—" if value != value else f"{value:+.3f}"


def table(results: dict[str, dict[str, object]], commit: str) -> str:
    """The Markdown section: one row per shape, one column per set; each cell is
    "fired · lift" (refusal lift after a slash where the set has unanswerable items and it
    moved), marked ✗ where the shape misses the rule on that set."""
    sets = list(results)
    names: list[str] = []
    for result in results.values():
        for name in result["shapes"]:  # type: ignore[attr-defined]  # JSON-shaped dict
            if name not in names:
                names.append(name)
    lines = [
        START,
        "## Answer shapes: trigger rate and lift per set (`scripts/proposer_table.py`)",
        "",
        f"At {commit}, no model, each set on a library of its own corpus. A cell is *fired · "
        "lift*. Fired: the share of items on which the proposer returned a candidate (a "
        "reviser: changed the answer; a `table:` handler, inside the `table` proposer in "
        "agent/numeric/numeric_answer.py: gave the table's answer), in a traced run where every "
        "proposer proposes. Lift: accuracy on answerable items with every shape minus "
        "accuracy with this one disabled (`CITEWISE_DISABLE_PROPOSERS=name`), after a slash "
        "the same for the share of unanswerable items refused, when it moved. ✗: below "
        f"issue 38's rule on that set (fires on under {MIN_TRIGGER:.0%} of it, or lifts "
        "neither). The pools' odd halves and the three project sets were developed on; "
        "the even halves were not.",
        "",
        "| shape | " + " | ".join(sets) + " |",
        "|---|" + "---:|" * len(sets),
        "| accuracy (n) | "
        + " | ".join(
            f"{float(results[x]['accuracy']):.3f} ({results[x]['n']})"  # type: ignore[arg-type]  # JSON
            for x in sets
        )
        + " |",
    ]
    for name in names:
        cells = []
        for x in sets:
            shape = results[x]["shapes"].get(name)  # type: ignore[attr-defined]  # JSON
            if shape is None:
                cells.append("")
                continue
            cell = f"{_pct(shape['trigger'])} · {_signed(shape['lift'])}"
            refused = shape["refused_lift"]
            if refused == refused and refused:
                cell += f" / {_signed(refused)}"
            cells.append(cell if meets(shape) else cell + " ✗")
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
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
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="NAME=LIBRARY=QA.yaml",
        help="another set, whole (e.g. a set the project developed on); scoped to its docs",
    )
    parser.add_argument("--unscoped", action="append", default=[], metavar="NAME")
    parser.add_argument("--half", action="append", default=[], choices=("odd", "even"))
    parser.add_argument("--only", default="", help="comma-separated shape names")
    parser.add_argument("--handlers", action="store_true", help="also the table's handlers")
    parser.add_argument("--external", type=Path, default=EXTERNAL, help="the pools' folder")
    parser.add_argument("--commit", default="this tree", help="named in the table")
    parser.add_argument("--json", type=Path, help="write the numbers here")
    parser.add_argument(
        "--from-json", action="append", type=Path, default=[], help="numbers of earlier runs"
    )
    parser.add_argument("--write", type=Path, help="put the table in this Markdown file")
    args = parser.parse_args(argv)
    if not args.pool and not args.extra and not args.from_json:
        parser.error("give --pool qasper=LIBRARY (and/or tatqa=LIBRARY), or --from-json")
    only = {n.strip() for n in args.only.split(",") if n.strip()}
    handlers = Handlers() if args.handlers else None
    results: dict[str, dict[str, object]] = {}
    for earlier in args.from_json:
        results.update(json.loads(earlier.read_text(encoding="utf-8")))
    for spec in args.pool:
        pool, _, library = spec.partition("=")
        for half in args.half or ["even", "odd"]:
            items = load_items(args.external / pool / "splits" / f"{half}.yaml")
            results[f"{pool}/{half}"] = measure(Path(library), items, only, handlers)
            print(f"{pool}/{half}: {json.dumps(results[f'{pool}/{half}'])}", file=sys.stderr)
    for spec in args.extra:
        name, library, qa_file = spec.split("=", 2)
        scoped = name not in args.unscoped
        results[name] = measure(Path(library), load_items(Path(qa_file)), only, handlers, scoped)
        print(f"{name}: {json.dumps(results[name])}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    section = table(results, args.commit)
    if args.write:
        write(section, args.write)
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
