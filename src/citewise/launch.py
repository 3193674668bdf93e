"""The `citewise` command's process: what it sets before the CLI's modules are imported.

The console script and `python -m citewise` start here; `citewise.cli.main` (what tests and
scripts call) is the same command without these process-wide settings.
"""

from __future__ import annotations


def main() -> None:
    import gc

    from citewise import code_cache
    from citewise.config import cache_dir

    # The imports that follow make thousands of objects that live as long as the process;
    # with the default young-generation threshold (700) they were scanned over and over.
    # Cyclic garbage is still collected, after 10,000 allocations instead.
    gc.set_threshold(10_000, 20, 10)
    code_cache.install(cache_dir())  # dataclass methods and regexes from an earlier run

    from citewise.cli.app import main as run

    run()
