"""One progress bar per source while a literature search runs (stderr, terminals only)."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn

from citewise.sources.progress import SourceProgress

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
