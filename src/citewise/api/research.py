"""Research tasks from start to report files: the face the CLI (and later the server) use.

Runs or resumes a task with `Researcher`, then renders the stored, verified report to
Markdown (with its CSL-JSON bibliography) and HTML. Rendering reads only the store, so a
finished task re-renders offline, identically.

What the faces hold of a task is re-exported here (the options it starts with, the task and
its events, the store of a library's tasks with `task_store`, the error of a task in the
wrong state), so a face imports nothing below api/.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from citewise.agent.research import Report, Researcher
from citewise.agent.research import ResearchOptions as ResearchOptions
from citewise.agent.research import Task as Task
from citewise.agent.research.context import Progress
from citewise.agent.research.models import ResearchModels, TokenBudget
from citewise.agent.research.stages.gather import remote_search
from citewise.agent.research.statistics import ReportStatistics, report_statistics
from citewise.agent.research.tasks import TaskEvent as TaskEvent
from citewise.agent.research.tasks import TaskStateError as TaskStateError
from citewise.agent.research.tasks import TaskStore as TaskStore
from citewise.api.library import Library
from citewise.llm.base import parse_spec
from citewise.llm.client import ModelClient
from citewise.llm.registry import role_clients
from citewise.report.html import render_html
from citewise.report.markdown import csl_json, render_markdown
from citewise.report.matrix_section import with_matrix_section
from citewise.report.pandoc import FORMATS as PANDOC_FORMATS

REPORTS_DIR = "reports"


@dataclass
class RenderedReport:
    markdown: str
    html: str
    csl: str


@dataclass(frozen=True)
class ResearchStats:
    """A completed task's counts (from the stored Report, not its rendering), rounds and
    tokens; `seconds` the time the run took, when it ran now."""

    rounds: int
    report: ReportStatistics
    tokens_used: int
    tokens_charged: int
    budget_tokens: int | None
    seconds: float | None = None

    def to_dict(self) -> dict[str, object]:
        shown: dict[str, object] = {
            "rounds": self.rounds,
            **self.report.to_dict(),
            "tokens_used": self.tokens_used,
            "tokens_charged": self.tokens_charged,
            "budget_tokens": self.budget_tokens,
        }
        if self.seconds is not None:
            shown["seconds"] = self.seconds
        return shown


@dataclass(frozen=True)
class ResearchOutcome:
    task: Task
    report_markdown: Path | None = None
    report_html: Path | None = None
    evidence: int = 0
    stats: ResearchStats | None = None  # None until the task completes

    def to_dict(self) -> dict[str, object]:
        """The `research --json` / `tasks resume --json` object."""
        return {
            "task": self.task.id,
            "state": self.task.state,
            "report_markdown": str(self.report_markdown) if self.report_markdown else None,
            "report_html": str(self.report_html) if self.report_html else None,
            "evidence": self.evidence,
            "stats": self.stats.to_dict() if self.stats else {"state": self.task.state},
        }


@dataclass(frozen=True)
class BriefEvent:
    """A task event as the faces show it: its data without the bulky stage output (an
    output event shows the output's keys)."""

    id: int
    time: str
    stage: str
    kind: str
    data: Mapping[str, object]

    @classmethod
    def of(cls, event: TaskEvent) -> BriefEvent:
        return cls(event.id, event.time, event.stage, event.kind, brief_event_data(event.data))

    def to_dict(self) -> dict[str, object]:
        """An event of the `tasks show --json` object."""
        return {"time": self.time, "stage": self.stage, "kind": self.kind, "data": dict(self.data)}

    def stream_dict(self) -> dict[str, object]:
        """An event of GET /tasks/{id}/events: with its id, to resume the stream from."""
        return {"id": self.id, **self.to_dict()}


@dataclass
class TaskDetails:
    task: Task
    evidence: int
    report_markdown: str | None
    report_html: str | None
    events: list[TaskEvent]

    def to_dict(self) -> dict[str, Any]:
        """The `tasks show --json` object (and GET /tasks/{id}, MCP get_task, with "running")."""
        return {
            **self.task.summary(),
            "updated": self.task.updated,
            "options": asdict(self.task.options),
            "evidence": self.evidence,
            "report_markdown": self.report_markdown,
            "report_html": self.report_html,
            "events": [BriefEvent.of(e).to_dict() for e in self.events],
        }


ModelsFor = Callable[[Task], ResearchModels | None]


class ResearchDesk:
    """Research tasks of one library. `models` overrides how a task's language models are
    chosen (default: --llm, else the roles of citewise.toml, else none)."""

    def __init__(
        self, library: Library, progress: Progress | None = None, models: ModelsFor | None = None
    ) -> None:
        self.library = library
        library.prepare()  # research searches every block: embed what lacks vectors first
        self.researcher = Researcher(
            library.store,
            library.answerer.retriever,
            progress,
            remote_search=self._remote_search,
            models=models or self._models,
            environ=library.settings.environ,
            finishing=self._finish,
        )
        self.tasks = self.researcher.tasks
        self._written: set[str] = set()  # tasks whose report files _finish wrote in this run

    def _models(self, task: Task) -> ResearchModels | None:
        """Clients for the `reason`, `screen` and `write` roles; None when all are extractive."""
        llm = task.options.llm
        override = parse_spec(llm) if llm and llm != "extractive" else None
        settings = self.library.model_settings
        store = self.library.store

        def first(role: str) -> ModelClient | None:
            clients = role_clients(role, settings, store.audit, override, task=task.id)
            return next((c for c in clients if c.model.backend != "extractive"), None)

        reason = first("reason")
        # One --llm model serves every role: open it once.
        screen = reason.for_role("screen") if override and reason else first("screen")
        write = reason.for_role("write") if override and reason else first("write")
        if reason is None and screen is None and write is None:
            return None
        budget = TokenBudget(store, task.id, task.options.budget_tokens)
        return ResearchModels(reason, screen, budget, write)

    def _remote_search(
        self, query: str, options: ResearchOptions, limit: int
    ) -> tuple[list[Any], list[str]]:
        return remote_search(
            query,
            options.remote_sources,
            limit,
            self.library.store.audit,
            options.sources_config,
            dict(self.library.settings.environ),
        )

    # -- running -----------------------------------------------------------------------

    def research(
        self,
        topic: str,
        options: ResearchOptions,
        out: Path | None = None,
        html: Path | None = None,
    ) -> ResearchOutcome:
        """Start a task and run it to the end; the report files when it completes."""
        task = self.researcher.start(topic, options)
        return self.resume(task.id, out, html)

    def resume(
        self, task_id: str, out: Path | None = None, html: Path | None = None
    ) -> ResearchOutcome:
        """Finish a task from where it stopped (a completed task only re-renders)."""
        started = time.perf_counter()
        try:
            task = self.researcher.run(task_id)
        except BaseException:
            self._unwrite(task_id)
            raise
        evidence = self.tasks.evidence_count(task_id)
        if task.state != "completed":  # cancelled as it was about to complete
            self._unwrite(task_id)
            return ResearchOutcome(task, evidence=evidence)
        outcome = self.write_files(task, out, html)
        seconds = round(time.perf_counter() - started, 3)
        stats = replace(outcome.stats, seconds=seconds) if outcome.stats else None
        return replace(outcome, stats=stats)

    def cancel(self, task_id: str) -> Task:
        return self.tasks.cancel(task_id)

    # -- rendering ---------------------------------------------------------------------

    def report(self, task_id: str) -> Report:
        return self.researcher.report(task_id)

    def render(self, task_id: str, bibliography: str = "references.json") -> RenderedReport:
        return self._render(self.report(task_id), task_id, bibliography)

    def _render(
        self, report: Report, task_id: str, bibliography: str = "references.json"
    ) -> RenderedReport:
        evidence = self.tasks.evidence(task_id)
        markdown, html = with_matrix_section(  # the literature matrix of the papers cited
            render_markdown(report, evidence, task_id, bibliography),
            render_html(report, evidence, task_id),
            self.library.report_matrix(report, evidence),
            report.lang,
        )
        return RenderedReport(markdown, html, csl_json(report))

    def write_files(
        self, task: Task, out: Path | None = None, html: Path | None = None
    ) -> ResearchOutcome:
        """report.md, report.html and references.json in the library's reports folder, and
        copies where --out / --html ask (the bibliography beside the Markdown)."""
        folder = self.library.directory / REPORTS_DIR / task.id
        if task.id in self._written:  # written as the task completed (_finish)
            self._written.discard(task.id)
        else:
            self._write_folder(task.id, self.render(task.id))
        markdown_path, html_path = folder / "report.md", folder / "report.html"
        if out is not None and out.suffix.lower() in PANDOC_FORMATS:
            from citewise.report.pandoc import convert

            convert(markdown_path, out)  # Word, OpenDocument, PDF: through pandoc --citeproc
        elif out is not None:
            bibliography = f"{out.stem}.references.json"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(self.render(task.id, bibliography).markdown, encoding="utf-8")
            csl = (folder / "references.json").read_text(encoding="utf-8")
            (out.parent / bibliography).write_text(csl, encoding="utf-8")
            markdown_path = out
        if html is not None:
            html.parent.mkdir(parents=True, exist_ok=True)
            html.write_text((folder / "report.html").read_text(encoding="utf-8"), encoding="utf-8")
            html_path = html
        evidence = self.tasks.evidence_count(task.id)
        stats = self.stats(task)
        return ResearchOutcome(task, markdown_path, html_path, evidence, stats)

    def _finish(self, task_id: str, report: Report) -> None:
        """The report files of a task about to commit `completed` (Researcher `finishing`):
        written first, so a task anyone sees completed names its report files."""
        self._write_folder(task_id, self._render(report, task_id))
        self._written.add(task_id)

    def _write_folder(self, task_id: str, rendered: RenderedReport) -> None:
        folder = self.library.directory / REPORTS_DIR / task_id
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "report.md").write_text(rendered.markdown, encoding="utf-8")
        (folder / "report.html").write_text(rendered.html, encoding="utf-8")
        (folder / "references.json").write_text(rendered.csl, encoding="utf-8")

    def _unwrite(self, task_id: str) -> None:
        """Take back the files _finish wrote for a task that did not complete after all."""
        if task_id in self._written:
            self._written.discard(task_id)
            folder = self.library.directory / REPORTS_DIR / task_id
            for name in ("report.md", "report.html", "references.json"):
                (folder / name).unlink(missing_ok=True)

    def stats(self, task: Task) -> ResearchStats:
        """Counts for `--json`: papers, evidence, sentences with IDs, unresolved IDs (from
        the stored Report, not from its rendering)."""
        report = self.report(task.id)
        counted = report_statistics(report, (e.id for e in self.tasks.evidence(task.id)))
        budget = TokenBudget(self.library.store, task.id, None)
        return ResearchStats(
            task.round, counted, budget.used(), budget.charged(), task.options.budget_tokens
        )

    # -- listing -----------------------------------------------------------------------

    def list_tasks(self) -> list[Task]:
        return self.tasks.list_tasks()

    def show(self, task_id: str) -> TaskDetails:
        """A task, its evidence count, report files and event log (`tasks show --json`)."""
        task = self.tasks.get(task_id)
        return TaskDetails(
            task,
            self.tasks.evidence_count(task_id),
            self._existing(task, "report.md"),
            self._existing(task, "report.html"),
            self.tasks.events(task_id),
        )

    def _existing(self, task: Task, name: str) -> str | None:
        path = self.library.directory / REPORTS_DIR / task.id / name
        return str(path) if path.exists() else None


def task_store(library: Library) -> TaskStore:
    """The research tasks of `library` (a face reaches them here, not through its store)."""
    return TaskStore(library.store.tasks)


def brief_event_data(data: Mapping[str, object]) -> Mapping[str, object]:
    """An event's data without the bulky stage output (shown as its keys)."""
    if "output" in data and isinstance(data["output"], dict):
        return {"round": data.get("round"), "output": sorted(data["output"])}
    return data
