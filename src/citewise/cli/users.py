"""`citewise user NAME` (a token for one user of a shared server) and `citewise audit`
(who asked, searched or started what in a shared library)."""

from __future__ import annotations

import sys
from typing import Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import app, emit_json, open_library, out
from citewise.cli.options import JsonOption


@app.command()
def user(
    name: Annotated[str, cli.Argument(help="The user's name, as the audit log shows it.")],
    role: Annotated[
        str,
        cli.Option(
            "--role",
            help="read (ask, search, compare), write (also research) or admin (also sees "
            "every user's tasks).",
        ),
    ] = "read",
) -> None:
    """Print a new token for NAME and the lines to add to the server's users.toml (the
    file keeps only the token's SHA-256; hand the token to the user)."""
    from citewise.server.users import ROLES, name_problem, new_token, users_entry

    if role not in ROLES:
        raise cli.BadParameter("role must be read, write or admin", param_hint="--role")
    problem = name_problem(name)
    if problem:
        raise cli.BadParameter(problem, param_hint="NAME")
    token = new_token()
    # plain writes, never Rich's: a console wraps long lines at its width (80 columns when
    # stdout is a file), and a wrapped digest or token is a broken users file or a lost token
    sys.stderr.write(f"token for {name} (shown once): {token}\n")
    sys.stderr.flush()
    sys.stdout.write(users_entry(name, role, token))
    sys.stdout.flush()


@app.command()
def audit(
    limit: Annotated[int, cli.Option("--limit", min=1)] = 50,
    actor: Annotated[str | None, cli.Option("--user", help="Only this user.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Who asked, searched or started research in this library, newest first (a shared
    PostgreSQL library; a SQLite library keeps no such log)."""
    from rich.table import Table

    from citewise.report.terminal import safe

    with open_library(embeddings=False) as lib:
        actions = lib.actions(limit, actor)
    if as_json:
        emit_json(actions)
        return
    table = Table("time", "user", "action", "subject")
    for a in actions:
        table.add_row(
            str(a["time"]),
            safe(str(a["actor"])),
            str(a["action"]),
            safe(str(a["subject"] or ""))[:80],
        )
    out.print(table)
