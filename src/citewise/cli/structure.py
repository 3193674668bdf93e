"""Paper-structure commands: `table DOC "Table 2"` and `formula DOC 3`."""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import EXIT_REFUSED, app, emit_json, open_library, out
from citewise.cli.options import JsonOption
from citewise.errors import CitewiseError

if TYPE_CHECKING:
    from citewise.api.structure import FormulaDetails


@app.command()
def table(
    doc: Annotated[str, cli.Argument(help="Document ID (see 'citewise list').")],
    label: Annotated[str, cli.Argument(help="'Table 2', or just 2.")],
    as_csv: Annotated[bool, cli.Option("--csv", help="CSV on stdout.")] = False,
    as_json: Annotated[bool, cli.Option("--json", help="Cells with spans as JSON.")] = False,
    as_markdown: Annotated[bool, cli.Option("--markdown", help="A Markdown table.")] = False,
    png: Annotated[Path | None, cli.Option("--png", help="Write the table region.")] = None,
) -> None:
    """Print a table of a paper as cells: a grid, CSV, JSON or Markdown."""
    from rich.table import Table as RichTable

    from citewise.api.structure import StructureNotFoundError
    from citewise.report.terminal import plain, safe

    with open_library(embeddings=False) as lib:
        document = lib.document(doc)
        try:
            found = lib.table(document.id, label)
        except StructureNotFoundError as exc:  # the hint names the labelled tables
            sys.stderr.write(plain(f"error: {exc.message} ({exc.hint})") + "\n")
            raise cli.Exit(EXIT_REFUSED) from exc
    hit = found.table
    if png is not None:
        _write_crop(Path(document.path), hit.page, found.block.bbox, png)
    if as_csv:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(found.csv_rows())
        sys.stdout.write(plain(buffer.getvalue()))
    elif as_json:
        emit_json(found.to_dict())
    elif as_markdown:
        sys.stdout.write(plain(found.markdown()) + "\n")
    else:
        grid = found.csv_rows()
        view = RichTable(
            title=f"{safe(hit.label)} · p. {hit.page}", caption=safe(hit.caption) or None
        )
        head = grid[: hit.header_rows] or [[""] * hit.cols]
        for k in range(hit.cols):
            view.add_column(safe("\n".join(dict.fromkeys(r[k] for r in head if r[k]))))
        for row in grid[hit.header_rows :]:
            view.add_row(*(safe(cell) for cell in row))
        out.print(view)


@app.command()
def formula(
    doc: Annotated[str, cli.Argument(help="Document ID (see 'citewise list').")],
    number: Annotated[
        str, cli.Argument(help="Equation ID: 3, 3.2, A.1, eq3.2, (3.2) or 'Eq. (3.2)'.")
    ],
    as_json: JsonOption = False,
    png: Annotated[Path | None, cli.Option("--png", help="Write the equation as printed.")] = None,
) -> None:
    """Print a numbered display equation: page, place, its text, its LaTeX where the file
    holds a LaTeX source (a Markdown $$ block; --json: "latex" and "latex_from", null for a
    PDF's equation), variables, sentences around."""
    from citewise.report.terminal import plain

    with open_library(embeddings=False) as lib:
        document = lib.document(doc)
        try:
            details = lib.formula_details(document.id, number)
        except CitewiseError as exc:
            sys.stderr.write(plain(f"error: {exc}") + "\n")
            raise cli.Exit(exc.exit_code) from exc
    hit = details.formula.equation
    if png is not None:
        _write_crop(Path(document.path), hit.page, hit.bbox, png)
    if as_json:
        emit_json(details.to_dict())
        return
    _print_formula(details)


def _print_formula(details: FormulaDetails) -> None:
    from citewise.report.terminal import plain, safe

    hit, section = details.formula.equation, details.formula.block.section_path
    latex, lead, follow = details.latex, details.before, details.after
    out.print(f"[bold]Eq. ({safe(hit.number)})[/]  p. {hit.page} · {safe(section)}")
    if details.image_only:
        out.print("image only: its text layer cannot be read; see it with --png FILE")
    else:
        out.print(plain(hit.text), markup=False)
    if latex and not details.image_only:
        source = {"markdown": "the Markdown source"}.get(details.latex_from or "", "the file")
        out.print(plain(f"LaTeX (from {source}): {latex}"), markup=False)
    if lead:
        out.print(plain(f"before: {lead}"), markup=False)
    if follow:
        out.print(plain(f"after: {follow}"), markup=False)


def _write_crop(pdf: Path, page: int, bbox: tuple[float, float, float, float], png: Path) -> None:
    from citewise.api.structure import write_crop
    from citewise.report.terminal import plain

    try:
        write_crop(pdf, page, bbox, png)
    except CitewiseError as exc:
        sys.stderr.write(plain(f"error: {exc}") + "\n")
        raise cli.Exit(exc.exit_code) from exc
    sys.stderr.write(plain(f"wrote {png}") + "\n")
