"""Research tasks: state, round, event log, stage outputs, evidence (stored through the
store's task repository, store/sqlite/tasks.py).

A stage's output, its evidence and the task's next state commit together, so a task killed
anywhere resumes from the last committed stage; redoing a stage never duplicates evidence.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import asdict, dataclass
from typing import Any

from citewise.agent.research.model import (
    STATES,
    TERMINAL_STATES,
    EvidenceItem,
    ResearchOptions,
    from_dict,
)
from citewise.errors import CitewiseError, Kind
from citewise.store.protocols import TaskRepository
from citewise.store.records import EvidenceRecord, StageCancelled, TaskRecord


class TaskNotFoundError(CitewiseError):
    code = "TASK_NOT_FOUND"
    kind: Kind = "not_found"


class TaskStateError(CitewiseError):
    """The task is in a state that does not allow what was asked (resume a cancelled task)."""

    code = "TASK_STATE"
    kind: Kind = "conflict"


class TaskCancelled(CitewiseError):
    """Raised inside a running pipeline when someone cancelled its task."""

    code = "TASK_CANCELLED"


@dataclass(frozen=True)
class Task:
    id: str
    topic: str
    state: str
    round: int
    options: ResearchOptions
    created: str
    updated: str

    @property
    def finished(self) -> bool:
        return self.state in TERMINAL_STATES

    def summary(self) -> dict[str, Any]:
        """The `tasks list --json` shape."""
        return {
            "id": self.id,
            "topic": self.topic,
            "state": self.state,
            "round": self.round,
            "created": self.created,
        }


@dataclass(frozen=True)
class TaskEvent:
    id: int
    time: str
    stage: str
    kind: str
    data: dict[str, Any]


def new_task_id(topic: str) -> str:
    """Readable and unique: a slug of the topic's first words plus random hex."""
    words = re.findall(r"[a-z0-9]+", topic.lower())[:4]
    slug = "-".join(words)[:32].strip("-") or "task"
    return f"{slug}-{secrets.token_hex(3)}"


def _task(row: TaskRecord) -> Task:
    return Task(
        id=row.id,
        topic=row.topic,
        state=row.state,
        round=row.round,
        options=from_dict(ResearchOptions, row.options),
        created=row.created,
        updated=row.updated,
    )


def _evidence(row: EvidenceRecord) -> EvidenceItem:
    data = row.data
    return EvidenceItem(
        id=row.id,
        sub_question=row.sub_question or "",
        kind=row.kind,
        paper=data.get("paper") or row.record_key or "",
        quote=row.quote,
        block_id=row.block_id,
        page=data.get("page"),
        bbox=data.get("bbox") or [],
        section=data.get("section", ""),
        title=data.get("title", ""),
        link=data.get("link", ""),
        score=data.get("score", 0.0),
        round=data.get("round", 1),
    )


def _record(item: EvidenceItem) -> EvidenceRecord:
    return EvidenceRecord(
        id=item.id,
        sub_question=item.sub_question,
        kind=item.kind,
        block_id=item.block_id,
        record_key=item.paper,
        quote=item.quote,
        data=item.data(),
    )


class TaskStore:
    """Research tasks of one library, over the store's task repository (which makes each
    write one transaction)."""

    def __init__(self, repository: TaskRepository) -> None:
        self.repository = repository

    # -- tasks -----------------------------------------------------------------------

    def create(self, topic: str, options: ResearchOptions) -> Task:
        task_id = new_task_id(topic)
        record = TaskRecord(task_id, topic, "planning", 0, asdict(options))
        self.repository.create(record, {"topic": topic, **asdict(options)})
        return self.get(task_id)

    def get(self, task_id: str) -> Task:
        row = self.repository.get(task_id)
        if row is None:
            raise TaskNotFoundError(
                f"no research task '{task_id}'", hint="run 'citewise tasks list' to see task IDs"
            )
        return _task(row)

    def list_tasks(self) -> list[Task]:
        return [_task(r) for r in self.repository.list_tasks()]

    def set_state(self, task_id: str, state: str, reason: str = "") -> None:
        """Move the task to `state` (used for cancel and fail; stages use `commit_stage`)."""
        assert state in STATES, state
        self.repository.set_state(task_id, state, {"reason": reason} if reason else {})

    def cancel(self, task_id: str) -> Task:
        task = self.get(task_id)
        if task.finished:
            raise TaskStateError(
                f"task '{task_id}' is already {task.state}", hint="nothing to cancel"
            )
        self.set_state(task_id, "cancelled", "cancelled by user")
        return self.get(task_id)

    # -- events and stage outputs ----------------------------------------------------

    def event(self, task_id: str, stage: str, kind: str, data: dict[str, Any]) -> None:
        self.repository.add_event(task_id, stage, kind, data)

    def events(self, task_id: str, kind: str | None = None, after: int = 0) -> list[TaskEvent]:
        return [
            TaskEvent(e.id, e.time, e.stage, e.kind, e.data)
            for e in self.repository.events(task_id, kind, after)
        ]

    def output(self, task_id: str, stage: str, round_: int) -> dict[str, Any] | None:
        """What `stage` stored for round `round_`, or None if it has not finished it."""
        found = self.repository.output(task_id, stage, round_)
        return found["output"] if found is not None else None

    def commit_stage(
        self,
        task_id: str,
        stage: str,
        round_: int,
        output: dict[str, Any],
        next_state: str,
        next_round: int,
        evidence: list[EvidenceItem] | None = None,
    ) -> int:
        """Store a stage's output and evidence and advance the task, all or nothing.

        Returns how many evidence rows were new. Refuses (TaskCancelled) if the task was
        cancelled while the stage ran, so a cancel is never overwritten.
        """
        try:
            return self.repository.commit_stage(
                task_id,
                stage,
                {"round": round_, "output": output},
                next_state,
                next_round,
                [_record(e) for e in evidence or []],
            )
        except StageCancelled:
            raise TaskCancelled(f"task '{task_id}' was cancelled") from None

    # -- evidence --------------------------------------------------------------------

    def add_evidence(
        self, task_id: str, stage: str, items: list[EvidenceItem], progress: dict[str, Any]
    ) -> int:
        """Store part of a stage's evidence with a progress event (one paper's extraction)."""
        return self.repository.add_evidence(task_id, stage, [_record(e) for e in items], progress)

    def evidence(self, task_id: str) -> list[EvidenceItem]:
        return [_evidence(r) for r in self.repository.evidence(task_id)]

    def evidence_count(self, task_id: str) -> int:
        return self.repository.evidence_count(task_id)
