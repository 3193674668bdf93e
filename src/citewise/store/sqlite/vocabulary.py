"""The learned vocabulary (abbreviations, introduced names) and the answer review log."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from citewise.store.sqlite.db import transaction


@dataclass(frozen=True)
class Term:
    document_id: str
    kind: str  # "abbreviation" | "name"
    short: str
    long: str = ""


@dataclass(frozen=True)
class ReviewEntry:
    id: int
    asked_at: str
    question: str
    refused: bool
    refusal_kind: str | None
    support: float
    answer: str
    citations: list[str]


def unlearned_documents(db: sqlite3.Connection) -> list[tuple[str, str]]:
    """(id, sha256) of documents whose vocabulary is missing or from an older file."""
    rows = db.execute(
        "SELECT d.id, d.sha256 FROM documents d LEFT JOIN vocabulary_documents v "
        "ON v.document_id = d.id WHERE v.sha256 IS NULL OR v.sha256 != d.sha256"
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


def save_terms(db: sqlite3.Connection, doc_id: str, sha256: str, terms: list[Term]) -> None:
    with transaction(db):
        db.execute("DELETE FROM vocabulary WHERE document_id = ?", (doc_id,))
        db.executemany(
            "INSERT OR IGNORE INTO vocabulary (document_id, kind, short, long) VALUES (?,?,?,?)",
            [(doc_id, t.kind, t.short, t.long) for t in terms],
        )
        db.execute(
            "INSERT OR REPLACE INTO vocabulary_documents (document_id, sha256) VALUES (?, ?)",
            (doc_id, sha256),
        )


def all_terms(db: sqlite3.Connection) -> list[Term]:
    rows = db.execute("SELECT document_id, kind, short, long FROM vocabulary").fetchall()
    return [Term(r[0], r[1], r[2], r[3]) for r in rows]


def log_review(
    db: sqlite3.Connection,
    question: str,
    refused: bool,
    refusal_kind: str | None,
    support: float,
    answer: str,
    citations: list[str],
) -> None:
    with transaction(db):
        db.execute(
            "INSERT INTO answer_reviews (question, refused, refusal_kind, support, answer, "
            "citations) VALUES (?,?,?,?,?,?)",
            (question, int(refused), refusal_kind, support, answer, json.dumps(citations)),
        )


def reviews(db: sqlite3.Connection, limit: int = 50) -> list[ReviewEntry]:
    rows = db.execute(
        "SELECT id, asked_at, question, refused, refusal_kind, support, answer, citations "
        "FROM answer_reviews ORDER BY id DESC LIMIT ?",
        (limit,),
    ).fetchall()
    return [
        ReviewEntry(r[0], r[1], r[2], bool(r[3]), r[4], r[5], r[6], json.loads(r[7])) for r in rows
    ]


class SqliteVocabulary:
    """The VocabularyRepository over the functions above (one library's SQLite file)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def unlearned_documents(self) -> list[tuple[str, str]]:
        return unlearned_documents(self.db)

    def save_terms(self, doc_id: str, sha256: str, terms: list[Term]) -> None:
        save_terms(self.db, doc_id, sha256, terms)

    def all_terms(self) -> list[Term]:
        return all_terms(self.db)

    def log_review(
        self,
        question: str,
        refused: bool,
        refusal_kind: str | None,
        support: float,
        answer: str,
        citations: list[str],
    ) -> None:
        log_review(self.db, question, refused, refusal_kind, support, answer, citations)

    def reviews(self, limit: int = 50) -> list[ReviewEntry]:
        return reviews(self.db, limit)
