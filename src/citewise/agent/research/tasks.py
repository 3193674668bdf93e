"""Research tasks in the library's SQLite file: state, round, event log, stage outputs, evidence.

A stage's output, its evidence and the task's next state commit in one transaction, so a
task killed anywhere resumes from the last committed stage. Evidence IDs are deterministic
and inserted with INSERT OR IGNORE, so redoing a stage never duplicates a row.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
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
from citewise.store.db import transaction


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


def _task(row: sqlite3.Row) -> Task:
    return Task(
        id=row["id"],
        topic=row["topic"],
        state=row["state"],
        round=row["round"],
        options=from_dict(ResearchOptions, json.loads(row["options"])),
        created=row["created"],
        updated=row["updated"],
    )


def _evidence(row: sqlite3.Row) -> EvidenceItem:
    data = json.loads(row["data"])
    return EvidenceItem(
        id=row["id"],
        sub_question=row["sub_question"] or "",
        kind=row["kind"],
        paper=data.get("paper") or row["record_key"] or "",
        quote=row["quote"],
        block_id=row["block_id"],
        page=data.get("page"),
        bbox=data.get("bbox") or [],
        section=data.get("section", ""),
        title=data.get("title", ""),
        link=data.get("link", ""),
        score=data.get("score", 0.0),
        round=data.get("round", 1),
    )


_NOW = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"


class TaskStore:
    """Tasks of one library. Shares the library's connection; each write is one transaction."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    # -- tasks -----------------------------------------------------------------------

    def create(self, topic: str, options: ResearchOptions) -> Task:
        task_id = new_task_id(topic)
        with transaction(self.db):
            self.db.execute(
                "INSERT INTO tasks (id, topic, state, round, options) VALUES (?,?,?,?,?)",
                (task_id, topic, "planning", 0, json.dumps(asdict(options))),
            )
            self._event(task_id, "task", "created", {"topic": topic, **asdict(options)})
        return self.get(task_id)

    def get(self, task_id: str) -> Task:
        row = self.db.execute("SELECT * FROM tasks WHERE id = ?", (task_id,)).fetchone()
        if row is None:
            raise TaskNotFoundError(
                f"no research task '{task_id}'", hint="run 'citewise tasks list' to see task IDs"
            )
        return _task(row)

    def list_tasks(self) -> list[Task]:
        rows = self.db.execute("SELECT * FROM tasks ORDER BY created, rowid").fetchall()
        return [_task(r) for r in rows]

    def set_state(self, task_id: str, state: str, reason: str = "") -> None:
        """Move the task to `state` (used for cancel and fail; stages use `commit_stage`)."""
        assert state in STATES, state
        with transaction(self.db):
            self.db.execute(
                f"UPDATE tasks SET state = ?, updated = {_NOW} WHERE id = ?", (state, task_id)
            )
            self._event(task_id, "task", state, {"reason": reason} if reason else {})

    def cancel(self, task_id: str) -> Task:
        task = self.get(task_id)
        if task.finished:
            raise TaskStateError(
                f"task '{task_id}' is already {task.state}", hint="nothing to cancel"
            )
        self.set_state(task_id, "cancelled", "cancelled by user")
        return self.get(task_id)

    # -- events and stage outputs ----------------------------------------------------

    def _event(self, task_id: str, stage: str, kind: str, data: dict[str, Any]) -> None:
        self.db.execute(
            "INSERT INTO task_events (task_id, stage, kind, data) VALUES (?,?,?,?)",
            (task_id, stage, kind, json.dumps(data, ensure_ascii=False)),
        )

    def event(self, task_id: str, stage: str, kind: str, data: dict[str, Any]) -> None:
        with transaction(self.db):
            self._event(task_id, stage, kind, data)

    def events(self, task_id: str, kind: str | None = None) -> list[TaskEvent]:
        query = "SELECT id, time, stage, kind, data FROM task_events WHERE task_id = ?"
        params: list[object] = [task_id]
        if kind:
            query += " AND kind = ?"
            params.append(kind)
        rows = self.db.execute(query + " ORDER BY id", params).fetchall()
        return [TaskEvent(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    def output(self, task_id: str, stage: str, round_: int) -> dict[str, Any] | None:
        """What `stage` stored for round `round_`, or None if it has not finished it."""
        row = self.db.execute(
            "SELECT data FROM task_events WHERE task_id = ? AND stage = ? AND kind = 'output' "
            "AND json_extract(data, '$.round') = ? ORDER BY id DESC LIMIT 1",
            (task_id, stage, round_),
        ).fetchone()
        return json.loads(row[0])["output"] if row else None

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
        with transaction(self.db):
            (state,) = self.db.execute(
                "SELECT state FROM tasks WHERE id = ?", (task_id,)
            ).fetchone()
            if state == "cancelled":
                raise TaskCancelled(f"task '{task_id}' was cancelled")
            added = self._insert_evidence(task_id, evidence or [])
            self._event(task_id, stage, "output", {"round": round_, "output": output})
            self.db.execute(
                f"UPDATE tasks SET state = ?, round = ?, updated = {_NOW} WHERE id = ?",
                (next_state, next_round, task_id),
            )
        return added

    # -- evidence --------------------------------------------------------------------

    def _insert_evidence(self, task_id: str, items: list[EvidenceItem]) -> int:
        added = 0
        for item in items:
            cursor = self.db.execute(
                "INSERT OR IGNORE INTO evidence "
                "(id, task_id, sub_question, kind, block_id, record_key, quote, data) "
                "VALUES (?,?,?,?,?,?,?,?)",
                (
                    item.id,
                    task_id,
                    item.sub_question,
                    item.kind,
                    item.block_id,
                    item.paper,
                    item.quote,
                    json.dumps(item.data(), ensure_ascii=False),
                ),
            )
            added += cursor.rowcount
        return added

    def add_evidence(
        self, task_id: str, stage: str, items: list[EvidenceItem], progress: dict[str, Any]
    ) -> int:
        """Store part of a stage's evidence with a progress event (one paper's extraction)."""
        with transaction(self.db):
            added = self._insert_evidence(task_id, items)
            self._event(task_id, stage, "progress", {**progress, "added": added})
        return added

    def evidence(self, task_id: str) -> list[EvidenceItem]:
        rows = self.db.execute(
            "SELECT * FROM evidence WHERE task_id = ? ORDER BY rowid", (task_id,)
        ).fetchall()
        return [_evidence(r) for r in rows]

    def evidence_count(self, task_id: str) -> int:
        (n,) = self.db.execute(
            "SELECT count(*) FROM evidence WHERE task_id = ?", (task_id,)
        ).fetchone()
        return int(n)
