"""Jupyter notebooks (.ipynb): markdown, code and outputs, each block located by its cell.

A cell's index is its location: block page = cell number (1-based), label "Cell n", and
`data` says which cell and output the text came from. Markdown headings set section paths
for the cells below them, as they do in Jupyter's table of contents.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from citewise.documents.formats.text import parse_markdown
from citewise.documents.model import Block, Document
from citewise.errors import BadDocumentError

NO_BOX = (0.0, 0.0, 0.0, 0.0)
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # colours in tracebacks
ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
MAX_OUTPUT = 20_000  # characters kept per output (a dumped dataframe can be megabytes)


def read_notebook(path: Path) -> Document:
    """Parse an .ipynb file; BadDocumentError names what is wrong with it."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadDocumentError(f"cannot read file: {exc.strerror}", "check the path") from exc
    try:
        nb = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise BadDocumentError("notebook is not UTF-8 text", "re-save it from Jupyter") from exc
    except json.JSONDecodeError as exc:
        raise BadDocumentError(
            f"invalid notebook JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            "open it in Jupyter and save it again",
        ) from exc
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list):
        raise BadDocumentError(
            "not a Jupyter notebook (no 'cells' list; nbformat 4 expected)",
            "convert it with 'jupyter nbconvert --to notebook'",
        )
    try:
        blocks = notebook_blocks(cells)
    except (TypeError, AttributeError, ValueError, KeyError) as exc:
        # a cell whose fields have the wrong shape ("outputs": 5): the file, not citewise
        raise BadDocumentError(
            f"malformed notebook: a cell does not follow nbformat 4 ({type(exc).__name__})",
            "open it in Jupyter and save it again",
        ) from exc
    heading = next((b.text for b in blocks if b.kind == "heading"), "")
    meta = nb.get("metadata", {}) if isinstance(nb.get("metadata"), dict) else {}
    authors = [a.get("name", "") for a in meta.get("authors", []) if isinstance(a, dict)]
    return Document(
        path=path,
        sha256=hashlib.sha256(data).hexdigest(),
        kind="notebook",
        pages=max(1, len(cells)),
        blocks=blocks,
        title=str(meta.get("title") or heading or path.stem),
        authors=[a for a in authors if a],
    )


def _source(value: object) -> str:
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return str(value or "")


def notebook_blocks(cells: list[object]) -> list[Block]:
    """Blocks for each cell in order: markdown parsed, code verbatim, outputs as text."""
    blocks: list[Block] = []
    stack: list[tuple[int, str]] = []  # headings across cells: (level, title)
    section = ""
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict):
            continue
        kind = cell.get("cell_type")
        number = index + 1
        where = {"cell": index, "cell_type": kind}
        source = _source(cell.get("source"))
        if kind == "markdown":
            levels = {
                m.group(2).strip(): len(m.group(1))
                for m in map(ATX.match, source.splitlines())
                if m
            }
            for b in parse_markdown(source):
                if b.kind == "heading":
                    level = levels.get(b.text, 1)
                    while stack and stack[-1][0] >= level:
                        stack.pop()
                    stack.append((level, b.text))
                    section = " > ".join(t for _, t in stack)
                blocks.append(_block(len(blocks), b.kind, number, b.text, section, where))
        elif kind in ("code", "raw") and source.strip():
            extra = {**where, "execution_count": cell.get("execution_count")}
            blocks.append(_block(len(blocks), "code", number, source.rstrip(), section, extra))
        for n, output in enumerate(cell.get("outputs") or [] if kind == "code" else []):
            text = output_text(output)
            if text:
                extra = {**where, "output": n, "output_type": output.get("output_type")}
                blocks.append(_block(len(blocks), "cell", number, text, section, extra))
    return blocks


def output_text(output: object) -> str:
    """The readable text of one output: a stream, a result's text/plain, an error."""
    if not isinstance(output, dict):
        return ""
    kind = output.get("output_type")
    if kind == "stream":
        text = _source(output.get("text"))
    elif kind in ("execute_result", "display_data"):
        data = output.get("data") or {}
        text = _source(data.get("text/plain") or data.get("text/markdown") or "")
    elif kind == "error":
        trace = "\n".join(_source(t) for t in output.get("traceback") or [])
        text = trace or f"{output.get('ename', '')}: {output.get('evalue', '')}"
    else:
        text = ""
    return ANSI.sub("", text).strip()[:MAX_OUTPUT]


def _block(
    ordinal: int, kind: str, cell: int, text: str, section: str, data: dict[str, object]
) -> Block:
    return Block(
        ordinal, kind, cell, NO_BOX, text, section_path=section, label=f"Cell {cell}", data=data
    )
