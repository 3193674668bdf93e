"""Deep research: a topic in, a report out in which every sentence maps to evidence.

Stages (plan, search, screen, extract, analyze, write, verify) are `Stage` objects
(stage.py) with typed inputs and outputs; `Researcher` runs them as a resumable state
machine over a task store.
"""

from citewise.agent.research.model import (
    EvidenceItem,
    Report,
    ResearchOptions,
)
from citewise.agent.research.pipeline import Researcher
from citewise.agent.research.tasks import (
    Task,
    TaskCancelled,
    TaskNotFoundError,
    TaskStateError,
    TaskStore,
)

__all__ = [
    "EvidenceItem",
    "Report",
    "ResearchOptions",
    "Researcher",
    "Task",
    "TaskCancelled",
    "TaskNotFoundError",
    "TaskStateError",
    "TaskStore",
]
