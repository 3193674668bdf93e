"""Tasks and evidence, the audit log and its caches, and watches, through the protocols."""

from __future__ import annotations

import pytest

from citewise.store.protocols import Store
from citewise.store.records import (
    CachedResponse,
    EvidenceRecord,
    HttpRequest,
    ModelCall,
    StageCancelled,
    TaskRecord,
    WatchRecord,
)


def _task(store: Store, task_id: str = "t1") -> TaskRecord:
    store.tasks.create(TaskRecord(task_id, "granite", "planning", 0, {"k": 8}), {"topic": "x"})
    found = store.tasks.get(task_id)
    assert found is not None
    return found


def _evidence(n: int) -> EvidenceRecord:
    return EvidenceRecord(f"e{n}", "q1", "quote", f"b{n}", "paper", f"quote {n}", {"page": n})


def test_a_task_is_created_listed_and_moved_between_states(store: Store) -> None:
    task = _task(store)
    assert (task.topic, task.state, task.round, task.options) == (
        "granite",
        "planning",
        0,
        {"k": 8},
    )
    assert task.created and task.updated
    store.tasks.set_state("t1", "cancelled", {"reason": "by user"})
    assert store.tasks.get("t1").state == "cancelled"  # type: ignore[union-attr]
    assert [t.id for t in store.tasks.list_tasks()] == ["t1"]
    assert store.tasks.get("nothing") is None
    kinds = [(e.stage, e.kind, e.data) for e in store.tasks.events("t1")]
    assert kinds == [
        ("task", "created", {"topic": "x"}),
        ("task", "cancelled", {"reason": "by user"}),
    ]


def test_a_stage_commits_output_evidence_and_state_together(store: Store) -> None:
    _task(store)
    added = store.tasks.commit_stage(
        "t1", "plan", {"round": 1, "output": {"a": 1}}, "searching", 1, [_evidence(1)]
    )
    assert added == 1
    again = store.tasks.commit_stage(
        "t1", "plan", {"round": 1, "output": {"a": 2}}, "searching", 1, [_evidence(1)]
    )
    assert again == 0  # the same evidence ID is never stored twice
    assert store.tasks.output("t1", "plan", 1) == {"round": 1, "output": {"a": 2}}
    assert store.tasks.output("t1", "plan", 2) is None
    assert store.tasks.get("t1").state == "searching"  # type: ignore[union-attr]
    assert store.tasks.evidence("t1") == [_evidence(1)]
    after = store.tasks.events("t1")[0].id
    assert [e.kind for e in store.tasks.events("t1", after=after)] == ["output", "output"]
    assert [e.kind for e in store.tasks.events("t1", kind="output")] == ["output", "output"]


def test_a_cancelled_task_refuses_a_stage_and_keeps_nothing(store: Store) -> None:
    _task(store)
    store.tasks.set_state("t1", "cancelled", {})
    with pytest.raises(StageCancelled):
        store.tasks.commit_stage("t1", "plan", {"round": 1}, "searching", 1, [_evidence(1)])
    assert store.tasks.evidence_count("t1") == 0
    assert store.tasks.get("t1").state == "cancelled"  # type: ignore[union-attr]


def test_progress_evidence_and_token_charges(store: Store) -> None:
    _task(store)
    assert store.tasks.add_evidence("t1", "extract", [_evidence(1), _evidence(2)], {"p": 1}) == 2
    (progress,) = store.tasks.events("t1", kind="progress")
    assert progress.data == {"p": 1, "added": 2}
    for key, tokens in (("k1", 10), ("k1", 30), ("k2", 5)):
        store.tasks.add_event("t1", "reason", "tokens", {"key": key, "tokens": tokens})
    assert store.tasks.charged_tokens("t1") == 35  # each request once, at its largest charge
    assert store.tasks.evidence_count("t1") == 2


def test_model_calls_are_logged_and_replies_cached(store: Store) -> None:
    store.audit.log_model_call(ModelCall("ollama", "m", "write", "t1", 10, 5, 12.34, 0.5))
    store.audit.log_model_call(ModelCall("ollama", "m", "write", "t1", 3, 2, cache_hit=True))
    store.audit.log_model_call(ModelCall("ollama", "m", None, "t2", ok=False, error="DOWN"))
    calls = store.audit.model_calls("t1")
    assert [(c.prompt_tokens, c.cache_hit, c.latency_ms) for c in calls] == [
        (10, False, 12.3),
        (3, True, 0.0),
    ]
    assert len(store.audit.model_calls()) == 3 and store.audit.model_calls("t2")[0].error == "DOWN"
    assert store.audit.model_tokens_used("t1") == 15  # cache hits cost nothing
    assert store.audit.cached_model_reply("k") is None
    store.audit.cache_model_reply("k", '{"text": "a"}')
    store.audit.cache_model_reply("k", '{"text": "b"}')
    assert store.audit.cached_model_reply("k") == '{"text": "b"}'


def test_http_responses_are_cached_until_they_expire(store: Store) -> None:
    reply = CachedResponse("key", "http://x/a", 200, {"a": "b"}, b"\x00body", 100.0, 200.0)
    store.audit.cache_response(reply)
    assert store.audit.cached_response("key", 150.0) == reply
    assert store.audit.cached_response("key", 250.0) is None
    store.audit.evict_response("key")
    assert store.audit.cached_response("key", 150.0) is None


def test_http_requests_share_one_log_and_the_claim_respects_the_wait_rule(store: Store) -> None:
    hit = HttpRequest(
        "arxiv", "http://x/1", status=200, cache_hit=True, time="2026-01-01T00:00:00.000Z"
    )
    store.audit.log_request(hit)
    row = store.audit.log_request(HttpRequest("fetch", "http://x/2", task="t1", status=404))
    store.audit.finish_request(row, 200, 5.0, None)
    claimed, wait = store.audit.claim_request(
        HttpRequest("arxiv", "http://x/3", time="2026-01-01T00:00:01.000Z"), 2, 100, lambda r: 0.0
    )
    assert claimed is not None and wait == 0.0
    assert store.audit.recent_request_times("arxiv", 5, 100) == ["2026-01-01T00:00:01.000Z"]
    refused, wait = store.audit.claim_request(
        HttpRequest("arxiv", "http://x/4"), 2, 100, lambda recent: 0.25 * len(recent)
    )
    assert (refused, wait) == (None, 0.25)
    assert store.audit.recent_request_times("arxiv", 5, 100) == ["2026-01-01T00:00:01.000Z"]


def test_watches_are_saved_and_replaced_by_id(store: Store) -> None:
    assert store.watches.list_watches() == [] and store.watches.get_watch("w") is None
    first = WatchRecord("w", "graph networks", ["arxiv"], None, 0, [])
    store.watches.save_watch(first)
    later = WatchRecord("w", "graph networks", ["arxiv"], "2026-01-02", 2, ["doi:10.1/x"])
    store.watches.save_watch(later)
    store.watches.save_watch(WatchRecord("v", "basalt", ["pubmed"]))
    assert store.watches.get_watch("w") == later
    assert [w.id for w in store.watches.list_watches()] == ["w", "v"]
