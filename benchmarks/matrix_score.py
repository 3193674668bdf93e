"""The literature matrix and `setup` scored against hand labels (benchmarks/matrix_gold.yaml).

    python benchmarks/matrix_score.py --library LIB
        [--part dev|held-out-2|held-out-3|held-out-4|held-out-5|held-out-6|held-out-7|held-out-8
                |held-out-9|held-out-10|held-out-11|held-out-12|held-out-13|all]
        [--show] [--json]

LIB holds the gold papers (the QASPER pool's Markdown and ../shared/corpus's PDFs; matched by
file name). Cells are computed fresh, without a model and without the matrix cache, exactly
as `citewise matrix` and `citewise setup` compute them. Printed per part:

- matrix, per column and over the six: cells filled, right, precision (right / filled),
  recall (right / cells the paper states), and cells made up where the gold says the paper
  states nothing;
- setup: values given, precision (right values / values given), recall (stated settings with a
  right value / stated settings), made-up settings, and learning rate / batch size / epochs
  read exactly (the first value's numbers all among the paper's).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citewise.agent.comparison.aspects import load_paper  # noqa: E402
from citewise.agent.comparison.compare import cell_for  # noqa: E402
from citewise.agent.comparison.matrix import cached_gazetteer  # noqa: E402
from citewise.agent.comparison.setup import extract_setup  # noqa: E402
from citewise.store.factory import open_store  # noqa: E402

GOLD = ROOT / "benchmarks" / "matrix_gold.yaml"
EXACT = ("learning rate", "batch size", "epochs")
_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e-?\d+)?", re.I)


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower().replace("…", " ")
    text = re.sub(r"[‐‑‒–—]", "-", text)
    text = text.replace("’", "'")
    text = re.sub(
        r"https?://(?:www\.)?", "", text
    )  # a link is the same link with or without its scheme
    return re.sub(r"\s+", " ", text).strip()


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def numbers(text: str) -> set[float]:
    out = set()
    # a thousands comma joins a number ("5,415"); any other comma separates ("{0.1,0.2}")
    for m in _NUMBER.finditer(_THOUSANDS.sub("", text)):
        try:
            out.add(float(m.group()))
        except ValueError:
            continue
    return out


def names_key(value: str, keys: list[str]) -> bool:
    v = norm(value)
    return any(norm(str(k)) in v for k in keys)


def setting_right(value: str, gold: list[str], numeric: bool) -> bool:
    v = norm(value)
    if numeric:
        found = numbers(v)
        allowed = set().union(*(numbers(norm(str(g))) for g in gold))
        if found:
            return found <= allowed
    return any(norm(str(g)) in v or (len(v) >= 3 and v in norm(str(g))) for g in gold)


@dataclass
class Tally:
    filled: int = 0
    right: int = 0
    stated: int = 0
    made_up: int = 0

    def row(self) -> dict[str, Any]:
        p = self.right / self.filled if self.filled else None
        r = self.right / self.stated if self.stated else None
        return {"filled": self.filled, "right": self.right, "stated": self.stated,
                "precision": _r(p), "recall": _r(r), "made_up": self.made_up}  # fmt: skip


def _r(x: float | None) -> float | None:
    return round(x, 3) if x is not None else None


@dataclass
class SetupTally:
    given: int = 0
    right_values: int = 0
    stated: int = 0
    found: int = 0
    made_up: int = 0
    exact: list[bool] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        return {
            "values": self.given,
            "precision": _r(self.right_values / self.given if self.given else None),
            "stated": self.stated,
            "recall": _r(self.found / self.stated if self.stated else None),
            "made_up": self.made_up,
            "lr_batch_epochs_exact": f"{sum(self.exact)}/{len(self.exact)}",
        }


def score(library: Path, part: str, show: bool) -> dict[str, Any]:
    gold = yaml.safe_load(GOLD.read_text())
    columns: list[str] = gold["columns"]
    fields: list[str] = gold["setup_fields"]
    numeric = set(gold["numeric_fields"])
    store = open_store(library, library)
    by_file = {Path(d.path).name: d for d in store.documents()}
    gazetteer = cached_gazetteer(store)
    tallies = {c: Tally() for c in columns}
    setup = SetupTally()
    lines = []
    for entry in gold["papers"]:
        if part != "all" and entry["part"] != part:
            continue
        doc = by_file.get(entry["file"])
        if doc is None:
            raise SystemExit(f"{entry['file']} is not in {library}")
        paper = load_paper(store, doc)
        for column in columns:
            keys = entry["matrix"].get(column)
            cell = cell_for(paper, column, gazetteer)
            t = tallies[column]
            t.stated += keys is not None
            if cell.stated:
                t.filled += 1
                ok = keys is not None and names_key(cell.value, keys)
                t.right += ok
                t.made_up += keys is None
                mark = "ok" if ok else ("MADE-UP" if keys is None else "wrong")
            else:
                mark = "missed" if keys is not None else "ok-none"
            lines.append(f"{entry['file']:22} {column:12} {mark:8} {cell.value[:90]!r}")
        settings = extract_setup(paper, gazetteer, tuple(fields))
        stated = entry.get("setup") or {}
        for item in settings.items:
            values = [f.shown for f in item.findings]
            want = stated.get(item.aspect)
            setup.given += len(values)
            if want is None:
                setup.made_up += bool(values)
                for v in values:
                    lines.append(f"{entry['file']:22} setup:{item.aspect:16} MADE-UP {v[:70]!r}")
                continue
            setup.stated += 1
            rights = [setting_right(v, want, item.aspect in numeric) for v in values]
            setup.right_values += sum(rights)
            setup.found += any(rights)
            if item.aspect in EXACT:
                setup.exact.append(bool(rights) and rights[0])
            marks = ["" if ok else " (wrong)" for ok in rights]
            shown = ", ".join(f"{v[:40]!r}{m}" for v, m in zip(values, marks, strict=True))
            lines.append(f"{entry['file']:22} setup:{item.aspect:16} {shown or 'missed'}")
    store.close()
    total = Tally()
    for t in tallies.values():
        total.filled += t.filled
        total.right += t.right
        total.stated += t.stated
        total.made_up += t.made_up
    if show:
        print("\n".join(lines))
    return {
        "part": part,
        "matrix": {c: t.row() for c, t in tallies.items()} | {"six columns": total.row()},
        "setup": setup.row(),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", type=Path, required=True)
    parts = (
        "dev",
        "held-out-2",
        "held-out-3",
        "held-out-4",
        "held-out-5",
        "held-out-6",
        "held-out-7",
        "held-out-8",
        "held-out-9",
        "held-out-10",
        "held-out-11",
        "held-out-12",
        "held-out-13",
        "all",
    )
    ap.add_argument("--part", default="dev", choices=parts)
    ap.add_argument("--show", action="store_true", help="print every cell and its verdict")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = score(args.library, args.part, args.show)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"part: {result['part']}")
    print(f"{'column':14} filled right stated precision recall made_up")
    for column, row in result["matrix"].items():
        print(f"{column:14} {row['filled']:6} {row['right']:5} {row['stated']:6} "
              f"{row['precision']!s:9} {row['recall']!s:6} {row['made_up']}")  # fmt: skip
    s = result["setup"]
    print(f"setup: values {s['values']}, precision {s['precision']}, recall {s['recall']} "
          f"({s['stated']} stated), made up {s['made_up']}, "
          f"learning rate / batch size / epochs exact {s['lr_batch_epochs_exact']}")  # fmt: skip


if __name__ == "__main__":
    main()
