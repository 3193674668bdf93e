"""`citewise migrate SRC DST`: copy a library between SQLite and PostgreSQL, verified."""

from __future__ import annotations

from typing import Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import app, emit_json, out
from citewise.errors import LibraryError


@app.command()
def migrate(
    src: Annotated[str, cli.Argument(help="Library folder or postgresql:// URL to copy.")],
    dst: Annotated[str, cli.Argument(help="Library folder or postgresql:// URL to fill.")],
    as_json: Annotated[bool, cli.Option("--json", help="Counts and checksums as JSON.")] = False,
) -> None:
    """Copy every table of SRC into DST, then compare row counts and checksums per table.
    Interrupted? Run it again: tables already copied are skipped, rows already there kept."""
    from rich.table import Table

    from citewise.api.migrate import migrate_library

    result = migrate_library(src, dst)
    rows = [
        {
            "table": c.table,
            "source_rows": c.source_rows,
            "target_rows": c.target_rows,
            "copied": result.copied.get(c.table, 0),
            "checksum": c.source_checksum[:16],
            "same": c.same,
        }
        for c in result.checks
    ]
    if as_json:
        emit_json({"source": result.source, "target": result.target,
                   "verified": result.verified, "tables": rows})  # fmt: skip
    else:
        table = Table("table", "rows", "copied", "checksum", "same")
        for r in rows:
            table.add_row(str(r["table"]), str(r["target_rows"]), str(r["copied"]),
                          str(r["checksum"]), "yes" if r["same"] else "NO")  # fmt: skip
        out.print(table)
    if not result.verified:
        differ = ", ".join(c.table for c in result.checks if not c.same)
        raise LibraryError(
            f"the copy differs from the source in: {differ}",
            hint="run the same command again to finish an interrupted copy",
            code="MIGRATION_MISMATCH",
        )
