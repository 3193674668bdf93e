"""olmOCR-bench unit tests scored on citewise's reading of each page.

    python -m tests.documents.olmocr_bench [GROUNDTRUTH_DIR]

The page text is the blocks in reading order (tables as rows of cells); table tests look
up cells in the stored grids. Rules follow allenai/olmocr's bench: 'present' / 'absent'
allow `max_diffs` edits, 'order' wants `before` found ahead of `after`, 'table' finds the
cell and checks its neighbours and headings. 'math' tests render LaTeX in olmOCR; here a
formula passes when its symbols, in order, appear in the page text (an approximation; a
base's subscript and superscript may come in either order, as they render alike).
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections import defaultdict
from functools import cache
from pathlib import Path

from citewise.documents.model import Document, Table
from citewise.documents.pdf.reader import read_pdf
from citewise.documents.structure import tables
from tests.conftest import SHARED

BENCH = SHARED / "groundtruth" / "olmocr-bench"
LATEX = {
    r"\lambda": "λ", r"\sum": "∑", r"\zeta": "ζ", r"\psi": "ψ", r"\in": "∈",
    r"\times": "×", r"\prime": "′", r"\mathcal{I}": "I", r"\operatorname{Ann}": "Ann",
}  # fmt: skip


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    for a, b in (("‘‘", '"'), ("’’", '"'), ("“", '"'), ("”", '"'), ("‘", "'"), ("’", "'")):
        text = text.replace(a, b)
    text = re.sub(r"[‐‑‒–—]", "-", text)
    return re.sub(r"\s+", " ", text).strip()


def near_match(pattern: str, text: str, max_diffs: int = 0) -> int | None:
    """Start of the first substring within `max_diffs` edits of `pattern` (Sellers)."""
    if max_diffs == 0:
        at = text.find(pattern)
        return at if at >= 0 else None
    m = len(pattern)
    prev = list(range(m + 1))
    starts = [0] * (m + 1)
    for j, ch in enumerate(text, start=1):
        cur = [0] * (m + 1)
        cur_starts = [j] * (m + 1)
        for i in range(1, m + 1):
            cost = 0 if pattern[i - 1] == ch else 1
            options = (
                (prev[i - 1] + cost, starts[i - 1]),
                (prev[i] + 1, starts[i]),
                (cur[i - 1] + 1, cur_starts[i - 1]),
            )
            cur[i], cur_starts[i] = min(options)
        if cur[m] <= max_diffs:
            return cur_starts[m]
        prev, starts = cur, cur_starts
    return None


@cache
def parsed(name: str) -> Document:
    return read_pdf(BENCH / "pdfs" / name)


def page_text(doc: Document) -> str:
    return normalize("\n\n".join(b.text for b in doc.blocks if b.trusted))


def _cells(table: Table) -> dict[tuple[int, int], str]:
    return {(c.row, c.col): normalize(c.text) for c in table.cells}


def table_test(doc: Document, test: dict) -> bool:
    want = normalize(test["cell"])
    for table in tables((b, b.data) for b in doc.blocks):
        cells = _cells(table)
        for (r, c), text in cells.items():
            if text != want:
                continue
            checks = {
                "left": cells.get((r, c - 1)),
                "right": cells.get((r, c + 1)),
                "up": cells.get((r - 1, c)),
                "down": cells.get((r + 1, c)),
                "top_heading": " ".join(
                    cells.get((h, c), "") for h in range(table.header_rows)
                ).strip(),
                "left_heading": cells.get((r, 0)),
            }
            if all(normalize(test[key]) == (checks[key] or "") for key in checks if test.get(key)):
                return True
    return False


_GROUP = r"(?:\{(?:[^{}]|\{[^{}]*\})*\}|[^\s{}\\])"
_SCRIPTS = re.compile(rf"_({_GROUP})\^({_GROUP})|\^({_GROUP})_({_GROUP})")


def script_orders(latex: str) -> list[str]:
    """`latex` with each base's subscript and superscript in both orders: x_{i}^{2} and
    x^{2}_{i} typeset alike, and olmOCR-bench compares renderings."""
    match = _SCRIPTS.search(latex)
    if match is None:
        return [latex]
    sub, sup = (
        (match.group(1), match.group(2)) if match.group(1) else (match.group(4), match.group(3))
    )
    head, tail = latex[: match.start()], latex[match.end() :]
    return [
        head + f + rest for f in (f"_{sub}^{sup}", f"^{sup}_{sub}") for rest in script_orders(tail)
    ]


def math_test(text: str, latex: str) -> bool:
    return any(_symbols_in_order(text, form) for form in script_orders(latex))


def _symbols_in_order(text: str, latex: str) -> bool:
    for command, symbol in LATEX.items():
        latex = latex.replace(command, symbol)
    latex = re.sub(r"\\(?:left|right|mathcal|operatorname|frac)", "", latex)
    symbols = [ch for ch in latex if not ch.isspace() and ch not in "{}^_\\"]
    squashed = text.replace(" ", "")
    at = 0
    for ch in symbols:  # every symbol, in order
        at = squashed.find(ch, at)
        if at < 0:
            return False
        at += 1
    return True


def run_test(test: dict) -> bool:
    doc = parsed(test["pdf"])
    text = page_text(doc)
    diffs = int(test.get("max_diffs", 0))
    kind = test["type"]
    if kind == "present":
        return near_match(normalize(test["text"]), text, diffs) is not None
    if kind == "absent":
        return near_match(normalize(test["text"]), text, diffs) is None
    if kind == "order":
        before = near_match(normalize(test["before"]), text, diffs)
        after = near_match(normalize(test["after"]), text, diffs)
        return before is not None and after is not None and before < after
    if kind == "table":
        return table_test(doc, test)
    if kind == "math":
        return math_test(text, test["math"])
    raise ValueError(f"unknown test type {kind!r}")


def load_tests(bench: Path = BENCH) -> list[dict]:
    lines = (bench / "tests_subset.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def score(tests: list[dict]) -> dict[str, tuple[int, int]]:
    """type -> (passed, total)."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for test in tests:
        out[test["type"]][0] += run_test(test)
        out[test["type"]][1] += 1
    return {k: (v[0], v[1]) for k, v in sorted(out.items())}


def main() -> None:
    bench = Path(sys.argv[1]) if len(sys.argv) > 1 else BENCH
    results = score(load_tests(bench))
    passed = sum(p for p, _ in results.values())
    total = sum(t for _, t in results.values())
    for kind, (p, t) in results.items():
        print(f"{kind:8} {p}/{t} = {p / t:.2f}")
    print(f"{'overall':8} {passed}/{total} = {passed / total:.2f}")
    for test in load_tests(bench):
        if not run_test(test):
            print("FAIL", test["id"], json.dumps(test)[:160])


if __name__ == "__main__":
    main()
