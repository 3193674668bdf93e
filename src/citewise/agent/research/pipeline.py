"""The research state machine: a list of stages, each reading the stored outputs it needs
and committing its own output (with its evidence) before the next begins.

    planning -> searching -> screening -> extracting -> analyzing -+-> writing -> verifying
                    ^                                              |        -> completed
                    +--------------- next round (gap queries) -----+

A task killed anywhere is resumed by running it again: the state names the stage to
(re)do, and finished stages are never redone. Every stage is a `Stage` (stage.py): typed
inputs read from the stored outputs, a typed output, the next state; `run_stage` is the one
place that commits an output.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from citewise.agent.research.chinese import in_topic_language, plan_topic
from citewise.agent.research.context import Progress, RemoteSearch, StageContext
from citewise.agent.research.model import Report, ResearchOptions
from citewise.agent.research.models import ResearchModels, model_plan
from citewise.agent.research.prose import model_prose
from citewise.agent.research.stage import (
    Analysis,
    AnalyzeInput,
    Draft,
    In,
    Out,
    PlanOutput,
    Stage,
    Verified,
    VerifyInput,
    WriteInput,
    decisions_made,
    papers_found,
    queries_asked,
    stored,
)
from citewise.agent.research.stages.analyze import analyze
from citewise.agent.research.stages.extract import ExtractStage
from citewise.agent.research.stages.gather import SearchStage
from citewise.agent.research.stages.screening import ScreenStage
from citewise.agent.research.stages.verify import verify_report
from citewise.agent.research.stages.write import write_report
from citewise.agent.research.tasks import Task, TaskCancelled, TaskStateError, TaskStore
from citewise.errors import CitewiseError
from citewise.retrieval.hybrid import Retriever
from citewise.retrieval.terms import content_terms
from citewise.store.protocols import Store


class PlanStage:
    """Topic -> plan: key phrases and sub-questions with their query variants."""

    name = "plan"
    state = "planning"
    per_round = False

    def inputs(self, ctx: StageContext) -> str:
        return ctx.task.topic

    def run(self, ctx: StageContext, inputs: str) -> PlanOutput:
        plan = plan_topic(inputs, ctx.retriever)  # a Chinese topic: research/chinese.py
        if ctx.models is not None:
            plan = model_plan(ctx.models, plan)
        ctx.checkpoint(self.state, 1, 1)
        return PlanOutput(plan)

    def following(self, ctx: StageContext, output: PlanOutput) -> tuple[str, int]:
        return "searching", 1


class AnalyzeStage:
    """Evidence so far -> coverage, gaps, disagreements and the gap-filling queries."""

    name = "analyze"
    state = "analyzing"
    per_round = True

    def inputs(self, ctx: StageContext) -> AnalyzeInput:
        r = ctx.task.round
        plan = ctx.plan()
        new_papers = sum(1 for d in decisions_made(ctx, r) if d.included and d.round == r)
        years = {p.key: p.year for p in papers_found(ctx, r).values()}
        evidence = ctx.tasks.evidence(ctx.task.id)
        return AnalyzeInput(plan, r, evidence, years, queries_asked(ctx, plan, r), new_papers)

    def run(self, ctx: StageContext, inputs: AnalyzeInput) -> Analysis:
        output = analyze(
            inputs.plan,
            inputs.evidence,
            inputs.round,
            ctx.options.rounds,
            inputs.asked,
            inputs.new_papers,
            inputs.years,
        )
        ctx.checkpoint(self.state, 1, 1)
        return output

    def following(self, ctx: StageContext, output: Analysis) -> tuple[str, int]:
        r = ctx.task.round
        return ("searching", r + 1) if output.new_queries else ("writing", r)


class WriteStage:
    """Plan, evidence, screening and analysis -> the report (extractive, or model prose)."""

    name = "write"
    state = "writing"
    per_round = True

    def inputs(self, ctx: StageContext) -> WriteInput:
        r = ctx.task.round
        papers = papers_found(ctx, r)
        decisions = decisions_made(ctx, r)
        included = [papers[d.key] for d in decisions if d.included and d.key in papers]
        evidence = ctx.tasks.evidence(ctx.task.id)
        analysis = stored(ctx, Analysis, r)
        return WriteInput(ctx.plan(), r, evidence, included, decisions, analysis)

    def run(self, ctx: StageContext, inputs: WriteInput) -> Draft:
        plan, analysis = inputs.plan, inputs.analysis
        report = write_report(
            plan,
            inputs.evidence,
            inputs.papers,
            inputs.decisions,
            analysis.conflicts if analysis else [],
            analysis.coverage if analysis else {},
        )
        report = in_topic_language(report, plan, ctx.task.options.lang)
        prose: dict[str, object] = {}
        if ctx.models is not None and ctx.models.write is not None:
            questions = {q.id: q.text for q in plan.sub_questions}
            report, log = model_prose(
                ctx.models,
                report,
                inputs.evidence,
                questions,
                lambda done, total: ctx.checkpoint(self.state, done, total),
            )
            prose = log.as_dict()
        ctx.checkpoint(self.state, 1, 1)
        return Draft(report, prose)

    def following(self, ctx: StageContext, output: Draft) -> tuple[str, int]:
        return "verifying", ctx.task.round


class VerifyStage:
    """Draft -> the report with only claims that resolve and are supported."""

    name = "verify"
    state = "verifying"
    per_round = True

    def inputs(self, ctx: StageContext) -> VerifyInput:
        draft = stored(ctx, Draft, ctx.task.round)
        assert draft is not None, "the write stage runs first"
        return VerifyInput(draft, ctx.tasks.evidence(ctx.task.id), citation_names(draft.report))

    def run(self, ctx: StageContext, inputs: VerifyInput) -> Verified:
        verified = verify_report(inputs.draft.report, inputs.evidence, inputs.names)
        verified.verification.update(inputs.draft.prose)
        ctx.checkpoint(self.state, 1, 1)
        return Verified(verified)

    def following(self, ctx: StageContext, output: Verified) -> tuple[str, int]:
        return "completed", ctx.task.round


def citation_names(report: Report) -> dict[str, list[str]]:
    """Per cited paper, the words a composed sentence may name it by: the first two
    authors' family names, the year and the title's content words."""
    names: dict[str, list[str]] = {}
    for ref in report.references:
        words = [a.get("family", "") for a in ref.get("author", [])[:2]]
        year = ((ref.get("issued") or {}).get("date-parts") or [[None]])[0][0]
        title = content_terms(str(ref.get("title", "")))
        names[str(ref.get("id"))] = [w for w in [*words, str(year or ""), *title] if w]
    return names


Finishing = Callable[[str, Report], None]


def run_stage(stage: Stage[In, Out], ctx: StageContext, finishing: Finishing | None = None) -> None:
    """Read the stage's inputs, run it, and commit its output with the next state (one
    transaction; TaskCancelled if the task was cancelled meanwhile). `finishing` gets the
    report (as the store will give it back) before the task commits `completed`, so what
    it writes exists by the time anyone sees the task completed."""
    output = stage.run(ctx, stage.inputs(ctx))
    next_state, next_round = stage.following(ctx, output)
    if finishing is not None and next_state == "completed" and isinstance(output, Verified):
        finishing(ctx.task.id, Verified.from_dict(json.loads(json.dumps(output.to_dict()))).report)
    round_ = ctx.task.round if stage.per_round else 0
    ctx.tasks.commit_stage(
        ctx.task.id, stage.name, round_, output.to_dict(), next_state, next_round
    )


def research_stages() -> list[Stage[Any, Any]]:
    """The stages in the order a task passes through them."""
    return [
        PlanStage(),
        SearchStage(),
        ScreenStage(),
        ExtractStage(),
        AnalyzeStage(),
        WriteStage(),
        VerifyStage(),
    ]


class Researcher:
    """Runs research tasks over one library to completion, resuming where they stopped."""

    def __init__(
        self,
        store: Store,
        retriever: Retriever,
        progress: Progress | None = None,
        remote_search: RemoteSearch | None = None,
        models: Callable[[Task], ResearchModels | None] | None = None,
        environ: Mapping[str, str] | None = None,
        finishing: Finishing | None = None,
    ) -> None:
        self.store = store
        self.finishing = finishing  # run_stage: the report's files, before `completed`
        self.retriever = retriever
        self.environ = dict(environ or {})  # the face's snapshot: source keys, contact
        self.tasks = TaskStore(store.tasks)
        self.progress = progress
        self.remote_search = remote_search
        self.models_for = models
        self._models: dict[str, ResearchModels | None] = {}
        # task state -> the stage that runs in it
        self.stages: dict[str, Stage[Any, Any]] = {s.state: s for s in research_stages()}

    def start(self, topic: str, options: ResearchOptions) -> Task:
        return self.tasks.create(topic, options)

    def run(self, task_id: str) -> Task:
        """Drive the task from its current state to completed (or failed / cancelled)."""
        task = self.tasks.get(task_id)
        if task.state == "cancelled":
            raise TaskStateError(
                f"task '{task_id}' was cancelled", hint="start a new one with 'citewise research'"
            )
        if task.state == "failed":
            failed_at = self._failed_stage(task_id)
            self.tasks.set_state(task_id, failed_at, "resumed after failure")
        while True:
            task = self.tasks.get(task_id)
            if task.finished:
                return task
            ctx = StageContext(
                task,
                self.tasks,
                self.store,
                self.retriever,
                remote_search=self.remote_search,
                models=self._task_models(task),
                environ=self.environ,
            )
            if self.progress:
                ctx.progress = self.progress
            try:
                run_stage(self.stages[task.state], ctx, self.finishing)
            except TaskCancelled:
                return self.tasks.get(task_id)
            except (CitewiseError, OSError, ValueError, KeyError) as exc:
                self.tasks.event(task_id, task.state, "error", {"error": str(exc)})
                self.tasks.set_state(task_id, "failed", f"{task.state}: {exc}")
                raise

    def _task_models(self, task: Task) -> ResearchModels | None:
        """The task's models, opened once per process (a GGUF loads once)."""
        if task.id not in self._models:
            models = self.models_for(task) if self.models_for else None
            if models is not None:
                tasks = self.tasks

                def note(message: str) -> None:
                    tasks.event(task.id, tasks.get(task.id).state, "model", {"message": message})

                models.on_skip = note
            self._models[task.id] = models
        return self._models[task.id]

    def _failed_stage(self, task_id: str) -> str:
        errors = self.tasks.events(task_id, "error")
        return errors[-1].stage if errors else "planning"

    def report(self, task_id: str) -> Report:
        """The verified report of a completed task, from the store (no stage reruns)."""
        task = self.tasks.get(task_id)
        data = self.tasks.output(task_id, Verified.stage, task.round)
        if task.state != "completed" or data is None:
            raise TaskStateError(
                f"task '{task_id}' is {task.state}, not completed",
                hint=f"run 'citewise tasks resume {task_id}'",
            )
        return Verified.from_dict(data).report
