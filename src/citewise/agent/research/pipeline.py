"""The research state machine: a list of stages, each reading the stored outputs it needs
and committing its own output (with its evidence) before the next begins.

    planning -> searching -> screening -> extracting -> analyzing -+-> writing -> verifying
                    ^                                              |        -> completed
                    +--------------- next round (gap queries) -----+

A task killed anywhere is resumed by running it again: the state names the stage to
(re)do, and finished stages are never redone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from citewise.agent.research.analyze import analyze
from citewise.agent.research.chinese import in_topic_language, plan_topic
from citewise.agent.research.context import Progress, RemoteSearch, StageContext
from citewise.agent.research.extract import ExtractStage
from citewise.agent.research.gather import ScreenStage, SearchStage
from citewise.agent.research.model import (
    Disagreement,
    Paper,
    Plan,
    Report,
    ResearchOptions,
    ScreeningDecision,
    from_dict,
)
from citewise.agent.research.models import ResearchModels, model_plan
from citewise.agent.research.prose import model_prose
from citewise.agent.research.tasks import Task, TaskCancelled, TaskStateError, TaskStore
from citewise.agent.research.verify import verify_report
from citewise.agent.research.write import write_report
from citewise.errors import CitewiseError
from citewise.retrieval.hybrid import Retriever
from citewise.retrieval.terms import content_terms
from citewise.store.library import LibraryStore


class PlanStage:
    name = "plan"
    state = "planning"

    def run(self, ctx: StageContext) -> dict[str, Any]:
        plan = plan_topic(ctx.task.topic, ctx.retriever)  # a Chinese topic: research/chinese.py
        if ctx.models is not None:
            plan = model_plan(ctx.models, plan)
        ctx.checkpoint(self.state, 1, 1)
        return {"plan": plan.to_dict()}


class AnalyzeStage:
    name = "analyze"
    state = "analyzing"

    def run(self, ctx: StageContext, plan: Plan, round_: int, new_papers: int) -> dict[str, Any]:
        evidence = ctx.tasks.evidence(ctx.task.id)
        papers = _papers(ctx, round_)
        years = {p.key: p.year for p in papers.values()}
        output = analyze(
            plan, evidence, round_, ctx.options.rounds, _asked(ctx, round_), new_papers, years
        )
        ctx.checkpoint(self.state, 1, 1)
        return output


class WriteStage:
    name = "write"
    state = "writing"

    def run(self, ctx: StageContext, plan: Plan, round_: int) -> dict[str, Any]:
        analysis = ctx.output("analyze", round_) or {}
        conflicts = [Disagreement.from_dict(d) for d in analysis.get("conflicts", [])]
        papers = _papers(ctx, round_)
        included = [d for d in _decisions(ctx, round_) if d.included]
        report = write_report(
            plan,
            ctx.tasks.evidence(ctx.task.id),
            [papers[d.key] for d in included if d.key in papers],
            _decisions(ctx, round_),
            conflicts,
            analysis.get("coverage", {}),
        )
        report = in_topic_language(report, plan, ctx.task.options.lang)
        prose: dict[str, object] = {}
        if ctx.models is not None and ctx.models.write is not None:
            questions = {q.id: q.text for q in plan.sub_questions}
            report, log = model_prose(
                ctx.models,
                report,
                ctx.tasks.evidence(ctx.task.id),
                questions,
                lambda done, total: ctx.checkpoint(self.state, done, total),
            )
            prose = log.as_dict()
        ctx.checkpoint(self.state, 1, 1)
        return {"report": report.to_dict(), "prose": prose}


class VerifyStage:
    name = "verify"
    state = "verifying"

    def run(self, ctx: StageContext, round_: int) -> dict[str, Any]:
        written = ctx.output("write", round_)
        assert written is not None
        report = Report.from_dict(written["report"])
        names: dict[str, list[str]] = {}
        for ref in report.references:
            words = [a.get("family", "") for a in ref.get("author", [])[:2]]
            year = ((ref.get("issued") or {}).get("date-parts") or [[None]])[0][0]
            # A composed sentence may name the paper by its authors, year and title.
            title = content_terms(str(ref.get("title", "")))
            names[str(ref.get("id"))] = [w for w in [*words, str(year or ""), *title] if w]
        verified = verify_report(report, ctx.tasks.evidence(ctx.task.id), names)
        verified.verification.update(written.get("prose") or {})
        ctx.checkpoint(self.state, 1, 1)
        return {"report": verified.to_dict()}


def _papers(ctx: StageContext, last_round: int) -> dict[str, Paper]:
    """Every paper any search round found (first sighting wins; later hits merged in)."""
    papers: dict[str, Paper] = {}
    for r in range(1, last_round + 1):
        for data in (ctx.output("search", r) or {}).get("papers", []):
            paper = from_dict(Paper, data)
            if paper.key not in papers:
                papers[paper.key] = paper
    return papers


def _decisions(ctx: StageContext, last_round: int) -> list[ScreeningDecision]:
    return [
        from_dict(ScreeningDecision, d)
        for r in range(1, last_round + 1)
        for d in (ctx.output("screen", r) or {}).get("decisions", [])
    ]


def _queries(ctx: StageContext, plan: Plan, round_: int) -> dict[str, list[str]]:
    if round_ == 1:
        return {q.id: q.queries for q in plan.sub_questions}
    queries: dict[str, list[str]] = (ctx.output("analyze", round_ - 1) or {}).get("new_queries", {})
    return queries


def _asked(ctx: StageContext, last_round: int) -> set[str]:
    plan = ctx.plan()
    return {
        q for r in range(1, last_round + 1) for qs in _queries(ctx, plan, r).values() for q in qs
    }


class Researcher:
    """Runs research tasks over one library to completion, resuming where they stopped."""

    def __init__(
        self,
        store: LibraryStore,
        retriever: Retriever,
        progress: Progress | None = None,
        remote_search: RemoteSearch | None = None,
        models: Callable[[Task], ResearchModels | None] | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.store = store
        self.retriever = retriever
        self.environ = dict(environ or {})  # the face's snapshot: source keys, contact
        self.tasks = TaskStore(store.tasks)
        self.progress = progress
        self.remote_search = remote_search
        self.models_for = models
        self._models: dict[str, ResearchModels | None] = {}
        self.plan_stage = PlanStage()
        self.search_stage = SearchStage()
        self.screen_stage = ScreenStage()
        self.extract_stage = ExtractStage()
        self.analyze_stage = AnalyzeStage()
        self.write_stage = WriteStage()
        self.verify_stage = VerifyStage()
        self.steps: dict[str, Callable[[StageContext], None]] = {
            "planning": self._plan,
            "searching": self._search,
            "screening": self._screen,
            "extracting": self._extract,
            "analyzing": self._analyze,
            "writing": self._write,
            "verifying": self._verify,
        }

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
                self.steps[task.state](ctx)
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

    # -- one method per state: load inputs, run the stage, commit its output ---------

    def _plan(self, ctx: StageContext) -> None:
        output = self.plan_stage.run(ctx)
        ctx.tasks.commit_stage(ctx.task.id, "plan", 0, output, "searching", 1)

    def _search(self, ctx: StageContext) -> None:
        r = ctx.task.round
        plan = ctx.plan()
        output = self.search_stage.run(ctx, plan, _queries(ctx, plan, r), r)
        for warning in output["warnings"]:
            ctx.tasks.event(ctx.task.id, "search", "warning", {"message": warning})
        ctx.tasks.commit_stage(ctx.task.id, "search", r, output, "screening", r)

    def _screen(self, ctx: StageContext) -> None:
        r = ctx.task.round
        earlier = _decisions(ctx, r - 1)
        seen = {d.key for d in earlier}
        found = [p for p in (ctx.output("search", r) or {})["papers"] if p["key"] not in seen]
        included_before = sum(1 for d in earlier if d.included)
        output = self.screen_stage.run(ctx, ctx.plan(), found, included_before)
        ctx.tasks.commit_stage(ctx.task.id, "screen", r, output, "extracting", r)

    def _extract(self, ctx: StageContext) -> None:
        r = ctx.task.round
        this_round = {
            p["key"]: from_dict(Paper, p) for p in (ctx.output("search", r) or {})["papers"]
        }
        decisions = _decisions(ctx, r)
        new = [this_round[d.key] for d in decisions if d.included and d.round == r]
        revisit = [
            this_round[d.key]
            for d in decisions
            if d.included and d.round < r and d.key in this_round
        ]
        output = self.extract_stage.run(ctx, ctx.plan(), new, revisit, r)
        ctx.tasks.commit_stage(ctx.task.id, "extract", r, output, "analyzing", r)

    def _analyze(self, ctx: StageContext) -> None:
        r = ctx.task.round
        new_papers = sum(1 for d in _decisions(ctx, r) if d.included and d.round == r)
        output = self.analyze_stage.run(ctx, ctx.plan(), r, new_papers)
        following = ("searching", r + 1) if output["new_queries"] else ("writing", r)
        ctx.tasks.commit_stage(ctx.task.id, "analyze", r, output, *following)

    def _write(self, ctx: StageContext) -> None:
        r = ctx.task.round
        output = self.write_stage.run(ctx, ctx.plan(), r)
        ctx.tasks.commit_stage(ctx.task.id, "write", r, output, "verifying", r)

    def _verify(self, ctx: StageContext) -> None:
        r = ctx.task.round
        output = self.verify_stage.run(ctx, r)
        ctx.tasks.commit_stage(ctx.task.id, "verify", r, output, "completed", r)

    def report(self, task_id: str) -> Report:
        """The verified report of a completed task, from the store (no stage reruns)."""
        task = self.tasks.get(task_id)
        stored = self.tasks.output(task_id, "verify", task.round)
        if task.state != "completed" or stored is None:
            raise TaskStateError(
                f"task '{task_id}' is {task.state}, not completed",
                hint=f"run 'citewise tasks resume {task_id}'",
            )
        return Report.from_dict(stored["report"])
