"""The `citewise` command: parse arguments, call api.py, render with Rich. No logic here.

Each module registers its commands on the one Typer app when imported below.
"""

from citewise.cli import library, models, research, search, serve, structure  # noqa: F401
from citewise.cli import compare  # noqa: F401
from citewise.cli.app import app, main

__all__ = ["app", "main"]
