"""Cache, usage log and structured calls, over a real SQLite library file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from pydantic import BaseModel

from citewise.llm.base import ModelError, Params
from citewise.llm.client import ModelClient, cache_key
from citewise.llm.nomodel import ExtractiveModel
from citewise.llm.structured import structured_call
from citewise.llm.usage import cost_usd, usage_summary
from citewise.store.sqlite.audit import SqliteAuditLog
from citewise.store.sqlite.db import connect
from tests.llm.scripted import ScriptedModel

HELLO = [{"role": "user", "content": "hi"}]


@pytest.fixture
def db(tmp_path: Path) -> sqlite3.Connection:
    return connect(tmp_path / "library.db")


class Verdict(BaseModel):
    supported: bool


def test_cache_key_changes_with_every_part_of_the_call() -> None:
    base = cache_key("b", "m", HELLO, None, Params())
    assert base == cache_key("b", "m", [{"content": "hi", "role": "user"}], None, Params())
    assert len({
        base,
        cache_key("b2", "m", HELLO, None, Params()),
        cache_key("b", "m2", HELLO, None, Params()),
        cache_key("b", "m", [{"role": "user", "content": "ho"}], None, Params()),
        cache_key("b", "m", HELLO, {"type": "object"}, Params()),
        cache_key("b", "m", HELLO, None, Params(max_tokens=9)),
    }) == 6  # fmt: skip


def test_second_identical_call_is_a_logged_cache_hit(db: sqlite3.Connection) -> None:
    model = ScriptedModel(["one", "two"])
    client = ModelClient(model, SqliteAuditLog(db), role="write", task="t1")
    assert client.complete(HELLO).text == "one"
    again = client.complete(HELLO)
    assert again.text == "one" and again.cache_hit and len(model.calls) == 1
    fresh = ModelClient(model, SqliteAuditLog(db), role="write", use_cache=False).complete(HELLO)
    assert fresh.text == "two" and not fresh.cache_hit
    rows = db.execute("SELECT task, role, cache_hit, ok FROM llm_calls ORDER BY id").fetchall()
    assert [tuple(r) for r in rows] == [("t1", "write", 0, 1), ("t1", "write", 1, 1),
                                        (None, "write", 0, 1)]  # fmt: skip


def test_usage_summary_has_the_documented_shape(db: sqlite3.Connection) -> None:
    client = ModelClient(ScriptedModel(["a", "b"]), SqliteAuditLog(db), role="write", task="t1")
    client.complete(HELLO)
    client.complete(HELLO)
    client.for_role("judge").complete([{"role": "user", "content": "other"}])
    summary = usage_summary(SqliteAuditLog(db)).to_dict()
    assert set(summary) == {"calls", "prompt_tokens", "completion_tokens", "cache_hits",
                            "by_model"}  # fmt: skip
    assert (summary["calls"], summary["cache_hits"]) == (3, 1)
    rows = summary["by_model"]
    assert isinstance(rows, list)
    assert [(r["role"], r["calls"]) for r in rows] == [("judge", 1), ("write", 2)]
    assert set(rows[0]) == {"backend", "model", "role", "calls", "prompt_tokens",
                            "completion_tokens", "cost_usd", "latency_ms_p50"}  # fmt: skip
    assert rows[1]["latency_ms_p50"] == 5.0  # the cache hit does not count
    assert usage_summary(SqliteAuditLog(db), task="none").calls == 0


def test_failed_calls_are_logged_with_their_code(db: sqlite3.Connection) -> None:
    class Broken(ScriptedModel):
        def complete(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
            raise ModelError("boom", code="MODEL_TIMEOUT")

    with pytest.raises(ModelError):
        ModelClient(Broken([]), SqliteAuditLog(db), role="write").complete(HELLO)
    assert tuple(db.execute("SELECT ok, error FROM llm_calls").fetchone()) == (0, "MODEL_TIMEOUT")


def test_local_models_cost_nothing_and_hosted_ones_are_priced() -> None:
    assert cost_usd("llamacpp", "SmolLM2", 10_000, 1_000) == 0.0
    assert cost_usd("ollama", "gpt-4o", 10_000, 1_000) == 0.0
    assert cost_usd("openai", "gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(0.75)
    assert cost_usd("openai", "some-local-name", 1_000, 1_000) == 0.0


def test_structured_call_retries_once_with_the_validation_error() -> None:
    model = ScriptedModel(['{"supported": "maybe"}', '```json\n{"supported": true}\n```'])
    result = structured_call(ModelClient(model), HELLO, Verdict)
    assert result.value == Verdict(supported=True) and not result.fell_back
    assert "supported" in model.calls[1][0][-1]["content"]
    assert model.calls[0][1] == Verdict.model_json_schema()


def test_structured_call_falls_back_after_two_invalid_replies() -> None:
    model = ScriptedModel(["nope", "{"])
    result = structured_call(
        ModelClient(model), HELLO, Verdict, fallback=lambda: Verdict(supported=False)
    )
    assert result.fell_back and result.value == Verdict(supported=False)
    assert len(result.errors) == 2 and len(model.calls) == 2


def test_the_extractive_backend_goes_straight_to_the_fallback() -> None:
    result = structured_call(
        ModelClient(ExtractiveModel()), HELLO, Verdict, fallback=lambda: Verdict(supported=True)
    )
    assert result.fell_back and result.value == Verdict(supported=True)
    assert result.completions == []
