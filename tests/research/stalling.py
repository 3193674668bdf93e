"""Run the citewise CLI with one research stage stalling mid-way, so a test can SIGKILL (or
cancel) the process inside that stage deterministically:

    python tests/research/stalling.py STATE [citewise arguments...]

The stage's first checkpoint after some of its work (before its output commits) records a
`stall` event in the task log and waits; a cancelled task stops waiting. Production code
knows nothing of this: the wrapper patches `StageContext.checkpoint` in this process only.
"""

from __future__ import annotations

import sys
import time

from citewise.agent.research.context import StageContext
from citewise.agent.research.tasks import TaskCancelled

STALL_SECONDS = 600


def stall_in(state: str) -> None:
    checkpoint = StageContext.checkpoint

    def stalling(ctx: StageContext, current: str, done: int, total: int) -> None:
        checkpoint(ctx, current, done, total)
        if current != state or done < 1:
            return
        ctx.tasks.event(ctx.task.id, current, "stall", {"done": done})
        deadline = time.monotonic() + STALL_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.1)
            if ctx.tasks.get(ctx.task.id).state == "cancelled":
                raise TaskCancelled(f"task '{ctx.task.id}' was cancelled")

    StageContext.checkpoint = stalling  # type: ignore[method-assign]


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit("usage: stalling.py STATE CITEWISE-ARGS...")
    stall_in(sys.argv[1])
    from citewise.cli import main as citewise

    sys.argv = ["citewise", *sys.argv[2:]]
    citewise()


if __name__ == "__main__":
    main()
