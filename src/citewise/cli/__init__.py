"""The `citewise` command: parse arguments, call api.py, render with Rich. No logic here.

Each module registers its commands on the one app (cli/parsing.py) when imported below.
"""

from citewise.cli import (  # noqa: F401
    compare,
    documents,
    figures,
    library,
    literature,
    mcp,
    migrate,
    models,
    queue,
    research,
    search,
    serve,
    structure,
    sync,
    users,
    worker,
)
from citewise.cli.app import app, main

__all__ = ["app", "main"]
