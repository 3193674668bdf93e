"""Matrix cells checked against the QASPER pool's own questions: an external gold, by half.

    python benchmarks/matrix_qasper.py --library LIB [--half odd|even|both] [--show] [--json]
        [--pool DIR] [--forms FILE] [--gold FILE]
matrix_gold.yaml is read from the script's tree, or for a copy outside one from ./benchmarks
(run it from a citewise tree). The forms file is found
beside the script under its name + "_forms.txt" (a copy /tmp/x_mq.py reads /tmp/x_mq_forms.txt),
else in this tree's benchmarks/. --pool: the QASPER pool's folder (splits/odd.yaml, even.yaml).

QASPER's annotators asked questions that a matrix column answers ("what datasets are used?",
"what were the evaluation metrics?", "what were the baselines?", "how big is the dataset?").
Which question asks which column is decided by the hand-written question forms in
benchmarks/matrix_qasper_forms.txt (its header says how it was written). Yes/no and
unanswerable items are never scored; neither is an item whose every answer is a sentence
rather than a name (more than SENTENCE_WORDS words once placeholders are dropped).

Each asked paper's cell is computed fresh, as `citewise matrix --columns` computes it (the
column name normalised as `--columns` normalises it, `cell_for` over the library's gazetteer,
no model, no matrix cache). LIB must hold the pool's papers (matched by file name).

The matching rule (`Forms.names_item`, `Forms.names_answer`):
- Text is normalised: Unicode NFKC, dashes and quotes folded, the converter's placeholders
  (BIBREF3, TABREF2, INLINEFORM0, ...) dropped, lower case, split into words of letters and
  digits; a word loses a plural "s" (four or more letters, not "ss"); the spellings the forms
  file's [same] section joins become one ("F-measure", "F-score", "F1" -> "f1").
- A gold answer (one `accept` string) is a list of items split at "," ";" "/" "&" and the
  words "and" / "or". A parenthesis is dropped from its item; when it holds one word with a
  capital letter in the gold ("(HRC)"), that abbreviation alone names the item too.
- An item's distinctive words are its words minus the forms file's [generic] words ("the",
  "dataset", "model", ...), or all its words when none is left. A cell names an item when the
  cell holds every distinctive word of the item, or when one of the cell's parts (split as an
  answer is) is a shorter form of the item: the part's distinctive words, not only numbers,
  all among the item's words and covering at least half of the distinctive words of the
  item's head, its words before the first [head ends] word such as "of", "at" ("Lakeside
  2019" names "Lakeside 2019 Welsh NER", "recall" names "recall at a fixed cutoff"; "Welsh"
  names neither). In the `dataset size` column an item holding a number is named when the
  cell holds each of its numbers (commas and thin spaces between thousands dropped, "10K",
  "64M", "1.3 million" read as 10000, 64000000, 1300000), whatever its words.
- A filled cell is **right** when it names at least one item of one accept string; it
  **names all** when it names every item of one accept string. "not stated" is a miss.
Printed per half and column: questions, filled, right, precision (right / filled), recall
(right / questions), names all. The papers of matrix_gold.yaml's judge parts (JUDGE_PARTS; only
their file names are read) are left out of the odd half's totals and of --show, which is
allowed on the odd half only: the even half prints totals, nobody reads its items.
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

# beside the script, named after it: a copy /tmp/x_mq.py reads /tmp/x_mq_forms.txt
FORMS = Path(__file__).resolve().with_name(Path(__file__).stem + "_forms.txt")
if not FORMS.is_file():
    FORMS = ROOT / "benchmarks" / "matrix_qasper_forms.txt"
GOLD = ROOT / "benchmarks" / "matrix_gold.yaml"  # the judge parts
if not GOLD.is_file():  # a copy outside a tree: the tree it is run from
    GOLD = Path("benchmarks") / "matrix_gold.yaml"
POOL = Path("/work/shared/qa/external/qasper")
JUDGE_PARTS = ("held-out-7", "held-out-8", "held-out-9")
SENTENCE_WORDS = 12
SIZE_COLUMN = "dataset size"

_PLACEHOLDER = re.compile(
    r"\b(?:BIBREF|TABREF|FIGREF|SECREF|EQREF|INLINEFORM|DISPLAYFORM|UID)\d+\b"
)
_SPLIT = re.compile(r"\s*(?:[,;/&]|\band\b|\bor\b)\s*", re.I)
_PAREN = re.compile(r"\(([^()]*)\)")
_WORD = re.compile(r"[a-z0-9]+")
_NUMBER = re.compile(r"(\d+(?:\.\d+)?)\s*(k|m|b|thousand|million|billion)?\b", re.I)
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "billion": 1e9}


@dataclass(frozen=True)
class Item:
    """One thing a gold answer (or a cell) names: its words, its distinctive words (no generic
    word), an abbreviation given in parentheses, its numbers."""

    text: str
    words: frozenset[str]
    distinctive: frozenset[str]
    head: frozenset[str]  # distinctive words before the first head end ("of", "at", ...)
    abbreviation: frozenset[str]
    numbers: frozenset[float]


@dataclass(frozen=True)
class Forms:
    columns: dict[str, list[re.Pattern[str]]]
    exclude: list[re.Pattern[str]]
    generic: frozenset[str]
    same: tuple[tuple[tuple[str, ...], str], ...] = ()  # (spelling, kept), longest first
    head_ends: frozenset[str] = frozenset()

    def column(self, question: str) -> str | None:
        """The column a question asks, or None (no form, an excluded form, or two columns)."""
        q = " ".join(question.split())
        if any(p.search(q) for p in self.exclude):
            return None
        hits = [c for c, forms in self.columns.items() if any(p.search(q) for p in forms)]
        return hits[0] if len(hits) == 1 else None

    def words(self, text: str) -> list[str]:
        """Normalised words, one spelling per name ("F-measure" -> "f1")."""
        found = [_stem(w) for w in _WORD.findall(clean(text).lower())]
        out, i = [], 0
        while i < len(found):
            for spelling, kept in self.same:
                if tuple(found[i : i + len(spelling)]) == spelling:
                    out.append(kept)
                    i += len(spelling)
                    break
            else:
                out.append(found[i])
                i += 1
        return out

    def items(self, answer: str) -> list[Item]:
        out = []
        for part in _SPLIT.split(clean(answer)):
            abbreviation: frozenset[str] = frozenset()
            for inner in _PAREN.findall(part):
                if len(inner.split()) == 1 and any(c.isupper() for c in inner):
                    abbreviation = frozenset(self.words(inner))
            bare = _PAREN.sub(" ", part)
            every = self.words(bare)
            if not every and not abbreviation:
                continue
            distinctive = [w for w in every if w not in self.generic] or every
            cut = next((i for i, w in enumerate(every) if w in self.head_ends), len(every))
            head = [w for w in every[:cut] if w not in self.generic] or distinctive
            out.append(
                Item(
                    part,
                    frozenset(every),
                    frozenset(distinctive),
                    frozenset(head),
                    abbreviation,
                    frozenset(numbers(bare)),
                )  # fmt: skip
            )
        return out

    def names_item(self, cell: str, item: Item, column: str) -> bool:
        """The cell names the item: it holds the item's distinctive words (or its abbreviation,
        or in the size column its numbers), or one of the cell's parts is a shorter form of the
        item (its distinctive words, not only numbers, all in the item and covering at least
        half of the distinctive words of the item's head)."""
        if column == SIZE_COLUMN and item.numbers:
            return item.numbers <= numbers(cell)
        have = set(self.words(cell))
        if item.abbreviation and item.abbreviation <= have:
            return True
        if item.distinctive and item.distinctive <= have:
            return True
        for part in self.items(cell):
            shared = part.distinctive & item.head
            if (part.distinctive and part.distinctive <= item.words
                    and any(not w.isdigit() for w in part.distinctive)
                    and 2 * len(shared) >= len(item.head)):  # fmt: skip
                return True
        return False

    def names_answer(self, cell: str, accept: list[str], column: str) -> tuple[bool, bool]:
        """(names an item of some accept string, names every item of some accept string)."""
        one = every = False
        for answer in accept:
            found = [self.names_item(cell, i, column) for i in self.items(answer)]
            one = one or any(found)
            every = every or (bool(found) and all(found))
        return one, every


def read_forms(text: str) -> Forms:
    sections: dict[str, list[str]] = {}
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head = re.fullmatch(r"\[(.+)\]", line)
        if head:
            current = head.group(1).strip()
            sections[current] = []
        elif current is None:
            raise SystemExit(f"the forms file: a line before any section: {line!r}")
        else:
            sections[current].append(line)
    columns = {
        name.split(":", 1)[1].strip(): [re.compile(p, re.I) for p in lines]
        for name, lines in sections.items()
        if name.startswith("column:")
    }
    exclude = [re.compile(p, re.I) for p in sections.get("exclude", [])]
    generic = frozenset(_stem(w) for line in sections.get("generic", []) for w in line.split())
    same = []
    for line in sections.get("same", []):
        spellings = [tuple(_stem(w) for w in _WORD.findall(s.lower())) for s in line.split(" = ")]
        same += [(s, " ".join(spellings[0])) for s in spellings if s]
    same.sort(key=lambda pair: -len(pair[0]))
    ends = frozenset(w for line in sections.get("head ends", []) for w in line.split())
    return Forms(columns, exclude, generic, tuple(same), ends)


def _stem(word: str) -> str:
    return word[:-1] if len(word) >= 4 and word.endswith("s") and not word.endswith("ss") else word


def clean(text: str) -> str:
    text = _PLACEHOLDER.sub(" ", unicodedata.normalize("NFKC", text))
    text = re.sub(r"[‐‑‒–—−]", "-", text).replace("’", "'").replace("“", '"').replace("”", '"')
    return " ".join(text.split())


def numbers(text: str) -> set[float]:
    text = clean(text)
    text = re.sub(r"(?<=\d)[,\u2009\u202f](?=\d{3}\b)", "", text)
    text = re.sub(r"\b(\d{1,3}) (?=\d{3}\b)", r"\1", text)  # "13 000"
    out = set()
    for m in _NUMBER.finditer(text):
        scale = _SCALE.get((m.group(2) or "").lower(), 1.0)
        out.add(round(float(m.group(1)) * scale, 6))
    return out


def is_sentence(accept: list[str]) -> bool:
    return all(len(clean(a).split()) > SENTENCE_WORDS for a in accept)


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
