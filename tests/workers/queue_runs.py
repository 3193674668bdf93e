"""What the queue tests do to a PostgreSQL library from outside, as a user would: write
papers, create the library's tables, start a `citewise worker`, run or follow
`citewise ingest --queue`, run another command, read the follower's last event; and the
fault they plant (a vocabulary table that refuses rows)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.pdfs import write_paper
from tests.workers.test_workers import _citewise, _env, _wait_for

if TYPE_CHECKING:
    from citewise.config import Settings


def write_papers(folder: Path, *names: str) -> list[str]:
    """One paper a name ("alder": "Discharge of Alder Creek") in a new `folder`; their
    absolute paths, sorted."""
    folder.mkdir()
    return sorted(
        str(write_paper(folder / f"{name}.pdf", f"Discharge of {name.title()} Creek").resolve())
        for name in names
    )


def library_tables(url: str, cache: Path) -> Settings:
    """Open the library once, so its tables exist (for a test to lock or put a trigger
    on one); its settings."""
    from citewise.api import Library
    from citewise.config import Settings

    settings = Settings.load(url, environ={"XDG_CACHE_HOME": str(cache)})
    with Library(url, embeddings=False, settings=settings):
        pass
    return settings


def start_worker(
    url: str, cache: Path, log: Path, *args: str, **env: str
) -> subprocess.Popen[bytes]:
    """A `citewise worker` polling every 0.5 s (`args` added), its output in `log`."""
    return subprocess.Popen(
        _citewise(url, cache, "worker", "--heartbeat", "0.5", *args),
        env={**_env(cache), **env},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )


def start_follower(
    url: str, cache: Path, target: str, out: Path, err: Path, workers: list[subprocess.Popen[bytes]]
) -> subprocess.Popen[bytes]:
    """`ingest --queue --json TARGET` started (and added to `workers`, stopped after the
    test), its events in `out`, its stderr in `err`; returned once it said something (its
    jobs are queued and it follows them)."""
    follower = subprocess.Popen(
        _citewise(url, cache, "ingest", "--queue", "--json", target),
        env=_env(cache),
        stdout=out.open("wb"),
        stderr=err.open("wb"),
    )
    workers.append(follower)
    _wait_for(lambda: out.exists() and out.read_text().strip(), 60)
    return follower


def last_event(out: Path) -> dict[str, Any]:
    """The last JSON event a follower wrote to `out` (its `done` event once it ended)."""
    return [json.loads(line) for line in out.read_text().splitlines() if line.strip()][-1]


def follow(url: str, cache: Path, out: Path, folder: Path) -> tuple[int, dict[str, Any], str]:
    """`ingest --queue --json FOLDER` to its end: exit status, the done event, stderr."""
    followed = subprocess.run(
        _citewise(url, cache, "ingest", "--queue", "--json", str(folder)),
        env=_env(cache),
        stdout=out.open("wb"),
        stderr=subprocess.PIPE,
        timeout=240,
    )
    return followed.returncode, last_event(out), followed.stderr.decode()


def run(
    url: str, cache: Path, *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`citewise --library URL ARGS` to its end, its output as text."""
    return subprocess.run(
        _citewise(url, cache, *args),
        env=_env(cache),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def refuse_vocabulary(url: str, reason: str, when: str = "true") -> None:
    """Make the library's vocabulary table refuse every row written while the SQL condition
    `when` holds, raising `reason` (a stand-in for a full disk or a broken permission);
    `DROP TRIGGER refuse_vocabulary ON vocabulary_documents` lifts it."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"""
CREATE FUNCTION refuse_vocabulary() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN
    IF {when} THEN RAISE EXCEPTION '{reason}'; END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER refuse_vocabulary BEFORE INSERT OR UPDATE ON vocabulary_documents
FOR EACH ROW EXECUTE FUNCTION refuse_vocabulary();
""")  # fmt: skip
