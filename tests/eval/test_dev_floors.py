"""Contract: the extractive backend meets its floors on the shared dev set (issue 11 raised
them to what the answerer reaches, with margin; measured after issue 11's second pass:
accuracy 0.930, false refusal 0.023, refusal recall 1.0, cited page 1.0, multi-paper 2/2).

Skips cleanly when ../shared (corpus + dev.yaml) is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.api import Library
from citewise.eval.harness import evaluate, file_name_map, load_items
from tests.conftest import CORPUS, DEV_QA

pytestmark = pytest.mark.skipif(
    not (CORPUS.is_dir() and DEV_QA.is_file()), reason="../shared corpus not present"
)


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    library = Library(tmp_path_factory.mktemp("dev-library"))
    report = library.ingest(sorted(CORPUS.glob("*.pdf")))
    assert report.failed == []
    names = file_name_map([(d.id, d.path) for d in library.documents()])
    result = evaluate(load_items(DEV_QA), library.ask, names)
    library.close()
    return result.to_dict()


def test_dev_set_meets_the_foundation_floors(scores: dict[str, object]) -> None:
    overall = scores["overall"]
    assert isinstance(overall, dict)
    assert overall["accuracy"] >= 0.90  # measured 0.977; the trust issue's floor is 0.80
    assert overall["citation_page_accuracy"] >= 0.95
    assert overall["refusal_recall"] >= 0.90
    assert overall["false_refusal_rate"] <= 0.08


def test_multi_paper_questions_are_answered(scores: dict[str, object]) -> None:
    by_type = scores["by_type"]
    assert isinstance(by_type, dict)
    assert by_type["multi-paper"]["accuracy"] >= 0.5


def test_every_refusal_says_its_kind(scores: dict[str, object]) -> None:
    items = scores["items"]
    assert isinstance(items, list)
    refused = [i for i in items if i["refused"]]
    assert refused and all(i["refusal_kind"] for i in refused)


def test_every_answer_cites_blocks_listed_in_its_evidence(scores: dict[str, object]) -> None:
    items = scores["items"]
    assert isinstance(items, list)
    answered = [i for i in items if not i["refused"]]
    assert answered and all(i["cited"] for i in answered)


def test_eval_reports_each_question_type(scores: dict[str, object]) -> None:
    by_type = scores["by_type"]
    assert isinstance(by_type, dict)
    assert {"numeric", "table", "unanswerable", "multi-paper"} <= set(by_type)
    assert Path(DEV_QA).name == "dev.yaml"
