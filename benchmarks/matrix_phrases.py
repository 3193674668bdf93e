"""Free-phrase columns over a whole library: every answered cell, to judge by reading it.

    python benchmarks/matrix_phrases.py --library LIB "loss function,beam size" [--judged FILE]

Prints, per phrase, the papers answered and each cell with its quote. With --judged (a YAML
mapping phrase -> the files whose cell was judged wrong, see matrix_phrases_judged.yaml) it
also prints answered, right and precision, counting every other answered cell as right; a
cell the judgment file does not know (the code changed) is flagged for reading.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citewise.agent.comparison.aspects import load_paper  # noqa: E402
from citewise.agent.comparison.compare import cell_for  # noqa: E402
from citewise.agent.comparison.matrix import cached_gazetteer  # noqa: E402
from citewise.store.factory import open_store  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("phrases")
    ap.add_argument("--judged", type=Path)
    ap.add_argument("--full", action="store_true", help="whole values and quotes, to judge them")
    args = ap.parse_args()
    judged = yaml.safe_load(args.judged.read_text()) if args.judged else {}
    store = open_store(args.library, args.library)
    gazetteer = cached_gazetteer(store)
    phrases = [p.strip() for p in args.phrases.split(",") if p.strip()]
    answered: dict[str, list[tuple[str, str, str]]] = {p: [] for p in phrases}
    for doc in store.documents():
        paper = load_paper(store, doc)
        for phrase in phrases:
            cell = cell_for(paper, phrase, gazetteer)
            if cell.finding:
                answered[phrase].append((Path(doc.path).name, cell.value, cell.finding.quote))
    store.close()
    for phrase, rows in answered.items():
        verdict = judged.get(phrase) or {}
        wrong = set(verdict.get("wrong", []))
        known = set(verdict.get("answered", []))
        print(f"== {phrase}: {len(rows)} papers")
        for name, value, quote in rows:
            mark = "WRONG" if name in wrong else ("?" if known and name not in known else "")
            if args.full:
                print(f"{mark:5} {name:24} {value!r}\n      <- {quote!r}")
            else:
                print(f"{mark:5} {name:24} {value[:60]!r}  <- {quote[:140]!r}")
        if verdict:
            right = len(rows) - len([r for r in rows if r[0] in wrong])
            print(f"   answered {len(rows)}, right {right}, precision {right / len(rows):.2f}")


if __name__ == "__main__":
    main()
