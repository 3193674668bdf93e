"""`citewise serve --users` on a PostgreSQL library (real uvicorn on loopback): each user
has a token of their own, a read-only user cannot start research, and the audit log names
who asked and searched what."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.api import Library
from citewise.config import Settings
from citewise.server.users import users_entry
from tests.pdfs import write_paper
from tests.server.conftest import Server, start

pytest.importorskip("uvicorn")

TOKENS = {"alice": "alice-token-0123456789", "bob": "bob-token-9876543210"}


@pytest.fixture
def shared(pg_url: str, tmp_path: Path) -> Iterator[Server]:
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    paper = write_paper(tmp_path / "granite.pdf")
    with Library(pg_url, settings=Settings.load(pg_url, environ=cache)) as library:
        assert not library.ingest([paper]).failed
    users = tmp_path / "users.toml"
    users.write_text(
        users_entry("alice", "write", TOKENS["alice"]) + users_entry("bob", "read", TOKENS["bob"])
    )
    yield from start(pg_url, "--users", str(users), env=cache)  # type: ignore[arg-type]


def test_each_user_has_a_token_a_role_and_a_line_in_the_audit_log(
    shared: Server, pg_url: str, tmp_path: Path
) -> None:
    question = "What accuracy did the classifier reach on the held-out test set?"
    with shared.client() as anonymous:
        assert anonymous.post("/ask", json={"question": question}).status_code == 401
    with shared.client("the-old-shared-token") as stranger:
        assert stranger.get("/documents").status_code == 401
    with shared.client(TOKENS["bob"]) as bob:
        answer = bob.post("/ask", json={"question": question})
        assert answer.status_code == 200 and "93.4%" in answer.json()["answer"]
        refused = bob.post("/tasks", json={"topic": "acoustic sorting of granite"})
        assert refused.status_code == 403 and refused.json()["code"] == "FORBIDDEN"
    with shared.client(TOKENS["alice"]) as alice:
        assert alice.get("/search", params={"q": "crusher downtime"}).status_code == 200
        started = alice.post("/tasks", json={"topic": "acoustic sorting of granite"})
        assert started.status_code == 202
    listed = subprocess.run(
        [sys.executable, "-m", "citewise", "--library", pg_url, "audit", "--json"],
        env={**__import__("os").environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
        capture_output=True,
        check=True,
    )
    trail = [(a["actor"], a["action"], a["subject"]) for a in json.loads(listed.stdout)]
    assert trail == [
        ("alice", "research", "acoustic sorting of granite"),
        ("alice", "search", "crusher downtime"),
        ("bob", "ask", question),
    ]
    asked = json.loads(listed.stdout)[-1]
    assert asked["detail"]["refused"] is False and asked["detail"]["citations"]
