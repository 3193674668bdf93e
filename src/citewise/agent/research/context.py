"""What every stage is handed: the task, its store, the library, retrieval and progress."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from citewise.agent.research.model import Plan, ResearchOptions
from citewise.agent.research.models import ResearchModels
from citewise.agent.research.tasks import Task, TaskCancelled, TaskStore
from citewise.retrieval.hybrid import Retriever
from citewise.store.protocols import Store

# (stage state, units done, units in all); total 0 when unknown.
Progress = Callable[[str, int, int], None]
# (query, the task's options, limit) -> (search records, warnings); see gather.remote_search.
RemoteSearch = Callable[[str, ResearchOptions, int], tuple[list[Any], list[str]]]


def _no_progress(state: str, done: int, total: int) -> None:
    return None


@dataclass
class StageContext:
    task: Task
    tasks: TaskStore
    store: Store
    retriever: Retriever
    progress: Progress = _no_progress
    remote_search: RemoteSearch | None = None
    models: ResearchModels | None = None
    warnings: list[str] = field(default_factory=list)
    environ: dict[str, str] = field(default_factory=dict)  # source keys and contact address

    @property
    def options(self) -> ResearchOptions:
        return self.task.options

    def output(self, stage: str, round_: int) -> dict[str, Any] | None:
        return self.tasks.output(self.task.id, stage, round_)

    def plan(self) -> Plan:
        stored = self.output("plan", 0)
        assert stored is not None, "the plan stage runs first"
        return Plan.from_dict(stored["plan"])

    def checkpoint(self, state: str, done: int, total: int) -> None:
        """Between units of work (before a stage's output commits): report progress, and
        stop if the task was cancelled."""
        self.progress(state, done, total)
        if self.tasks.get(self.task.id).state == "cancelled":
            raise TaskCancelled(f"task '{self.task.id}' was cancelled")
