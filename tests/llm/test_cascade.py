"""Cascades in the role-call layer: any role listing two models calls the second only when
the first fails or is unsure, and both calls are logged in `llm_calls`."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from pydantic import BaseModel

from citewise.config import ModelSettings
from citewise.llm.base import Completion, Message, ModelUnreachableError, Params, Schema
from citewise.llm.cascade import chain, reply_confidence
from citewise.llm.client import ModelClient
from citewise.llm.openai_compat import OpenAICompatModel
from citewise.llm.registry import role_clients
from citewise.llm.structured import structured_call
from citewise.store.sqlite.audit import SqliteAuditLog
from citewise.store.sqlite.db import connect
from tests.llm.scripted import ScriptedModel
from tests.loopback import free_port

SCREEN = [{"role": "user", "content": "Is 'granite block classification' relevant?"}]


class Relevance(BaseModel):
    relevant: bool
    reason: str


SCHEMA = Relevance.model_json_schema()


@pytest.fixture
def db(tmp_path: Path) -> sqlite3.Connection:
    return connect(tmp_path / "library.db")


def logged(db: sqlite3.Connection) -> list[tuple[str, str, int]]:
    rows = db.execute("SELECT role, model, ok FROM llm_calls ORDER BY rowid").fetchall()
    return [(r[0], r[1], r[2]) for r in rows]


def test_reply_confidence_reads_the_reply_itself() -> None:
    good = '{"relevant": true, "reason": "it is about granite"}'
    assert reply_confidence(good, "stop", SCHEMA) == 1.0
    assert reply_confidence(good, "length", SCHEMA) == 0.0  # cut off
    assert reply_confidence("Sure! " + good, "stop", SCHEMA) == 1.0  # preamble tolerated
    assert reply_confidence('{"relevant": true}', "stop", SCHEMA) == 0.0  # a required key lacks
    assert reply_confidence("relevant, I think", "stop", SCHEMA) == 0.0
    assert reply_confidence("[1, 2]", "stop", SCHEMA) == 0.0
    assert (
        reply_confidence('{"relevant": 1, "reason": "x", "confidence": 0.2}', schema=SCHEMA) == 0.2
    )
    assert reply_confidence('{"relevant": 1, "reason": "x", "confidence": 7}', schema=SCHEMA) == 1.0
    assert reply_confidence("plain text") == 1.0 and reply_confidence("  ") == 0.0


@pytest.mark.parametrize("role", ["screen", "extract", "reason", "judge"])
def test_any_role_escalates_only_when_the_first_model_is_unsure(
    db: sqlite3.Connection, role: str
) -> None:
    small = ScriptedModel(['{"relevant": true, "reason": "granite"', "not json either"], "small")
    large = ScriptedModel([{"relevant": True, "reason": "about granite blocks"}], "large")
    first, second = chain(
        [
            ModelClient(small, SqliteAuditLog(db), role=role),
            ModelClient(large, SqliteAuditLog(db), role=role),
        ],
        0.5,
    )
    assert first.escalate is not None and second.escalate is None
    result = structured_call(first, SCREEN, Relevance, Params(max_tokens=40))
    assert result.value == Relevance(relevant=True, reason="about granite blocks")
    assert len(small.calls) == len(large.calls) == 1
    assert logged(db) == [(role, "small", 1), (role, "large", 1)]  # two calls, both logged

    sure = ScriptedModel([{"relevant": False, "reason": "about telescopes"}], "small")
    unused = ScriptedModel([], "large")
    first = chain(
        [
            ModelClient(sure, SqliteAuditLog(db), role=role),
            ModelClient(unused, SqliteAuditLog(db), role=role),
        ],
        0.5,
    )[0]
    assert structured_call(first, SCREEN, Relevance).value == Relevance(
        relevant=False, reason="about telescopes"
    )
    assert unused.calls == [] and len(logged(db)) == 3


def test_a_stated_confidence_below_the_threshold_escalates(db: sqlite3.Connection) -> None:
    small = ScriptedModel([{"relevant": True, "reason": "maybe", "confidence": 0.3}], "small")
    large = ScriptedModel([{"relevant": False, "reason": "no"}], "large")
    first = chain(
        [
            ModelClient(small, SqliteAuditLog(db), role="screen"),
            ModelClient(large, SqliteAuditLog(db), role="screen"),
        ],
        0.5,
    )[0]
    completion = first.complete(SCREEN, SCHEMA)  # what the research stages call directly
    assert completion.model == "large" and len(large.calls) == 1
    unsure = ScriptedModel([{"relevant": True, "reason": "maybe", "confidence": 0.3}], "small")
    unused = ScriptedModel([], "large")
    lenient = chain(
        [ModelClient(unsure, SqliteAuditLog(db)), ModelClient(unused, SqliteAuditLog(db))], 0.25
    )[0]
    assert lenient.complete(SCREEN, SCHEMA).model == "small" and unused.calls == []


def test_a_failing_first_model_escalates_and_the_failure_is_logged(db: sqlite3.Connection) -> None:
    down = OpenAICompatModel("small", url=f"http://127.0.0.1:{free_port()}/v1", timeout=2)
    large = ScriptedModel([{"relevant": True, "reason": "granite"}], "large")
    first = chain(
        [
            ModelClient(down, SqliteAuditLog(db), role="reason"),
            ModelClient(large, SqliteAuditLog(db), role="reason"),
        ],
        0.5,
    )[0]
    assert first.complete(SCREEN, SCHEMA).model == "large"
    assert logged(db) == [("reason", "small", 0), ("reason", "large", 1)]
    alone = first.alone()
    with pytest.raises(ModelUnreachableError, match="127.0.0.1"):
        alone.complete(SCREEN, SCHEMA)


def test_role_clients_chain_a_configured_cascade_and_roles_carry_over() -> None:
    settings = ModelSettings(
        roles={"screen": ["openai:small", "ollama:large"], "write": ["openai:only"]},
        cascade_threshold=0.7,
    )
    first, second = role_clients("screen", settings, None)
    assert first.escalate is not None and first.escalate.label == "ollama:large"
    assert first.threshold == 0.7 and second.escalate is None
    judged = first.for_role("judge")
    assert judged.role == "judge" and judged.escalate is not None
    assert judged.escalate.role == "judge"
    (only,) = role_clients("write", settings, None)
    assert only.escalate is None


class Recorder:
    """Counts calls; used to show a cached first reply still cascades consistently."""

    backend = "scripted"
    model = "small"
    n_ctx = 4096

    def __init__(self) -> None:
        self.calls = 0

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def complete(
        self, messages: list[Message], schema: Schema | None = None, params: Params = Params()
    ) -> Completion:
        self.calls += 1
        return Completion("", self.backend, self.model, 3, 0, 1.0)


def test_a_cached_unsure_reply_still_goes_to_the_second_model(db: sqlite3.Connection) -> None:
    small = Recorder()
    large = ScriptedModel(["yes", "yes"], "large")
    first = chain(
        [ModelClient(small, SqliteAuditLog(db)), ModelClient(large, SqliteAuditLog(db))], 0.5
    )[0]
    assert first.complete(SCREEN).text == first.complete(SCREEN).text == "yes"
    assert small.calls == 1 and len(large.calls) == 1  # both second calls were cache hits
