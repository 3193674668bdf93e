"""The smaller repositories on PostgreSQL: learned vocabulary and answer reviews, computed
matrix cells, saved searches (watches). Same rows and results as their SQLite twins."""

from __future__ import annotations

import json
from typing import Any

from citewise.store.postgres.connection import Database
from citewise.store.records import ActionRecord, WatchRecord
from citewise.store.sqlite.vocabulary import ReviewEntry, Term


class PostgresVocabulary:
    def __init__(self, db: Database) -> None:
        self.db = db

    def unlearned_documents(self) -> list[tuple[str, str]]:
        rows = self.db.rows(
            "SELECT d.id, d.sha256 FROM documents d LEFT JOIN vocabulary_documents v "
            "ON v.document_id = d.id WHERE v.sha256 IS NULL OR v.sha256 != d.sha256 "
            "ORDER BY d.id"
        )
        return [(r["id"], r["sha256"]) for r in rows]

    def save_terms(self, doc_id: str, sha256: str, terms: list[Term]) -> None:
        with self.db.transaction() as conn, conn.cursor() as cur:
            cur.execute("DELETE FROM vocabulary WHERE document_id = %s", (doc_id,))
            cur.executemany(
                "INSERT INTO vocabulary (document_id, kind, short, long) VALUES (%s,%s,%s,%s) "
                "ON CONFLICT DO NOTHING",
                [(doc_id, t.kind, t.short, t.long) for t in terms],
            )
            cur.execute(
                "INSERT INTO vocabulary_documents (document_id, sha256) VALUES (%s, %s) "
                "ON CONFLICT (document_id) DO UPDATE SET sha256 = excluded.sha256",
                (doc_id, sha256),
            )

    def all_terms(self) -> list[Term]:
        # SQLite returns the primary key's order; so does this.
        rows = self.db.rows(
            "SELECT document_id, kind, short, long FROM vocabulary ORDER BY "
            'document_id COLLATE "C", kind COLLATE "C", short COLLATE "C", long COLLATE "C"'
        )
        return [Term(r["document_id"], r["kind"], r["short"], r["long"]) for r in rows]

    def log_review(
        self,
        question: str,
        refused: bool,
        refusal_kind: str | None,
        support: float,
        answer: str,
        citations: list[str],
    ) -> None:
        with self.db.connect() as conn:
            conn.execute(
                "INSERT INTO answer_reviews (question, refused, refusal_kind, support, answer, "
                "citations) VALUES (%s,%s,%s,%s,%s,%s)",
                (question, int(refused), refusal_kind, support, answer, json.dumps(citations)),
            )

    def reviews(self, limit: int = 50) -> list[ReviewEntry]:
        rows = self.db.rows(
            "SELECT id, asked_at, question, refused, refusal_kind, support, answer, citations "
            "FROM answer_reviews ORDER BY id DESC LIMIT %s",
            (limit,),
        )
        return [
            ReviewEntry(
                int(r["id"]),
                r["asked_at"],
                r["question"],
                bool(r["refused"]),
                r["refusal_kind"],
                r["support"],
                r["answer"],
                json.loads(r["citations"]),
            )
            for r in rows
        ]


class PostgresMatrixCells:
    def __init__(self, db: Database) -> None:
        self.db = db

    def cells(self, doc_id: str, sha256: str, version: int) -> dict[str, dict[str, Any] | None]:
        rows = self.db.rows(
            "SELECT column_name, cell FROM matrix_cells "
            "WHERE document_id = %s AND sha256 = %s AND version = %s",
            (doc_id, sha256, version),
        )
        return {r["column_name"]: json.loads(r["cell"]) if r["cell"] else None for r in rows}

    def save(
        self, doc_id: str, sha256: str, version: int, cells: dict[str, dict[str, Any] | None]
    ) -> None:
        with self.db.transaction() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO matrix_cells (document_id, sha256, version, column_name, cell) "
                "VALUES (%s,%s,%s,%s,%s) ON CONFLICT (document_id, column_name) DO UPDATE SET "
                "sha256 = excluded.sha256, version = excluded.version, cell = excluded.cell",
                [
                    (doc_id, sha256, version, column, json.dumps(cell) if cell else None)
                    for column, cell in cells.items()
                ],
            )


def _watch(row: dict[str, Any]) -> WatchRecord:
    return WatchRecord(
        id=row["id"],
        query=row["query"],
        sources=json.loads(row["sources"]),
        last_run=row["last_run"],
        runs=row["runs"],
        seen=json.loads(row["seen"]),
    )


class PostgresWatchRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def list_watches(self) -> list[WatchRecord]:
        return [_watch(r) for r in self.db.rows("SELECT * FROM watches ORDER BY seq")]

    def get_watch(self, watch_id: str) -> WatchRecord | None:
        row = self.db.one("SELECT * FROM watches WHERE id = %s", (watch_id,))
        return _watch(row) if row is not None else None

    def save_watch(self, watch: WatchRecord) -> None:
        with self.db.connect() as conn:
            conn.execute(
                "INSERT INTO watches (id, query, sources, last_run, runs, seen) "
                "VALUES (%s,%s,%s,%s,%s,%s) ON CONFLICT (id) DO UPDATE SET "
                "query = excluded.query, sources = excluded.sources, "
                "last_run = excluded.last_run, runs = excluded.runs, seen = excluded.seen",
                (
                    watch.id,
                    watch.query,
                    json.dumps(watch.sources),
                    watch.last_run,
                    watch.runs,
                    json.dumps(watch.seen, ensure_ascii=False),
                ),
            )


class PostgresActionLog:
    """The audit trail: who asked, searched, started research, ingested or deleted what."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def record(self, action: ActionRecord) -> None:
        with self.db.connect() as conn:
            conn.execute(
                "INSERT INTO audit_log (actor, action, subject, detail) VALUES (%s,%s,%s,%s)",
                (
                    action.actor,
                    action.action,
                    action.subject,
                    json.dumps(action.detail, ensure_ascii=False),
                ),
            )

    def actions(self, limit: int = 50, actor: str | None = None) -> list[ActionRecord]:
        where, params = ("WHERE actor = %s", [actor]) if actor else ("", [])
        rows = self.db.rows(
            "SELECT time, actor, action, subject, detail FROM audit_log "
            f"{where} ORDER BY id DESC LIMIT %s",
            [*params, limit],
        )
        return [
            ActionRecord(r["actor"], r["action"], r["subject"], json.loads(r["detail"]), r["time"])
            for r in rows
        ]
