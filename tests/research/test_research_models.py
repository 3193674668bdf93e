"""Research with a model configured (a scripted backend behind the real ModelClient, logging
to the real SQLite audit log): the model drafts the plan and screens unsure papers, the
token budget is never exceeded, and invalid replies fall back to the deterministic path."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citewise.agent.research import ResearchOptions, Task
from citewise.agent.research.models import ResearchModels, TokenBudget
from citewise.api import Library
from citewise.api.research import ResearchDesk
from citewise.llm.base import Message
from citewise.llm.client import ModelClient
from tests.llm.scripted import ScriptedModel
from tests.pdfs import write_paper
from tests.research.test_research_disagreements import FIRST, SECOND

TOPIC = "acoustic probes for granite sorting"
KITCHEN = [
    (
        "1 Introduction",
        ["Granite countertops are popular in kitchens because they resist heat and stains."],
    ),
    ("2 Method", ["We surveyed 120 homeowners about the countertops they chose and why."]),
]
PLAN = {
    "sub_questions": [
        {
            "question": "How do acoustic probes classify granite blocks?",
            "facet": "methods",
            "queries": ["acoustic probe echo classifier"],
        },
        {
            "question": "What accuracy do acoustic granite classifiers reach?",
            "facet": "results",
            "queries": ["granite classifier accuracy"],
        },
        {
            "question": "On which granite test sets are the probes evaluated?",
            "facet": "datasets",
            "queries": ["granite test set blocks"],
        },
        {
            "question": "Where do acoustic probes fail on granite?",
            "facet": "limitations",
            "queries": ["wet blocks echo accuracy drops"],
        },
    ]
}


def reply(messages: list[Message]) -> dict[str, Any]:
    if "plan" in messages[0]["content"]:
        return PLAN
    kitchen = "countertops" in messages[-1]["content"].lower()
    return {"relevant": not kitchen, "reason": "about kitchens" if kitchen else "on topic"}


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    folder = tmp_path_factory.mktemp("models")
    papers = [
        write_paper(folder / "probes.pdf", "Acoustic Probes for Granite Sorting", FIRST),
        write_paper(folder / "again.pdf", "Acoustic Granite Sorting Revisited", SECOND),
        write_paper(folder / "granite.pdf"),
        write_paper(folder / "kitchen.pdf", "Granite Countertops in Kitchens", KITCHEN),
    ]
    with Library(folder / "library", embeddings=False) as lib:
        lib.ingest(papers)
        yield lib


def scripted_desk(library: Library, replies: list[Any]) -> tuple[ResearchDesk, ScriptedModel]:
    model = ScriptedModel(replies)

    def models(task: Task) -> ResearchModels:
        client = ModelClient(
            model, library.store.audit, role="reason", task=task.id, use_cache=False
        )
        budget = TokenBudget(library.store, task.id, task.options.budget_tokens)
        return ResearchModels(client, client.for_role("screen"), budget)

    return ResearchDesk(library, models=models), model


def test_the_model_drafts_the_plan_and_screens_unsure_papers(library: Library) -> None:
    desk, model = scripted_desk(library, [reply] * 50)
    outcome = desk.research(TOPIC, ResearchOptions(rounds=1, llm="scripted"))
    assert outcome.task.state == "completed"
    plan = desk.tasks.output(outcome.task.id, "plan", 0)
    assert plan is not None
    questions = plan["plan"]["sub_questions"]
    assert [q["text"] for q in questions] == [q["question"] for q in PLAN["sub_questions"]]
    assert all(len(q["queries"]) == 2 for q in questions)  # the model's, then the template's
    report = desk.report(outcome.task.id)
    kitchen = next(d for d in report.screening if "Countertops" in d.title)
    assert not kitchen.included and "screen model: not relevant" in kitchen.reason
    roles = [
        r[0]
        for r in library.store.db.execute(
            "SELECT role FROM llm_calls WHERE task = ? ORDER BY id", (outcome.task.id,)
        )
    ]
    assert roles[0] == "reason" and "screen" in roles and len(roles) == len(model.calls)
    assert outcome.stats.tokens_used > 0 and outcome.stats.report.unresolved_ids == 0


@pytest.mark.parametrize("budget", [60, 250, 400])
def test_the_token_budget_is_never_exceeded(library: Library, budget: int) -> None:
    desk, model = scripted_desk(library, [reply] * 50)
    outcome = desk.research(TOPIC, ResearchOptions(rounds=1, llm="scripted", budget_tokens=budget))
    assert outcome.task.state == "completed"
    used = outcome.stats.tokens_used
    assert used <= budget  # within the budget, not merely within 5% of it
    skipped = [e for e in desk.tasks.events(outcome.task.id, "model")]
    if budget == 60:
        assert used == 0 and not model.calls and skipped  # not even the plan fits
    else:
        assert used > 0 and model.calls
    assert outcome.stats.report.unresolved_ids == 0


def test_invalid_replies_are_retried_once_then_the_deterministic_plan_is_used(
    library: Library,
) -> None:
    bad = {"sub_questions": [{"question": "Too few?", "facet": "methods", "queries": []}]}
    desk, model = scripted_desk(library, [bad, "not json at all", reply, reply, reply, reply])
    outcome = desk.research(TOPIC, ResearchOptions(rounds=1, llm="scripted"))
    plan = desk.tasks.output(outcome.task.id, "plan", 0)
    assert plan is not None and len(plan["plan"]["sub_questions"]) >= 6  # the templates
    assert "Invalid reply" in model.calls[1][0][-1]["content"]
    assert outcome.task.state == "completed"


def test_a_bad_llm_spec_is_a_usage_error(library: Library, tmp_path: Path) -> None:
    from citewise.cli import app
    from citewise.cli.testing import CliRunner

    result = CliRunner().invoke(
        app, ["--library", str(library.directory), "research", TOPIC, "--llm", "nonsense:x"]
    )
    assert result.exception is not None and getattr(result.exception, "exit_code", 0) == 2
