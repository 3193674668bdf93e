"""The numbered equations of MullenJSSv18i03.pdf scored against a hand transcription
(tests/documents/data/mullen_equations.yaml), like olmOCR-bench's math tests: every visible
symbol, in reading order, in the equation's text.

    python -m tests.documents.equation_bench
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

import yaml

from citewise.documents.model import Block
from citewise.documents.pdf.reader import read_pdf
from tests.conftest import CORPUS

PAPER = CORPUS / "MullenJSSv18i03.pdf"
GOLD = Path(__file__).parent / "data" / "mullen_equations.yaml"
ACCENTS = "\u00af\u02c6\u02dc\u02d9\u00a8^~"  # spacing macron, hat, tilde, dot, diaeresis


def symbols(text: str) -> str:
    """What is compared: no spaces, accents or dots; one form per dash and star."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c) and c not in ACCENTS)
    text = re.sub(r"[‐‑‒–—−]", "-", text).replace("∗", "*")
    return re.sub(r"[\s.…⋮⋱⋯·]", "", text)


SCRIPTS = re.compile(r"\{([^{}|]*)\|([^{}|]*)\}")


def readings(gold: str) -> list[str]:
    """The gold with each "{sub|sup}" pair in both orders: typeset, x_i^2 and x^2_i are
    the same formula (olmOCR-bench compares renderings)."""
    match = SCRIPTS.search(gold)
    if match is None:
        return [gold]
    a, b = match.groups()
    head, tail = gold[: match.start()], gold[match.end() :]
    return [head + x + y + rest for x, y in ((a, b), (b, a)) for rest in readings(tail)]


def _in_order(text: str, wanted: str) -> bool:
    at = 0
    for ch in symbols(wanted):
        at = text.find(ch, at)
        if at < 0:
            return False
        at += 1
    return True


def contains_in_order(text: str, gold: str) -> bool:
    return any(_in_order(text, reading) for reading in readings(gold))


@cache
def equations() -> dict[str, Block]:
    blocks = read_pdf(PAPER).blocks
    return {
        (b.data or {}).get("number") or "": b for b in blocks if b.kind == "equation" and b.label
    }


def score() -> dict[str, bool]:
    """Equation number -> whether its text holds the transcription's symbols in order."""
    gold: dict[str, str] = yaml.safe_load(GOLD.read_text("utf-8"))
    found = equations()
    return {
        number: number in found
        and contains_in_order(symbols((found[number].data or {}).get("text", "")), want)
        for number, want in gold.items()
    }


def main() -> None:
    results = score()
    found = equations()
    for number, ok in results.items():
        block = found.get(number)
        text = (block.data or {}).get("text", "") if block else "(missing)"
        print(f"{'ok  ' if ok else 'FAIL'} ({number}) {text[:100]}")
    print(f"{sum(results.values())}/{len(results)} equations read with their symbols in order")


if __name__ == "__main__":
    main()
