"""Run `citewise serve` with small server limits (and optionally one research stage
stalling), so tests reach each limit with a few requests:

    python tests/server/tight.py STALL_STATE|- [citewise arguments...]

Production code knows nothing of this: the wrapper replaces `citewise.server.limits.DEFAULTS`
in this process only (and is a plain run of the CLI where that module does not exist).
$TIGHT_LIMITS (a JSON object of Limits fields) adds to or overrides the small limits.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2]))  # `tests` importable when run as a script

from tests.research.stalling import stall_in  # noqa: E402

TIGHT = {
    "body_seconds": 1.0,
    "max_streams": 8,
    "max_tasks": 2,
    "render_wait_seconds": 5.0,
}


def tighten() -> None:
    try:
        from citewise.server import limits
    except ImportError:  # a citewise without server limits serves as it always did
        return
    chosen = {**TIGHT, **json.loads(os.environ.get("TIGHT_LIMITS") or "{}")}
    limits.DEFAULTS = limits.Limits(**chosen)


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit("usage: tight.py STALL_STATE|- CITEWISE-ARGS...")
    if sys.argv[1] != "-":
        stall_in(sys.argv[1])
    tighten()
    from citewise.cli import main as citewise

    sys.argv = ["citewise", *sys.argv[2:]]
    citewise()


if __name__ == "__main__":
    main()
