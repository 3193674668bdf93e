"""Held-out English questions (tests/eval/data/heldout_en.yaml), written from the PDFs'
text before citewise was run on them, over the corpus and the MMLongBench-Doc research
PDFs. Odd-numbered items were used to develop fixes; even-numbered items are the true
held-out half. No issue states a floor for this set: the assertions hold its level when it
was written, before any rule was developed on it, as issue 13's closing note reports it
(0.579 on answerable, false refusal 0.158, cited page 0.844; halves 13/24 odd, 18/24 even
after the rules that landed), not the last score (extractive backend, a library of the
corpus folder plus the MMLongBench PDFs, questions unscoped as a user asks them);
docs/benchmarks.md reports the numbers. Skips when ../shared is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CORPUS, SHARED
from tests.eval.heldout import corpus_files, half_right, scored

MMLB = SHARED / "qa" / "external" / "mmlongbench-doc" / "corpus"
HELDOUT_EN = Path(__file__).parent / "data" / "heldout_en.yaml"
pytestmark = pytest.mark.skipif(
    not (CORPUS.is_dir() and MMLB.is_dir()), reason="../shared corpus not present"
)


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    files = [*corpus_files(), *sorted(MMLB.glob("*.pdf"))]
    return scored(tmp_path_factory.mktemp("heldout-en-library"), files, HELDOUT_EN)


def test_held_out_english_questions_stay_above_their_level_when_written(
    result: dict[str, object],
) -> None:
    overall = result["overall"]
    assert isinstance(overall, dict) and overall["items"] == 48
    assert overall["accuracy"] >= 0.57  # issue 13: 22 of 38 when written (24 at 14b9ed3)
    assert overall["refusal_recall"] >= 0.9  # 9 of 10 when written (10 at 14b9ed3)
    # issue 13: 6 of 38 when written; 7 since issue 38's Build 5 removed the header-word cell
    # handler (one odd-half item refused, one even-half item now right: accuracy unchanged)
    assert overall["false_refusal_rate"] <= 0.19
    assert overall["citation_page_accuracy"] >= 0.84  # issue 13: 0.844 (0.848 at 14b9ed3)


def test_each_half_stays_above_its_level_when_written(result: dict[str, object]) -> None:
    rows = result["rows"]
    assert isinstance(rows, list) and len(rows) == 48  # 24 a half
    assert half_right(rows, odd=True) >= 13  # of 24, development half: issue 13 (15 now)
    assert half_right(rows, odd=False) >= 18  # of 24, true held-out half: issue 13 (19 now)
