"""`citewise figure DOC 3 [--png FILE]`: a figure's caption, page and region, as an image."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import EXIT_REFUSED, app, emit_json, open_library, out
from citewise.cli.options import JsonOption
from citewise.cli.structure import _write_crop


def _figure_number(label: str) -> str:
    m = re.search(r"(\d+[a-z]?)", label)
    return m.group(1) if m else label.strip()


@app.command()
def figure(
    doc: Annotated[str, cli.Argument(help="Document ID (see 'citewise list').")],
    label: Annotated[str, cli.Argument(help="'Figure 3', 'Fig. 3' or just 3.")],
    png: Annotated[Path | None, cli.Option("--png", help="Write figure + caption.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Show a figure: its caption, page and region; --png crops it with its caption."""
    from citewise.documents.crops import PROSE, figure_box
    from citewise.report.terminal import plain, safe

    with open_library(embeddings=False) as lib:
        document = lib.document(doc)
        blocks = lib.blocks(document.id)
    want = _figure_number(label)
    captions = [
        b
        for b in blocks
        if b.kind == "caption" and (b.label or "").lower().startswith(("figure", "fig"))
    ]
    hit = next((b for b in captions if _figure_number(b.label or "") == want), None)
    if hit is None:
        known = ", ".join(dict.fromkeys(b.label or "" for b in captions)) or "none"
        message = f"error: no figure '{label}' in {document.id} (figures: {known})"
        sys.stderr.write(plain(message) + "\n")
        raise cli.Exit(EXIT_REFUSED)
    prose = [b.bbox for b in blocks if b.page == hit.page and b.kind in PROSE]
    pdf = Path(document.path)
    box = figure_box(pdf, hit.page, hit.bbox, prose)
    if png is not None:
        _write_crop(pdf, hit.page, box, png)
    if as_json:
        emit_json(
            {
                "document": document.id,
                "label": hit.label,
                "caption": hit.text,
                "page": hit.page,
                "block": hit.id,
                "bbox": [round(v, 2) for v in box],
                "png": str(png) if png else None,
            }
        )
        return
    out.print(f"[bold]{safe(hit.label or '')}[/]  p. {hit.page}")
    out.print(plain(hit.text), markup=False)
