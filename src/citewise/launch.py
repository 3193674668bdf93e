"""The `citewise` command's process: what it sets before the CLI's modules are imported.

The console script and `python -m citewise` start here; `citewise.cli.main` (what tests and
scripts call) is the same command without the code cache, and sets the garbage collector's
threshold (cli/app.py) only once the command modules are imported.
"""

from __future__ import annotations


def main() -> None:
    import gc

    from citewise import code_cache
    from citewise.config import cache_dir

    # cli/app.py main's threshold (why: there), already for the command modules' imports
    gc.set_threshold(10_000, 20, 10)
    code_cache.install(cache_dir())  # dataclass methods and regexes from an earlier run

    from citewise.cli.app import main as run

    run()
