"""`citewise figure DOC 3 [--png FILE]`: a figure's caption, page and region, as an image."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import EXIT_REFUSED, app, emit_json, open_library, out
from citewise.cli.options import JsonOption
from citewise.cli.structure import _write_crop


@app.command()
def figure(
    doc: Annotated[str, cli.Argument(help="Document ID (see 'citewise list').")],
    label: Annotated[str, cli.Argument(help="'Figure 3', 'Fig. 3' or just 3.")],
    png: Annotated[Path | None, cli.Option("--png", help="Write figure + caption.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Show a figure: its caption, page and region; --png crops it with its caption."""
    from citewise.api.structure import StructureNotFoundError
    from citewise.report.terminal import plain, safe

    with open_library(embeddings=False) as lib:
        try:
            found = lib.figure(doc, label)
        except StructureNotFoundError as exc:  # the hint names the paper's figures
            sys.stderr.write(plain(f"error: {exc.message} ({exc.hint})") + "\n")
            raise cli.Exit(EXIT_REFUSED) from exc
    hit = found.caption
    if png is not None:
        _write_crop(found.pdf, hit.page, found.box, png)
    if as_json:
        emit_json(found.to_dict(png))
        return
    out.print(f"[bold]{safe(hit.label or '')}[/]  p. {hit.page}")
    out.print(plain(hit.text), markup=False)
