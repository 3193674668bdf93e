"""Free-phrase columns over a whole library: every answered cell, to judge by reading it.

    python benchmarks/matrix_phrases.py --library LIB "loss function,beam size" [--judged FILE]
    python benchmarks/matrix_phrases.py --library LIB --judged FILE   # every judged phrase

Prints, per phrase, the papers answered and each cell with its quote. With --judged (a YAML
mapping phrase -> the cells judged, each with its file, verdict and the value and quote start
judged; see matrix_phrases_judged.yaml) a cell counts right or wrong only when its value and
quote start today equal the judged ones. Every other answered cell (a new paper, a changed
value or quote, a verdict whose value is unknown) is unjudged: marked "?" and counted apart,
never given an old verdict. The floor (>= 10 judged papers at precision >= 0.75) is checked on
judged cells only. --unjudged FILE writes the unjudged cells in the judged file's format, with
the verdict left for a person to fill in.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

QUOTE_START = 80  # characters of the quote a verdict keeps
FLOOR_PAPERS = 10
FLOOR_PRECISION = 0.75


@dataclass(frozen=True)
class Cell:
    file: str
    value: str
    quote: str


@dataclass
class Scored:
    """One phrase's answered cells sorted by what its verdicts can say of them."""

    phrase: str
    marks: list[tuple[str, Cell, str]] = field(default_factory=list)  # (mark, cell, why)
    reasons: list[str] = field(default_factory=list)  # why each unjudged cell is: one of REASONS
    dropped: int = 0  # judged papers the reader no longer answers

    def count(self, mark: str) -> int:
        return sum(1 for m, _, _ in self.marks if m == mark)

    @property
    def judged(self) -> int:
        return self.count("RIGHT") + self.count("WRONG")

    @property
    def precision(self) -> float | None:
        return self.count("RIGHT") / self.judged if self.judged else None

    @property
    def meets_floor(self) -> bool:
        p = self.precision
        return self.judged >= FLOOR_PAPERS and p is not None and p >= FLOOR_PRECISION


REASONS = ("new", "value changed", "quote moved", "value unknown")


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def score(phrase: str, cells: list[Cell], verdicts: list[dict[str, Any]]) -> Scored:
    """Each cell gets the verdict judged on its own value (and quote start, where one was kept),
    or '?' with why not. A paper may hold several verdicts, one per value judged."""
    by_file: dict[str, list[dict[str, Any]]] = {}
    for verdict in verdicts:
        by_file.setdefault(verdict["file"], []).append(verdict)
    scored = Scored(phrase)
    for cell in cells:
        mark, why, reason = _judge(cell, by_file.get(cell.file, []))
        scored.marks.append((mark, cell, why))
        if reason:
            scored.reasons.append(reason)
    scored.dropped = len(set(by_file) - {c.file for c in cells})
    return scored


def _judge(cell: Cell, verdicts: list[dict[str, Any]]) -> tuple[str, str, str]:
    """(mark, why, reason) for one cell given its paper's verdicts."""
    if not verdicts:
        return "?", "not judged", "new"
    same = [v for v in verdicts if v.get("value") is not None and _same(v["value"], cell.value)]
    if not same:
        if any(v.get("value") is None for v in verdicts):
            return "?", f"judged {verdicts[0]['verdict']}, value unknown", "value unknown"
        was = "; ".join(f"judged {v['verdict']} for value {v['value']!r}" for v in verdicts)
        return "?", was, "value changed"
    # a value may be judged on several quotes (the same count read from two sentences)
    quoted = [v for v in same if "quote" not in v or _same(v["quote"], cell.quote[:QUOTE_START])]
    if not quoted:
        verdict = same[0]
        return "?", f"judged {verdict['verdict']} for quote {verdict['quote']!r}", "quote moved"
    return quoted[0]["verdict"].upper(), "", ""


def unjudged_entries(scored: list[Scored]) -> dict[str, list[dict[str, Any]]]:
    """The unjudged cells, in the judged file's format with the verdict left empty."""
    return {
        s.phrase: [
            {"file": c.file, "verdict": None, "value": c.value, "quote": c.quote[:QUOTE_START]}
            for mark, c, _ in s.marks
            if mark == "?"
        ]
        for s in scored
        if s.count("?")
    }


def summary(s: Scored) -> str:
    p = s.precision
    shown = f"{p:.2f}" if p is not None else "-"
    floor = "meets the floor" if s.meets_floor else "below the floor"
    return (
        f"   answered {len(s.marks)}, judged {s.judged} (right {s.count('RIGHT')}, wrong "
        f"{s.count('WRONG')}, precision {shown}), unjudged {s.count('?')} ({_reasons(s)}); "
        f"{floor} on judged cells; {s.dropped} judged papers no longer answered"
    )


def _reasons(s: Scored) -> str:
    return ", ".join(f"{r} {s.reasons.count(r)}" for r in REASONS if r in s.reasons) or "none"


def read_cells(library: Path, phrases: list[str]) -> dict[str, list[Cell]]:
    from citewise.agent.comparison.aspects import load_paper
    from citewise.agent.comparison.compare import cell_for
    from citewise.agent.comparison.matrix import cached_gazetteer
    from citewise.store.factory import open_store

    store = open_store(library, library)
    gazetteer = cached_gazetteer(store)
    answered: dict[str, list[Cell]] = {p: [] for p in phrases}
    for doc in store.documents():
        paper = load_paper(store, doc)
        for phrase in phrases:
            cell = cell_for(paper, phrase, gazetteer)
            if cell.finding:
                answered[phrase].append(Cell(Path(doc.path).name, cell.value, cell.finding.quote))
    store.close()
    return answered


def _print(s: Scored, full: bool, judged: bool) -> None:
    print(f"== {s.phrase}: {len(s.marks)} papers")
    for mark, c, why in s.marks:
        mark = mark if judged else ""
        if full:
            print(f"{mark:5} {c.file:24} {c.value!r}\n      <- {c.quote!r}")
        else:
            print(f"{mark:5} {c.file:24} {c.value[:60]!r}  <- {c.quote[:140]!r}")
        if why and (full or why != "not judged"):
            print(f"      ({why})")
    if judged:
        print(summary(s))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("phrases", nargs="?", help="comma-separated; default: every judged phrase")
    ap.add_argument("--judged", type=Path)
    ap.add_argument("--full", action="store_true", help="whole values and quotes, to judge them")
    ap.add_argument("--unjudged", type=Path, help="write the unjudged cells here (YAML)")
    ap.add_argument("--json", type=Path, help="write the per-phrase counts here")
    args = ap.parse_args()
    judged = yaml.safe_load(args.judged.read_text()) if args.judged else {}
    if args.phrases:
        phrases = [p.strip() for p in args.phrases.split(",") if p.strip()]
    elif judged:
        phrases = list(judged)
    else:
        ap.error("name the phrases, or give --judged to run every judged phrase")
    cells = read_cells(args.library, phrases)
    scored = [score(p, cells[p], (judged.get(p) or {}).get("cells", [])) for p in phrases]
    for s in scored:
        _print(s, args.full, bool(judged))
    if judged:
        print(
            "\nphrase | answered | right | wrong | unjudged | precision (judged) | floor | dropped"
        )
        for s in scored:
            p = f"{s.precision:.2f}" if s.precision is not None else "-"
            print(
                f"{s.phrase} | {len(s.marks)} | {s.count('RIGHT')} | {s.count('WRONG')} | "
                f"{s.count('?')} ({_reasons(s)}) | {p} | {'yes' if s.meets_floor else 'no'} | "
                f"{s.dropped}"
            )
    if args.unjudged:
        entries = unjudged_entries(scored)
        args.unjudged.write_text(yaml.safe_dump(entries, allow_unicode=True, sort_keys=False))
    if args.json:
        rows = [
            {
                "phrase": s.phrase,
                "answered": len(s.marks),
                "right": s.count("RIGHT"),
                "wrong": s.count("WRONG"),
                "unjudged": s.count("?"),
                "unjudged_why": {r: s.reasons.count(r) for r in REASONS if r in s.reasons},
                "dropped": s.dropped,
                "meets_floor": s.meets_floor,
            }
            for s in scored
        ]
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
