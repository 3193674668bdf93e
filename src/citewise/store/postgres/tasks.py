"""Research tasks, their event log and their evidence on PostgreSQL.

As in SQLite (store/sqlite/tasks.py): a stage's output, its evidence and the task's next state
commit in one transaction, the task row locked (FOR UPDATE) so a cancel from another
machine either comes before (nothing written) or after; evidence IDs are deterministic
and inserted with ON CONFLICT DO NOTHING, so redoing a stage never duplicates.
"""

from __future__ import annotations

import json
from typing import Any

from citewise.store.postgres.connection import Database
from citewise.store.postgres.schema import NOW
from citewise.store.records import EvidenceRecord, StageCancelled, TaskEventRecord, TaskRecord
from citewise.store.sqlite.tasks import (
    EVIDENCE_COLUMNS,
    evidence_record,
    evidence_row,
    round_output,
    task_record,
)


def _event(conn: Any, task_id: str, stage: str, kind: str, data: dict[str, Any]) -> None:
    conn.execute(
        "INSERT INTO task_events (task_id, stage, kind, data) VALUES (%s,%s,%s,%s)",
        (task_id, stage, kind, json.dumps(data, ensure_ascii=False)),
    )


def _insert_evidence(conn: Any, task_id: str, items: list[EvidenceRecord]) -> int:
    added = 0
    for item in items:
        cursor = conn.execute(
            f"INSERT INTO evidence ({EVIDENCE_COLUMNS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s) "
            "ON CONFLICT DO NOTHING",
            evidence_row(task_id, item),
        )
        added += cursor.rowcount
    return added


class PostgresTaskRepository:
    """TaskRepository over one database; each write is one transaction."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def create(self, task: TaskRecord, event: dict[str, Any]) -> None:
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO tasks (id, topic, state, round, options) VALUES (%s,%s,%s,%s,%s)",
                (task.id, task.topic, task.state, task.round, json.dumps(task.options)),
            )
            _event(conn, task.id, "task", "created", event)

    def get(self, task_id: str) -> TaskRecord | None:
        row = self.db.one("SELECT * FROM tasks WHERE id = %s", (task_id,))
        return task_record(row) if row is not None else None

    def list_tasks(self) -> list[TaskRecord]:
        return [task_record(r) for r in self.db.rows("SELECT * FROM tasks ORDER BY created, seq")]

    def set_state(self, task_id: str, state: str, event: dict[str, Any]) -> None:
        with self.db.transaction() as conn:
            conn.execute(
                f"UPDATE tasks SET state = %s, updated = {NOW} WHERE id = %s", (state, task_id)
            )
            _event(conn, task_id, "task", state, event)

    def add_event(self, task_id: str, stage: str, kind: str, data: dict[str, Any]) -> None:
        with self.db.transaction() as conn:
            _event(conn, task_id, stage, kind, data)

    def events(
        self, task_id: str, kind: str | None = None, after: int = 0
    ) -> list[TaskEventRecord]:
        query = "SELECT id, time, stage, kind, data FROM task_events WHERE task_id = %s AND id > %s"
        params: list[object] = [task_id, after]
        if kind:
            query += " AND kind = %s"
            params.append(kind)
        rows = self.db.rows(query + " ORDER BY id", params)
        return [TaskEventRecord(int(r["id"]), r["time"], r["stage"], r["kind"],
                                json.loads(r["data"])) for r in rows]  # fmt: skip

    def output(self, task_id: str, stage: str, round_: int) -> dict[str, Any] | None:
        rows = self.db.rows(
            "SELECT data FROM task_events WHERE task_id = %s AND stage = %s AND kind = 'output' "
            "ORDER BY id DESC",
            (task_id, stage),
        )
        return round_output((row["data"] for row in rows), round_)

    def commit_stage(
        self,
        task_id: str,
        stage: str,
        output: dict[str, Any],
        next_state: str,
        next_round: int,
        evidence: list[EvidenceRecord],
    ) -> int:
        with self.db.transaction() as conn:
            row = conn.execute(
                "SELECT state FROM tasks WHERE id = %s FOR UPDATE", (task_id,)
            ).fetchone()
            if row is not None and row["state"] == "cancelled":
                raise StageCancelled(task_id)
            added = _insert_evidence(conn, task_id, evidence)
            _event(conn, task_id, stage, "output", output)
            conn.execute(
                f"UPDATE tasks SET state = %s, round = %s, updated = {NOW} WHERE id = %s",
                (next_state, next_round, task_id),
            )
        return added

    def add_evidence(
        self, task_id: str, stage: str, items: list[EvidenceRecord], progress: dict[str, Any]
    ) -> int:
        with self.db.transaction() as conn:
            added = _insert_evidence(conn, task_id, items)
            _event(conn, task_id, stage, "progress", {**progress, "added": added})
        return added

    def evidence(self, task_id: str) -> list[EvidenceRecord]:
        rows = self.db.rows("SELECT * FROM evidence WHERE task_id = %s ORDER BY seq", (task_id,))
        return [evidence_record(r) for r in rows]

    def evidence_count(self, task_id: str) -> int:
        n = self.db.value("SELECT count(*) FROM evidence WHERE task_id = %s", (task_id,))
        return int(n or 0)

    def charged_tokens(self, task_id: str) -> int:
        rows = self.db.rows(
            "SELECT data FROM task_events WHERE task_id = %s AND kind = 'tokens'", (task_id,)
        )
        charges: dict[object, int] = {}
        for row in rows:
            event = json.loads(row["data"])
            key, tokens = event.get("key"), event.get("tokens")
            if isinstance(tokens, int):
                charges[key] = max(charges.get(key, tokens), tokens)
        return sum(charges.values())
