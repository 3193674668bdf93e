"""A research task's thread always ends with the task in a final state, whatever stops it:
here the task's own Library cannot open (the database was moved on by a newer citewise
after the server opened it), which used to leave the task in `planning` for ever."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from citewise.agent.research import ResearchOptions
from citewise.agent.research.tasks import TaskStore
from citewise.api import Library
from citewise.api.research import ResearchDesk
from citewise.server.tasks import run_task
from citewise.store.sqlite.library import DB_NAME
from tests.server.conftest import make_library

TOPIC = "acoustic granite sorting accuracy"


def test_a_task_whose_library_cannot_open_ends_failed(tmp_path: Path) -> None:
    with Library(tmp_path / "lib", embeddings=False) as server_library:
        store = TaskStore(server_library.store.tasks)
        task_id = store.create("ground water in sandstone", ResearchOptions()).id
        # another process upgrades the database: any new connection now refuses it
        other = sqlite3.connect(tmp_path / "lib" / DB_NAME)
        (version,) = other.execute("PRAGMA user_version").fetchone()
        other.execute(f"PRAGMA user_version = {version + 1}")
        other.close()

        thread = threading.Thread(
            target=run_task, args=(server_library, task_id, threading.RLock())
        )
        thread.start()
        thread.join(timeout=60)

        assert not thread.is_alive()
        task = store.get(task_id)
        errors = [e for e in store.events(task_id) if e.kind == "error"]
    assert task.state == "failed"
    assert errors and "newer" in str(errors[-1].data["error"]).lower()


def test_a_task_that_fails_inside_its_run_is_failed_once(tmp_path: Path) -> None:
    with Library(tmp_path / "lib", embeddings=False) as server_library:
        store = TaskStore(server_library.store.tasks)
        options = ResearchOptions(llm="llamacpp:/nonexistent/model.gguf")
        task_id = store.create("ground water in sandstone", options).id
        run_task(server_library, task_id, threading.RLock())
        task = store.get(task_id)
        errors = [e for e in store.events(task_id) if e.kind == "error"]
    assert task.state == "failed"
    assert len(errors) == 1 and "model.gguf" in str(errors[0].data["error"])


def run_held(library: Path, during: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run a task in a worker thread (as the server does) with its report's rendering held
    up: `during(store, task_id)` runs while it is held; the task as shown at the end."""
    import citewise.api.research as desk_module

    rendering, release = threading.Event(), threading.Event()
    render = desk_module.render_markdown

    def held(*args: Any, **kwargs: Any) -> str:
        rendering.set()
        assert release.wait(60), "the test never released the render"
        return render(*args, **kwargs)

    monkeypatch.setattr(desk_module, "render_markdown", held)
    with Library(library, embeddings=False) as server_library:
        store = TaskStore(server_library.store.tasks)
        task_id = store.create(TOPIC, ResearchOptions()).id
        thread = threading.Thread(
            target=run_task, args=(server_library, task_id, threading.RLock())
        )
        thread.start()
        try:
            assert rendering.wait(120), "the task never rendered its report"
            during(ResearchDesk(server_library), task_id)
        finally:
            release.set()
            thread.join(timeout=120)
        assert not thread.is_alive()
        return ResearchDesk(server_library).show(task_id)


def test_a_task_shown_completed_has_its_report_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever a reader sees while the report renders, a task it sees `completed` names
    its report files (a client polling for `completed` read `report_markdown: null`, and
    the path a moment later)."""
    seen: list[Any] = []
    after = run_held(
        make_library(tmp_path / "folder"),
        lambda desk, task_id: seen.append(desk.show(task_id)),
        monkeypatch,
    )
    assert seen[0].task.state != "completed" or seen[0].report_markdown is not None, (
        "shown completed before its report files were written"
    )
    assert after.task.state == "completed", after.task.state
    assert after.report_markdown and Path(after.report_markdown).is_file()
    assert after.report_html and Path(after.report_html).is_file()


def test_a_task_cancelled_as_its_report_renders_keeps_no_report_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    after = run_held(
        make_library(tmp_path / "folder"),
        lambda desk, task_id: desk.cancel(task_id),
        monkeypatch,
    )
    assert after.task.state == "cancelled", after.task.state
    assert after.report_markdown is None and after.report_html is None
