"""What the yes/no lead read, recorded in the answer's signals (agent/yesno/lead.py), and the
totals scripts/yes_no_report.py reads from a run. On a Markdown paper the test writes, asked
through the real library scoped to it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

from citewise.agent.ask.question import analyse
from citewise.agent.ask.refusal import NOT_ANSWERED, REFUSALS
from citewise.agent.yesno.lead import YesNoLeads
from citewise.api import Library
from tests.conftest import load_script

PAPER = """# ORCHARD: Counting Apple Blossoms from Drone Images

## Abstract

ORCHARD counts apple blossoms in drone images of orchards.

## Method

We train a blossom detector on 1,200 labelled drone photographs of apple orchards.

## Experiments

We report counting error on orchards near Bolzano.
"""


@pytest.fixture(scope="module")
def paper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Library, str]]:
    folder = tmp_path_factory.mktemp("orchard")
    (folder / "orchard.md").write_text(PAPER, encoding="utf-8")
    lib = Library(folder / "library", embeddings=False)
    assert lib.ingest([folder / "orchard.md"]).failed == []
    try:
        yield lib, lib.documents()[0].id
    finally:
        lib.close()


def test_a_judged_yes_no_answer_records_the_model_s_reading(paper: tuple[Library, str]) -> None:
    lib, doc = paper
    led = lib.ask("Was the blossom detector trained on labelled drone photographs?", [doc])
    assert led.answer.startswith("Yes. "), led.answer
    assert 0.0 < led.signals["yes_no_probability"] < 1.0
    assert led.signals["yes_no_widened"] == 0.0
    beyond = lib.ask("Do they count blossoms in any orchards other than Bolzano?", [doc])
    assert beyond.signals["yes_no_widened"] == 1.0, beyond.signals
    asked = lib.ask("How many drone photographs were labelled?", [doc])
    assert "yes_no_probability" not in asked.signals


def test_a_refused_question_the_lead_answers_says_so(paper: tuple[Library, str]) -> None:
    lib, doc = paper
    question = "Did they train the blossom detector on labelled drone photographs?"
    drafted = lib.ask(question, [doc])
    assert drafted.sentences and not drafted.refused
    quote = [replace(s, lead="") for s in drafted.sentences]
    refused = replace(
        drafted,
        refused=True,
        answer=REFUSALS[NOT_ANSWERED],
        sentences=[],
        withheld=quote,
        refusal_kind=NOT_ANSWERED,
        signals={"in_scope": 1.0},
    )
    leads = YesNoLeads(lib.store, lib.answerer.retriever)
    answered = leads.lead(replace(analyse(question), scope=(doc,)), refused)
    assert not answered.refused and answered.answer.startswith("Yes. "), answered.answer
    assert answered.signals["yes_no_unrefused"] == 1.0
    assert "yes_no_unrefused" not in refused.signals  # the refused answer itself is untouched


def _report_script() -> ModuleType:
    path = Path(__file__).resolve().parents[3] / "scripts" / "yes_no_report.py"
    return load_script(path, "yes_no_report")


def test_the_report_totals_leads_by_signal_without_naming_items() -> None:
    report = _report_script()
    items = {
        "a": {"type": "yes_no", "answerable": True, "accept": ["No"]},
        "b": {"type": "yes_no", "answerable": True, "accept": ["Yes"]},
        "c": {"type": "unanswerable", "answerable": False, "accept": []},
        "d": {"type": "extractive", "answerable": True, "accept": ["x"]},
    }
    rows = [
        {
            "id": "a",
            "refused": False,
            "answer": "No. It is not.",
            "signals": {"yes_no_probability": 0.9, "yes_no_widened": 1.0, "yes_no_unrefused": 1.0},
        },
        {
            "id": "b",
            "refused": False,
            "answer": "No. Nothing.",
            "signals": {"yes_no_probability": 0.5, "yes_no_widened": 0.0},
        },
        {"id": "c", "refused": True, "answer": "", "signals": {"yes_no_probability": 0.2}},
        {"id": "d", "refused": False, "answer": "x", "signals": {}},
    ]
    tables = report.report(rows, items)
    assert tables["judged"] == {"right (no)": 1, "wrong (yes)": 1, "unanswerable refused": 1}
    assert tables["answered though refused, judged"] == {"right (no)": 1}
    assert tables["widened 1"] == {"right (no)": 1}
    assert report.band(0.51, 0.5) == "0.00-0.03" and report.band(0.9, 0.5) == ">=0.10"
