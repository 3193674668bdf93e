"""Contract: MMLongBench-Doc's dev half (questions nobody on the project wrote), each asked
within its paper (--scope-docs). Refusal recall and figure floors are the trust issue's
(measured 2026-12-01: refusal recall 1.0, figure items answered wrongly 0 of 8). Issue 38
makes this half a regression check only: its Build 5 took out the counting, wins, mentions,
row-count and role templates (they fire on no pool's unseen half), which answered 9 of the
18 text+table items here; text+table went 14 -> 5 right, false refusal 3 -> 9 of 18; the
fourth session's removal of the header-word cell handler (below the rule on both pools' even
halves) took one more: 4 of 18. The text+table floors bound what is left (the trust
issue's were 0.50 and 0.25). Skips when absent."""

from __future__ import annotations

import pytest

from citewise.api import Library
from citewise.eval.harness import evaluate, file_name_map, load_items
from tests.conftest import SHARED

MMLB = SHARED / "qa" / "external" / "mmlongbench-doc"

pytestmark = pytest.mark.skipif(
    not (MMLB / "qa.yaml").is_file(), reason="../shared MMLongBench-Doc dev half not present"
)


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    library = Library(tmp_path_factory.mktemp("mmlb-library"))
    report = library.ingest(sorted((MMLB / "corpus").glob("*.pdf")))
    assert report.failed == []
    names = file_name_map([(d.id, d.path) for d in library.documents()])
    result = evaluate(load_items(MMLB / "qa.yaml"), library.ask, names, scope_docs=True)
    library.close()
    return result.to_dict()


def test_unanswerable_questions_are_refused(scores: dict[str, object]) -> None:
    overall = scores["overall"]
    assert isinstance(overall, dict)
    assert overall["refusal_recall"] >= 0.80


def test_text_and_table_questions_are_scored_apart_from_figure_ones(
    scores: dict[str, object],
) -> None:
    by_evidence = scores["by_evidence"]
    assert isinstance(by_evidence, dict) and set(by_evidence) == {"text+table", "figure"}
    assert by_evidence["text+table"]["accuracy"] >= 0.22  # 4 of 18 measured
    assert by_evidence["text+table"]["false_refusal_rate"] <= 0.50  # 9 of 18 measured


def test_figure_questions_are_refused_rather_than_answered_wrongly(
    scores: dict[str, object],
) -> None:
    items = scores["items"]
    assert isinstance(items, list)
    figures = [i for i in items if i["type"] == "figure"]
    wrong = [i["id"] for i in figures if not i["refused"] and not i["correct"]]
    assert figures and len(wrong) <= 0.20 * len(figures), wrong


def test_every_answer_is_scoped_to_its_paper(scores: dict[str, object]) -> None:
    items = scores["items"]
    assert isinstance(items, list)
    assert all(len(i["scope"]) == 1 for i in items)
