"""Killing a real `citewise research` process in every stage loses nothing: `tasks resume`
completes with the same evidence as an uninterrupted run and no duplicate rows. Also the
CLI's JSON shapes, cancel, and refusal to resume a cancelled task."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from citewise.agent.research import TaskNotFoundError
from citewise.api import Library
from citewise.cli import app
from citewise.cli.testing import CliRunner
from tests.conftest import CORPUS

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")

TOPIC = "thromboprophylaxis complications and patient outcomes in hospital care"
STAGES = ["planning", "searching", "screening", "extracting", "analyzing", "writing", "verifying"]


STALLING = Path(__file__).with_name("stalling.py")  # the CLI with one stage stalling
ENVIRONMENT = {**os.environ, "HF_HUB_OFFLINE": "1"}


def citewise(library: Path, *args: str, stall: str | None = None) -> list[str]:
    entry = [str(STALLING), stall] if stall else ["-m", "citewise"]
    return [sys.executable, *entry, "--library", str(library), *args]


def run(library: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        citewise(library, *args), capture_output=True, text=True, env=ENVIRONMENT, timeout=300
    )


def evidence_rows(library: Path, task: str) -> tuple[int, set[tuple[str, str, str, str]]]:
    with sqlite3.connect(library / "library.db") as db:
        rows = db.execute(
            "SELECT sub_question, kind, coalesce(block_id, ''), quote FROM evidence "
            "WHERE task_id = ?",
            (task,),
        ).fetchall()
    return len(rows), {tuple(r) for r in rows}  # type: ignore[misc]


def wait_for_stall(library: Path, process: subprocess.Popen[bytes], stage: str, after: int) -> str:
    """The task ID once the process has stopped mid-way in `stage` (event ID above `after`)."""
    deadline = time.time() + 120
    while time.time() < deadline:
        assert process.poll() is None, "the research process ended before stalling"
        try:
            with sqlite3.connect(library / "library.db", timeout=1) as db:
                row = db.execute(
                    "SELECT task_id FROM task_events WHERE kind = 'stall' AND stage = ? "
                    "AND id > ? ORDER BY id DESC LIMIT 1",
                    (stage, after),
                ).fetchone()
        except sqlite3.OperationalError:
            row = None
        if row:
            return str(row[0])
        time.sleep(0.05)
    raise AssertionError(f"no stall in {stage}")


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("resume") / "library"
    with Library(directory, embeddings=False) as lib:
        lib.ingest([CORPUS])
    return directory


@pytest.fixture(scope="module")
def baseline(library: Path) -> dict[str, object]:
    result = run(library, "research", TOPIC, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_research_json_has_the_documented_shape(library: Path, baseline: dict[str, object]) -> None:
    assert set(baseline) == {"task", "state", "report_markdown", "report_html", "evidence", "stats"}
    assert baseline["state"] == "completed"
    assert Path(str(baseline["report_markdown"])).is_file()
    assert Path(str(baseline["report_html"])).is_file()
    assert isinstance(baseline["evidence"], int) and baseline["evidence"] > 0
    listed = json.loads(run(library, "tasks", "list", "--json").stdout)
    assert {"id", "topic", "state", "round", "created"} == set(listed[0])
    assert baseline["task"] in [t["id"] for t in listed]
    shown = json.loads(run(library, "tasks", "show", str(baseline["task"]), "--json").stdout)
    assert shown["state"] == "completed" and shown["evidence"] == baseline["evidence"]
    assert [e["kind"] for e in shown["events"]][0] == "created"


def kill_when_stalled(library: Path, args: list[str], stage: str) -> str:
    """Run citewise with a stall in `stage`, SIGKILL it there; the task's ID."""
    with sqlite3.connect(library / "library.db") as db:
        (last,) = db.execute("SELECT coalesce(max(id), 0) FROM task_events").fetchone()
    process = subprocess.Popen(
        citewise(library, *args, stall=stage),
        env=ENVIRONMENT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        task = wait_for_stall(library, process, stage, after=last)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    return task


def test_kill_in_every_stage_then_resume_matches_an_uninterrupted_run(
    library: Path, baseline: dict[str, object]
) -> None:
    # One task, killed in each stage in turn: the first run in planning, then each resume
    # in the next stage; the last resume runs to completion.
    task = kill_when_stalled(library, ["research", TOPIC, "--json"], STAGES[0])
    for stage in STAGES:
        if stage != STAGES[0]:
            assert kill_when_stalled(library, ["tasks", "resume", task], stage) == task
        with sqlite3.connect(library / "library.db") as db:
            (state,) = db.execute("SELECT state FROM tasks WHERE id = ?", (task,)).fetchone()
        assert state == stage  # killed inside the stage, before its output committed

    resumed = run(library, "tasks", "resume", task, "--json")
    assert resumed.returncode == 0, resumed.stderr
    outcome = json.loads(resumed.stdout)
    assert outcome["state"] == "completed" and outcome["task"] == task
    count, content = evidence_rows(library, task)
    expected_count, expected = evidence_rows(library, str(baseline["task"]))
    assert count == expected_count == outcome["evidence"] == baseline["evidence"]
    assert content == expected
    with sqlite3.connect(library / "library.db") as db:
        outputs = db.execute(
            "SELECT stage, json_extract(data, '$.round'), count(*) FROM task_events "
            "WHERE task_id = ? AND kind = 'output' GROUP BY 1, 2",
            (task,),
        ).fetchall()
        stalls = db.execute(
            "SELECT stage FROM task_events WHERE task_id = ? AND kind = 'stall' ORDER BY id",
            (task,),
        ).fetchall()
    assert [s for (s,) in stalls] == STAGES
    assert outputs and all(n == 1 for *_, n in outputs)  # no finished stage was redone
    report = Path(outcome["report_markdown"]).read_text()
    assert report.count("## Q") == Path(str(baseline["report_markdown"])).read_text().count("## Q")


def test_cancel_stops_a_running_task_and_it_cannot_be_resumed(library: Path) -> None:
    with sqlite3.connect(library / "library.db") as db:
        (last,) = db.execute("SELECT coalesce(max(id), 0) FROM task_events").fetchone()
    process = subprocess.Popen(
        citewise(library, "research", TOPIC, "--json", stall="extracting"),
        env=ENVIRONMENT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        task = wait_for_stall(library, process, "extracting", after=last)
        cancelled = run(library, "tasks", "cancel", task, "--json")
        assert cancelled.returncode == 0, cancelled.stderr
        assert json.loads(cancelled.stdout)["state"] == "cancelled"
        stdout, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
    assert process.returncode == 1
    assert json.loads(stdout)["state"] == "cancelled"
    refused = run(library, "tasks", "resume", task)
    assert refused.returncode == 1 and "TASK_STATE" in refused.stderr


def test_unknown_source_is_a_usage_error_and_an_unknown_task_is_not_found(library: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["--library", str(library), "research", "x", "--sources", "nowhere"]
    )
    assert result.exit_code == 2 and "nowhere" in result.output
    missing = runner.invoke(app, ["--library", str(library), "tasks", "show", "no-such-task"])
    assert isinstance(missing.exception, TaskNotFoundError) and missing.exception.exit_code == 3
