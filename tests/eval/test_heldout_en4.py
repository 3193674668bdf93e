"""Held-out English questions, fourth set (tests/eval/data/heldout_en4.yaml): 40 questions
written from the PDFs' text before citewise was run on them, over the 20 FinanceBench SEC
filings, the MMLongBench-Doc research PDFs and the corpus. Odd-numbered items were used to
develop rules (tests/agent/packs/test_heldout4_rules.py); even-numbered items are the held-out
half, measured once before and once after the rules were final. No issue states a floor for
this set: the assertions hold its level when written, before the rules developed on its odd
half (the "before" figures below; false refusals: today's 4, one more than then), not the last
score (extractive backend, one library of all three folders, questions unscoped as a user
asks them); docs/benchmarks.md reports the numbers and what the even half says. Skips when
../shared is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CORPUS, SHARED
from tests.eval.heldout import corpus_files, half_right, scored

EXTERNAL = SHARED / "qa" / "external"
MMLB = EXTERNAL / "mmlongbench-doc" / "corpus"
FILINGS = EXTERNAL / "financebench" / "corpus"
HELDOUT_EN4 = Path(__file__).parent / "data" / "heldout_en4.yaml"
pytestmark = pytest.mark.skipif(
    not (CORPUS.is_dir() and MMLB.is_dir() and FILINGS.is_dir()),
    reason="../shared corpus, MMLongBench-Doc or FinanceBench PDFs not present",
)


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    files = [*corpus_files(), *sorted(MMLB.glob("*.pdf")), *sorted(FILINGS.glob("*.pdf"))]
    return scored(tmp_path_factory.mktemp("heldout-en4-library"), files, HELDOUT_EN4)


def test_fourth_held_out_set_stays_above_its_level_when_written(result: dict[str, object]) -> None:
    overall = result["overall"]
    assert isinstance(overall, dict) and overall["items"] == 40
    assert overall["accuracy"] >= 0.59  # before: 19 of 32 answerable (25 at 14b9ed3)
    assert overall["refusal_recall"] >= 0.375  # before: 3 of 8 (5 at 14b9ed3)
    assert overall["false_refusal_rate"] <= 0.125  # 4 of 32 at 14b9ed3 (before: 3)
    assert overall["citation_page_accuracy"] >= 0.79  # before: 0.793 (0.929 at 14b9ed3)


def test_each_half_stays_above_its_level_when_written(result: dict[str, object]) -> None:
    rows = result["rows"]
    assert isinstance(rows, list) and len(rows) == 40
    assert half_right(rows, odd=True) >= 8  # of 20, development half: before (16 at 14b9ed3)
    assert half_right(rows, odd=False) >= 14  # of 20, held-out half: before (14 at 14b9ed3)
