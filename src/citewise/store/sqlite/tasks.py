"""Research tasks, their event log and their evidence in the library's SQLite file.

A stage's output, its evidence and the task's next state commit in one transaction
(`commit_stage`), so a task killed anywhere resumes from the last committed stage. Evidence
IDs are deterministic and inserted with INSERT OR IGNORE: redoing a stage never duplicates.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any, Protocol

from citewise.store.records import EvidenceRecord, StageCancelled, TaskEventRecord, TaskRecord
from citewise.store.sqlite.db import transaction

_NOW = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"


class Row(Protocol):
    """A result row read by column name (sqlite3.Row, a psycopg dict row)."""

    def __getitem__(self, key: str) -> Any: ...


# -- shared by every backend (each runs its own SQL) --------------------------------------

EVIDENCE_COLUMNS = "id, task_id, sub_question, kind, block_id, record_key, quote, data"


def task_record(row: Row) -> TaskRecord:
    return TaskRecord(
        id=row["id"],
        topic=row["topic"],
        state=row["state"],
        round=row["round"],
        options=json.loads(row["options"]),
        created=row["created"],
        updated=row["updated"],
    )


def evidence_record(row: Row) -> EvidenceRecord:
    return EvidenceRecord(
        id=row["id"],
        sub_question=row["sub_question"],
        kind=row["kind"],
        block_id=row["block_id"],
        record_key=row["record_key"],
        quote=row["quote"],
        data=json.loads(row["data"]),
    )


def evidence_row(task_id: str, item: EvidenceRecord) -> tuple[Any, ...]:
    """The `evidence` row of an item (EVIDENCE_COLUMNS, in order)."""
    return (
        item.id,
        task_id,
        item.sub_question,
        item.kind,
        item.block_id,
        item.record_key,
        item.quote,
        json.dumps(item.data, ensure_ascii=False),
    )


def round_output(outputs: Iterable[str], round_: int) -> dict[str, Any] | None:
    """The first of a stage's output events (JSON, newest first) made in round `round_`."""
    for data in outputs:
        found: dict[str, Any] = json.loads(data)
        if found.get("round") == round_:
            return found
    return None


# -- SQLite -------------------------------------------------------------------------------


class SqliteTaskRepository:
    """Tasks of one library on the library's connection; each write is one transaction."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    # -- tasks -----------------------------------------------------------------------

    def create(self, task: TaskRecord, event: dict[str, Any]) -> None:
        with transaction(self.db):
            self.db.execute(
                "INSERT INTO tasks (id, topic, state, round, options) VALUES (?,?,?,?,?)",
                (task.id, task.topic, task.state, task.round, json.dumps(task.options)),
            )
            self._event(task.id, "task", "created", event)

    def get(self, task_id: str) -> TaskRecord | None:
        row = self.db.execute("SELECT * FROM tasks WHERE id = ?", (task_id,)).fetchone()
        return task_record(row) if row is not None else None

    def list_tasks(self) -> list[TaskRecord]:
        rows = self.db.execute("SELECT * FROM tasks ORDER BY created, rowid").fetchall()
        return [task_record(r) for r in rows]

    def set_state(self, task_id: str, state: str, event: dict[str, Any]) -> None:
        with transaction(self.db):
            self.db.execute(
                f"UPDATE tasks SET state = ?, updated = {_NOW} WHERE id = ?", (state, task_id)
            )
            self._event(task_id, "task", state, event)

    # -- events and stage outputs ----------------------------------------------------

    def _event(self, task_id: str, stage: str, kind: str, data: dict[str, Any]) -> None:
        self.db.execute(
            "INSERT INTO task_events (task_id, stage, kind, data) VALUES (?,?,?,?)",
            (task_id, stage, kind, json.dumps(data, ensure_ascii=False)),
        )

    def add_event(self, task_id: str, stage: str, kind: str, data: dict[str, Any]) -> None:
        with transaction(self.db):
            self._event(task_id, stage, kind, data)

    def events(
        self, task_id: str, kind: str | None = None, after: int = 0
    ) -> list[TaskEventRecord]:
        query = "SELECT id, time, stage, kind, data FROM task_events WHERE task_id = ? AND id > ?"
        params: list[object] = [task_id, after]
        if kind:
            query += " AND kind = ?"
            params.append(kind)
        rows = self.db.execute(query + " ORDER BY id", params).fetchall()
        return [TaskEventRecord(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    def output(self, task_id: str, stage: str, round_: int) -> dict[str, Any] | None:
        """The data of `stage`'s latest output event for round `round_`."""
        rows = self.db.execute(
            "SELECT data FROM task_events WHERE task_id = ? AND stage = ? AND kind = 'output' "
            "ORDER BY id DESC",
            (task_id, stage),
        )
        return round_output((data for (data,) in rows), round_)

    def commit_stage(
        self,
        task_id: str,
        stage: str,
        output: dict[str, Any],
        next_state: str,
        next_round: int,
        evidence: list[EvidenceRecord],
    ) -> int:
        """Evidence, the output event and the next state, all or nothing; how many evidence
        rows were new. Raises StageCancelled (writing nothing) if the task was cancelled."""
        with transaction(self.db):
            row = self.db.execute("SELECT state FROM tasks WHERE id = ?", (task_id,)).fetchone()
            if row is not None and row[0] == "cancelled":
                raise StageCancelled(task_id)
            added = self._insert_evidence(task_id, evidence)
            self._event(task_id, stage, "output", output)
            self.db.execute(
                f"UPDATE tasks SET state = ?, round = ?, updated = {_NOW} WHERE id = ?",
                (next_state, next_round, task_id),
            )
        return added

    # -- evidence --------------------------------------------------------------------

    def _insert_evidence(self, task_id: str, items: list[EvidenceRecord]) -> int:
        added = 0
        for item in items:
            cursor = self.db.execute(
                f"INSERT OR IGNORE INTO evidence ({EVIDENCE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)",
                evidence_row(task_id, item),
            )
            added += cursor.rowcount
        return added

    def add_evidence(
        self,
        task_id: str,
        stage: str,
        items: list[EvidenceRecord],
        progress: dict[str, Any],
    ) -> int:
        """Part of a stage's evidence with a progress event (`added` filled in)."""
        with transaction(self.db):
            added = self._insert_evidence(task_id, items)
            self._event(task_id, stage, "progress", {**progress, "added": added})
        return added

    def evidence(self, task_id: str) -> list[EvidenceRecord]:
        rows = self.db.execute(
            "SELECT * FROM evidence WHERE task_id = ? ORDER BY rowid", (task_id,)
        ).fetchall()
        return [evidence_record(r) for r in rows]

    def evidence_count(self, task_id: str) -> int:
        (n,) = self.db.execute(
            "SELECT count(*) FROM evidence WHERE task_id = ?", (task_id,)
        ).fetchone()
        return int(n)

    def charged_tokens(self, task_id: str) -> int:
        """Sum over distinct request keys of the largest `tokens` charge event."""
        rows = self.db.execute(
            "SELECT data FROM task_events WHERE task_id = ? AND kind = 'tokens'", (task_id,)
        )
        charges: dict[object, int] = {}
        for (data,) in rows:
            event = json.loads(data)
            key, tokens = event.get("key"), event.get("tokens")
            if isinstance(tokens, int):
                charges[key] = max(charges.get(key, tokens), tokens)
        return sum(charges.values())
