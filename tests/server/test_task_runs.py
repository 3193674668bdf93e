"""A research task's thread always ends with the task in a final state, whatever stops it:
here the task's own Library cannot open (the database was moved on by a newer citewise
after the server opened it), which used to leave the task in `planning` for ever."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from citewise.agent.research import ResearchOptions
from citewise.agent.research.tasks import TaskStore
from citewise.api import Library
from citewise.server.tasks import run_task
from citewise.store.sqlite.library import DB_NAME


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
