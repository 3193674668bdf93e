"""The library's documents: `list` them, `remove` some."""

from __future__ import annotations

from typing import Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import app, emit_json, err, open_library, out
from citewise.cli.options import JsonOption


@app.command("list")
def list_documents(
    as_json: JsonOption = False,
) -> None:
    """List the documents in the library: IDs whole, with authors, year, title and path."""
    from citewise.report.terminal import print_documents

    with open_library(embeddings=False) as lib:
        notice = lib.empty_notice()
        if notice:
            from citewise.report.terminal import safe

            err.print(safe(notice), soft_wrap=True)
        if as_json:
            emit_json(lib.document_list())
            return
        docs = lib.documents()
    print_documents(out, docs)


@app.command()
def remove(
    docs: Annotated[
        list[str],
        cli.Argument(metavar="DOC", help="Document IDs (see 'citewise list') or file names."),
    ],
    as_json: JsonOption = False,
) -> None:
    """Take documents out of the library: their passages, vectors, references and matrix
    cells go too. Their files stay where they are; ingest one again to bring it back."""
    from citewise.report.terminal import safe
    from citewise.report.words import plural

    with open_library(embeddings=False) as lib:
        removal = lib.remove(docs)
    if as_json:
        emit_json(removal.to_dict())
        return
    for doc in removal.removed:
        blocks = doc["blocks"]
        count = plural(blocks, "passage") if isinstance(blocks, int) else ""
        out.print(f"removed {safe(str(doc['id']))}: {safe(str(doc['title']))} ({count})",
                  soft_wrap=True)  # fmt: skip
