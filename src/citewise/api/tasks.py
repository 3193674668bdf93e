"""Research tasks as the faces hold them: the options a task is started with, the task and
its events, and the store of a library's tasks (create, get, list, cancel, owners), with the
error a task in the wrong state raises. Running a task and rendering its report is
api/research.py `ResearchDesk`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citewise.agent.research.model import ResearchOptions
from citewise.agent.research.tasks import Task, TaskEvent, TaskStateError, TaskStore

if TYPE_CHECKING:
    from citewise.api.library import Library

__all__ = ["ResearchOptions", "Task", "TaskEvent", "TaskStateError", "TaskStore", "task_store"]


def task_store(library: Library) -> TaskStore:
    """The research tasks of `library` (a face reaches them here, not through its store)."""
    return TaskStore(library.store.tasks)
