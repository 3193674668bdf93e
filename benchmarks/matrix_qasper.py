"""Matrix cells checked against the QASPER pool's own questions: an external gold, by half.

    python benchmarks/matrix_qasper.py --library LIB [--half odd|even|both] [--show] [--json]
        [--pool DIR] [--forms FILE] [--gold FILE]
matrix_gold.yaml is read from the script's tree, or for a copy outside one from ./benchmarks
(run it from a citewise tree). The forms file and the matching rule's module are found beside
the script under its name + "_forms.txt" and + "_match.py" (a copy /tmp/x_mq.py reads
/tmp/x_mq_forms.txt and loads /tmp/x_mq_match.py), else in this tree's benchmarks/.
--pool: the QASPER pool's folder (splits/odd.yaml, even.yaml).

QASPER's annotators asked questions that a matrix column answers ("what datasets are used?",
"what were the evaluation metrics?", "what were the baselines?", "how big is the dataset?").
Which question asks which column is decided by the hand-written question forms in
benchmarks/matrix_qasper_forms.txt (its header says how it was written). Yes/no and
unanswerable items are never scored; neither is an item whose every answer is a sentence
rather than a name (more than SENTENCE_WORDS words once placeholders are dropped).

Each asked paper's cell is computed fresh, as `citewise matrix --columns` computes it (the
column name normalised as `--columns` normalises it, `cell_for` over the library's gazetteer,
no model, no matrix cache). LIB must hold the pool's papers (matched by file name).

How the forms file is read and when a cell names a gold answer (the matching rule,
`Forms.names_item`, `Forms.names_answer`) is benchmarks/matrix_qasper_match.py; this script
picks the questions, computes the cells and tallies them.

Printed per half and column: questions, filled, right, precision (right / filled), recall
(right / questions), names all. The papers of matrix_gold.yaml's judge parts (JUDGE_PARTS; only
their file names are read) are left out of the odd half's totals and of --show, which is
allowed on the odd half only: the even half prints totals, nobody reads its items.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def beside(suffix: str, name: str) -> Path:
    """A file beside the script, named after it (a copy /tmp/x_mq.py: /tmp/x_mq{suffix}),
    else this tree's benchmarks/`name`."""
    found = Path(__file__).resolve().with_name(Path(__file__).stem + suffix)
    return found if found.is_file() else ROOT / "benchmarks" / name


def load_match(path: Path) -> ModuleType:
    """The forms reading and matching rule (matrix_qasper_match.py, or a copy's own)."""
    if not path.is_file():
        copy = Path(__file__).resolve().with_name(Path(__file__).stem + "_match.py")
        raise SystemExit(
            f"{path} not found: copy it beside the script, e.g. git show "
            f"BRANCH:benchmarks/matrix_qasper_match.py > {copy}"
        )
    spec = importlib.util.spec_from_file_location("matrix_qasper_match", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


_match = load_match(beside("_match.py", "matrix_qasper_match.py"))
Forms = _match.Forms
read_forms = _match.read_forms
is_sentence = _match.is_sentence
SENTENCE_WORDS: int = _match.SENTENCE_WORDS

FORMS = beside("_forms.txt", "matrix_qasper_forms.txt")
GOLD = ROOT / "benchmarks" / "matrix_gold.yaml"  # the judge parts
if not GOLD.is_file():  # a copy outside a tree: the tree it is run from
    GOLD = Path("benchmarks") / "matrix_gold.yaml"
POOL = Path("/work/shared/qa/external/qasper")
JUDGE_PARTS = ("held-out-7", "held-out-8", "held-out-9")


@dataclass
class Question:
    id: str
    doc: str
    column: str
    question: str
    accept: list[str]


def asked(items_: list[dict[str, Any]], forms: Forms) -> tuple[list[Question], int]:
    """The items that ask a column, and how many more matched a form but answer with a sentence."""
    out, sentences = [], 0
    for it in items_:
        if not it.get("answerable") or it.get("type") == "yes_no":
            continue
        column = forms.column(it["question"])
        if column is None:
            continue
        accept = [str(a) for a in it.get("accept") or []]
        if is_sentence(accept):
            sentences += 1
            continue
        out.append(Question(it["id"], it["doc"], column, it["question"], accept))
    return out, sentences


@dataclass
class Tally:
    questions: int = 0
    filled: int = 0
    right: int = 0
    names_all: int = 0

    def add(self, other: Tally) -> None:
        self.questions += other.questions
        self.filled += other.filled
        self.right += other.right
        self.names_all += other.names_all

    def row(self) -> dict[str, Any]:
        p = self.right / self.filled if self.filled else None
        r = self.right / self.questions if self.questions else None
        return {"questions": self.questions, "filled": self.filled, "right": self.right,
                "precision": _r(p), "recall": _r(r), "names_all": self.names_all}  # fmt: skip


def _r(x: float | None) -> float | None:
    return round(x, 3) if x is not None else None


def judge_files(gold: Path = GOLD) -> set[str]:
    """The file names of the judge parts' papers (their entries are not looked at)."""
    if not gold.is_file():
        raise SystemExit(f"{gold} not found: run from a citewise tree or give --gold")
    papers = yaml.safe_load(gold.read_text()).get("papers") or []
    return {str(p["file"]) for p in papers if p.get("part") in JUDGE_PARTS}


@dataclass
class Half:
    name: str
    tallies: dict[str, Tally] = field(default_factory=dict)
    left_out: int = 0  # questions on judge papers
    sentences: int = 0  # questions whose every answer is a sentence
    lines: list[str] = field(default_factory=list)


class Cells:
    """Matrix cells computed on demand, one per (paper, column), as `citewise matrix` does."""

    def __init__(self, library: Path) -> None:
        from citewise.agent.comparison.matrix import cached_gazetteer
        from citewise.store.factory import open_store

        if not (library / "library.db").is_file():
            raise SystemExit(f"{library} holds no citewise library (no library.db)")
        self.store = open_store(library, library)
        self.by_file = {Path(d.path).name: d for d in self.store.documents()}
        self.gazetteer = cached_gazetteer(self.store)
        self.papers: dict[str, Any] = {}
        self.cells: dict[tuple[str, str], Any] = {}

    def cell(self, file: str, column: str) -> Any:
        from citewise.agent.comparison.aspects import load_paper, normalise_aspect
        from citewise.agent.comparison.compare import cell_for

        key = (file, column)
        if key not in self.cells:
            doc = self.by_file.get(file)
            if doc is None:
                raise SystemExit(f"{file} is not in the library")
            if file not in self.papers:
                self.papers[file] = load_paper(self.store, doc)
            self.cells[key] = cell_for(self.papers[file], normalise_aspect(column), self.gazetteer)
        return self.cells[key]

    def close(self) -> None:
        self.store.close()


def score_half(
    name: str, cells: Cells, forms: Forms, judges: set[str], show: bool, pool: Path = POOL
) -> Half:
    data = yaml.safe_load((pool / "splits" / f"{name}.yaml").read_text())
    questions, sentences = asked(data, forms)
    half = Half(name, {c: Tally() for c in forms.columns}, sentences=sentences)
    for q in questions:
        if name == "odd" and q.doc in judges:
            half.left_out += 1
            continue
        cell = cells.cell(q.doc, q.column)
        t = half.tallies[q.column]
        t.questions += 1
        mark = "missed"
        if cell.stated:
            t.filled += 1
            one, every = forms.names_answer(cell.value, q.accept, q.column)
            t.right += one
            t.names_all += every
            mark = ("right, names all" if every else "right") if one else "wrong"
        if show:
            quote = cell.finding.quote if cell.finding else ""
            half.lines.append(
                f"{q.id} {q.doc} [{q.column}] {mark}\n   Q: {q.question}\n"
                f"   cell: {cell.value!r}\n   quote: {quote[:300]!r}\n   gold: {q.accept!r}"
            )
    return half


def report(half: Half) -> dict[str, Any]:
    total = Tally()
    for t in half.tallies.values():
        total.add(t)
    return {
        "half": half.name,
        "columns": {c: t.row() for c, t in half.tallies.items()} | {"all": total.row()},
        "left_out_judge_questions": half.left_out,
        "left_out_sentence_answers": half.sentences,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("--half", default="both", choices=("odd", "even", "both"))
    ap.add_argument("--show", action="store_true", help="each odd-half question's cell and gold")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--pool", type=Path, default=POOL, help="the QASPER pool (its splits/)")
    ap.add_argument("--forms", type=Path, default=FORMS, help="the question forms file")
    ap.add_argument("--gold", type=Path, default=GOLD, help="matrix_gold.yaml (judge parts)")
    args = ap.parse_args()
    if args.show and args.half != "odd":
        ap.error("--show reads items: odd half only (--half odd)")
    if not args.forms.is_file():
        raise SystemExit(
            f"{args.forms} not found: copy it beside the script, e.g. git show "
            "qasper8:benchmarks/matrix_qasper_forms.txt > /tmp/NAME_mq_forms.txt, or give --forms"
        )
    forms = read_forms(args.forms.read_text(encoding="utf-8"))
    judges = judge_files(args.gold)
    cells = Cells(args.library)
    halves = ("odd", "even") if args.half == "both" else (args.half,)
    results = []
    for name in halves:
        half = score_half(name, cells, forms, judges, args.show, args.pool)
        if args.show:
            print("\n".join(half.lines))
        results.append(report(half))
    cells.close()
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for r in results:
        print(f"half: {r['half']} (left out: {r['left_out_judge_questions']} questions on judge "
              f"papers, {r['left_out_sentence_answers']} answered by a sentence)")  # fmt: skip
        print(f"{'column':18} questions filled right precision recall names_all")
        for column, row in r["columns"].items():
            print(f"{column:18} {row['questions']:9} {row['filled']:6} {row['right']:5} "
                  f"{row['precision']!s:9} {row['recall']!s:6} {row['names_all']}")  # fmt: skip


if __name__ == "__main__":
    main()
