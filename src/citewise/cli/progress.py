"""Progress on stderr: one bar per source while a literature search runs (terminals only),
and `PlainProgress`, a plain line per stage for logs and pipes. Imported when a command
shows progress: `--help` never needs Rich's progress module."""

from __future__ import annotations

import sys
from types import TracebackType
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn

if TYPE_CHECKING:
    from citewise.api.sources import SourceProgress

MARKS = {"done": "done", "failed": "failed", "skipped": "skipped"}


class SourceBars:
    """A listener for `Literature.search(progress=...)`: a bar per source, sized by the
    source's reported total (or the limit), closed with its outcome."""

    def __init__(self, console: Console) -> None:
        self.progress = Progress(
            TextColumn("{task.description:<18}"),
            BarColumn(bar_width=30),
            MofNCompleteColumn(),
            TextColumn("{task.fields[note]}"),
            console=console,
            transient=True,
        )
        self.tasks: dict[str, TaskID] = {}

    def __enter__(self) -> SourceBars:
        self.progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.progress.stop()

    def __call__(self, step: SourceProgress) -> None:
        if step.source not in self.tasks:
            self.tasks[step.source] = self.progress.add_task(
                step.source, total=step.limit or None, note="searching"
            )
        task = self.tasks[step.source]
        size = min(step.limit, step.total) if step.total is not None else step.limit
        note = f"of {step.total:,} matches" if step.total is not None else ""
        if step.state in MARKS:
            note = MARKS[step.state] + (f", {note}" if note else "")
            size = max(step.records, 1) if step.state == "done" else size
        self.progress.update(task, completed=step.records, total=size or None, note=note)


class PlainProgress(Progress):
    """Progress for a log or a pipe: no bar, one plain stderr line each time the stage
    (the task's description) changes."""

    def __init__(self, console: Console) -> None:
        super().__init__(console=console, disable=True)
        self._last: str | None = None

    def update(self, task_id: TaskID, **changes: Any) -> None:
        super().update(task_id, **changes)
        task = self._tasks[task_id]  # the task's stage shows with its first step, not before
        count = f" ({task.completed:g}/{task.total:g})" if task.total else ""
        self._stage(task.description, count)

    def _stage(self, description: str | None, count: str = "") -> None:
        if description and description != self._last:
            from citewise.report.terminal import plain

            self._last = description
            sys.stderr.write(f"{plain(description)}{count}\n")
