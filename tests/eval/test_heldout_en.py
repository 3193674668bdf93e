"""Held-out English questions (tests/eval/data/heldout_en.yaml), written from the PDFs'
text before citewise was run on them, over the corpus and the MMLongBench-Doc research
PDFs. Odd-numbered items were used to develop fixes; even-numbered items are the true
held-out half. The assertions hold the measured level (extractive backend, a library of
the corpus folder plus the MMLongBench PDFs, questions unscoped as a user asks them) so it
cannot slip; docs/benchmarks.md reports the numbers. Skips when ../shared is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.agent.answer import Answer
from citewise.api import Library
from citewise.eval.harness import evaluate, file_name_map, load_items
from tests.conftest import CORPUS, SHARED

MMLB = SHARED / "qa" / "external" / "mmlongbench-doc" / "corpus"
HELDOUT_EN = Path(__file__).parent / "data" / "heldout_en.yaml"
pytestmark = pytest.mark.skipif(
    not (CORPUS.is_dir() and MMLB.is_dir()), reason="../shared corpus not present"
)


def _half(rows: list[dict[str, object]], odd: bool) -> float:
    """Share of the half's items right: answered correctly, or refused when unanswerable."""
    mine = [r for r in rows if (int(str(r["id"]).split("-")[1]) % 2 == 1) == odd]
    right = [r for r in mine if (r["correct"] if r["answerable"] else r["refused"])]
    return len(right) / len(mine)


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    library = Library(tmp_path_factory.mktemp("heldout-en-library"))
    files = [p for p in sorted(CORPUS.iterdir()) if p.suffix in (".pdf", ".md")]
    assert library.ingest([*files, *sorted(MMLB.glob("*.pdf"))]).failed == []
    names = file_name_map([(d.id, d.path) for d in library.documents()])

    def ask(question: str, docs: list[str]) -> Answer:
        return library.ask(question, docs, review=False)

    scored = evaluate(load_items(HELDOUT_EN), ask, names)
    library.close()
    return {"overall": scored.overall.to_dict(), "rows": scored.items}


def test_held_out_english_questions_hold_their_measured_level(result: dict[str, object]) -> None:
    overall = result["overall"]
    assert isinstance(overall, dict) and overall["items"] == 48
    assert overall["accuracy"] >= 0.63  # 24 of 38 answerable measured (before the stemmer fix: 22)
    assert overall["refusal_recall"] >= 1.0  # 10 of 10 measured (main: 9)
    assert overall["false_refusal_rate"] <= 0.14  # 5 of 38 measured (before: 6)
    assert overall["citation_page_accuracy"] >= 0.84  # 0.848 measured (before: 0.844)


def test_each_half_holds_its_measured_level(result: dict[str, object]) -> None:
    rows = result["rows"]
    assert isinstance(rows, list)
    assert _half(rows, odd=True) >= 15 / 24  # the development half (before: 14 of 24)
    assert _half(rows, odd=False) >= 19 / 24  # the true held-out half (before: 18 of 24)
