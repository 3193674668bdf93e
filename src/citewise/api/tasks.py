"""Research tasks as the faces hold them: the options a task is started with, the task and
its events, and the store of a library's tasks (create, get, list, cancel, owners), with the
error a task in the wrong state raises. Running a task and rendering its report is
api/research.py `ResearchDesk`."""

from __future__ import annotations

from citewise.agent.research.model import ResearchOptions
from citewise.agent.research.tasks import Task, TaskEvent, TaskStateError, TaskStore

__all__ = ["ResearchOptions", "Task", "TaskEvent", "TaskStateError", "TaskStore"]
