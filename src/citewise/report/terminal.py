"""Rich renderings of answers, documents and reports for the terminal.

Titles, quotes and paths come from files and web sources, so none of it may drive the
terminal: control characters (ESC sequences, carriage returns, bidi overrides) are
stripped, and Rich markup in them is escaped (`safe`), or they go in as plain `Text`.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.style import Style
from rich.text import Text

from citewise.report.safe_text import plain as plain
from citewise.report.safe_text import safe as safe
from citewise.report.words import plural

if TYPE_CHECKING:  # `list` and `show` render without importing the agent or ingest
    from citewise.agent.ask.qa import Answer
    from citewise.ingest import IngestReport
    from citewise.store.sqlite.library import StoredDocument
    from citewise.store.sqlite.stats import LibraryStats
    from citewise.store.sqlite.vector_check import IndexReport

# What json.dumps leaves raw with ensure_ascii=False: DEL, C1 controls, bidi controls.
_JSON_RAW = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def json_text(data: object) -> str:
    """`data` as indented JSON in which no character can drive a terminal (those json
    leaves raw are written as \\u escapes: the same JSON value)."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def print_answer(console: Console, answer: Answer) -> None:
    """The answer with [n] markers, then the evidence board; labels in `answer.lang`
    (quotes stay in the paper's words)."""
    from citewise.agent.bridge.zh_answer import LABELS, lead_label, page_label

    numbers = {e.id: n for n, e in enumerate(answer.evidence, start=1)}
    label = LABELS.get(answer.lang, LABELS["en"])
    if answer.translation:
        console.print(f"[dim]{label['translation']}: {safe(answer.translation)}[/]")
    if answer.refused:
        console.print(f"[bold yellow]{safe(answer.answer)}[/]")
        if answer.evidence:
            console.print(f"\n{label['closest']}")
    elif (comparison := getattr(answer, "comparison", None)) is not None:
        from citewise.report.compare_view import print_comparison  # it imports this module

        print_comparison(console, comparison, numbers)  # a comparative question's table
        console.print(f"\n{label['evidence']}")
    else:
        parts = []
        for sentence in answer.sentences:
            marks = "".join(f"[{numbers[c]}]" for c in sentence.citations if c in numbers)
            said = lead_label(answer.lang, sentence.lead)  # "Yes." / "是。"
            lead = f"[bold]{safe(said)}[/] " if sentence.lead else ""
            parts.append(f"{lead}{safe(sentence.text)} [bold cyan]{escape(marks)}[/]")
        console.print(" ".join(parts))
        backend = safe(answer.backend)
        support = f"{label['support']} {answer.support_score:.2f}"
        console.print(f"\n[dim]{support} · {label['backend']} {backend}[/]")
        console.print(f"\n{label['evidence']}")
    for n, e in enumerate(answer.evidence, start=1):
        where = page_label(answer.lang, e.page) + (f" · {e.section}" if e.section else "")
        console.print(f"[bold cyan][{n}][/] [bold]{safe(e.title or e.document)}[/] — {safe(where)}")
        console.print(f"    “{safe(e.quote)}”", soft_wrap=False)
        link = plain(e.link)
        # one unwrapped line, so a long file:// link stays one clickable link when piped
        console.print(
            Text("    ").append(link, style=Style(link=link)), style="dim", soft_wrap=True
        )
        if e.zotero:  # the Zotero item the paper came from
            zotero = plain(e.zotero)
            console.print(
                Text("    ").append(zotero, style=Style(link=zotero)), style="dim", soft_wrap=True
            )


def print_ingest_report(console: Console, report: IngestReport) -> None:
    """The one-line summary (failures are printed apart, one line each, on stderr)."""
    summary = (
        f"{plural(report.documents, 'document')} ({len(report.added)} new, "
        f"{len(report.replaced)} replaced, {len(report.unchanged)} unchanged, "
        f"{len(report.failed)} failed), {plural(report.pages, 'page')}, "
        f"{plural(report.blocks, 'block')} in {report.seconds:.1f} s"
    )
    if report.embedding_model:
        summary += (
            f"; {plural(report.embedded_blocks, 'block')} embedded with {report.embedding_model}"
        )
    console.print(summary, soft_wrap=True)


def print_documents(console: Console, documents: list[StoredDocument]) -> None:
    """One row per document. IDs are what every other command takes: they are printed whole
    on any width (in a pipe too); titles wrap, the path shows where there is room, and where
    not even that fits, each document is a paragraph under its ID."""
    from rich.table import Table  # (not at import: an answer is printed without it)

    ids = [safe(d.id) for d in documents]
    longest = max(map(len, ids), default=2)
    if longest + TABLE_ROOM > console.width:
        for doc_id, d in zip(ids, documents, strict=True):
            console.print(doc_id, soft_wrap=True, highlight=False)
            console.print(f"    {safe(_described(d))}", highlight=False)
        return
    table = Table()
    table.add_column("id", no_wrap=True, min_width=longest)
    table.add_column("authors", overflow="fold", max_width=24)
    table.add_column("year", no_wrap=True)
    table.add_column("title", overflow="fold", ratio=3, min_width=12)
    table.add_column("pages", justify="right", no_wrap=True)
    table.add_column("blocks", justify="right", no_wrap=True)
    with_path = longest + TABLE_ROOM + PATH_ROOM <= console.width
    if with_path:
        table.add_column("path", overflow="fold", ratio=2)
    for doc_id, d in zip(ids, documents, strict=True):
        row = [doc_id, safe(authors_short(d.authors)), str(d.year or ""), safe(d.title)]
        row += [str(d.pages), str(d.blocks)] + ([safe(d.path)] if with_path else [])
        table.add_row(*row)
    console.print(table)


# Columns `list` needs beside the longest ID for a table: authors, year, a title of a few
# words, pages, blocks and their borders; the path when there are PATH_ROOM more.
TABLE_ROOM = 62
PATH_ROOM = 30


def _described(d: StoredDocument) -> str:
    """A document in one line under its ID, for `list` on a narrow terminal."""
    made = ", ".join(p for p in (authors_short(d.authors), str(d.year or "")) if p)
    counts = f"{plural(d.pages, 'page')}, {plural(d.blocks, 'block')}"
    return f"{d.title}{f' — {made}' if made else ''} ({counts}) {d.path}"


def authors_short(authors: list[str]) -> str:
    """ "Cohan", "Cohan, Feldman", "Cohan et al." (family names, as a list reads them)."""
    names = [a.split(",")[0].strip() if "," in a else a.split()[-1] for a in authors if a.strip()]
    if len(names) > 2:
        return f"{names[0]} et al."
    return ", ".join(names)


def print_library_stats(console: Console, stats: LibraryStats) -> None:
    """The library `doctor` looked at: where it is, what it holds, OCR and pandoc."""
    console.print(f"library: {safe(stats.path)}", soft_wrap=True)
    console.print(
        f"  {plural(stats.documents, 'document')}, {plural(stats.pages, 'page')}, "
        f"{plural(stats.blocks, 'block')}, {plural(stats.tables, 'table')}, "
        f"{stats.size_bytes / 1_000_000:.1f} MB on disk"
    )
    models = ", ".join(
        f"{safe(m)} ({plural(n, 'block')})" for m, n in stats.embedding_models.items()
    )
    console.print(f"  embeddings: {models or 'none (keyword search only)'}", soft_wrap=True)
    ocr = safe(stats.ocr) if stats.ocr else "[yellow]unavailable[/] (install tesseract)"
    pandoc = safe(stats.pandoc) if stats.pandoc else "[yellow]unavailable[/] (install pandoc)"
    console.print(f"  OCR: {ocr} · pandoc: {pandoc}", soft_wrap=True)


def print_document(console: Console, doc: StoredDocument, structure: dict[str, Any]) -> None:
    """Metadata, then the paper as a tree: sections (with their tables and equations by
    page), then the references, marking those that resolve to library documents."""
    console.print(f"[bold]{safe(doc.title or doc.id)}[/]  [dim]{safe(doc.id)}[/]")
    if doc.authors:
        console.print(safe(", ".join(doc.authors)))
    facts = [plural(doc.pages, "page"), plural(doc.blocks, "block")]
    facts += [f"year {doc.year}"] if doc.year else []
    facts += [f"doi {safe(doc.doi)}"] if doc.doi else []
    console.print(" · ".join(facts) + f"\n{safe(doc.path)}")
    for page, reason in sorted(doc.flagged_pages.items()):
        console.print(f"[yellow]page {page} not trusted: {safe(reason)}[/]")
    if doc.abstract:
        console.print(f"\n[bold]Abstract[/]\n{safe(doc.abstract)}")
    from rich.tree import Tree

    tree = Tree("[bold]Structure[/]")
    parents: list[tuple[int, Tree]] = [(0, tree)]
    for s in structure["sections"]:
        while parents[-1][0] >= s["level"]:
            parents.pop()
        name = f"{s['number']} {s['title']}" if s["number"] else s["title"]
        node = parents[-1][1].add(f"{safe(name)} [dim]p. {s['page']}[/]")
        parents.append((s["level"], node))
    if structure["tables"]:
        node = tree.add(f"[bold]Tables[/] ({len(structure['tables'])})")
        for t in structure["tables"]:
            size = f"{t['rows']}×{t['cols']}"
            caption = safe(t["caption"][:80]) if t["caption"] else ""
            node.add(f"{safe(t['label'] or 'table')} [dim]p. {t['page']} · {size}[/] {caption}")
    if structure["equations"]:
        node = tree.add(f"[bold]Equations[/] ({len(structure['equations'])})")
        for e in structure["equations"]:
            node.add(f"({safe(str(e['number']))}) [dim]p. {e['page']}[/] {safe(e['text'][:80])}")
    if structure["references"]:
        refs = structure["references"]
        resolved = sum(1 for r in refs if r["resolved_document"])
        node = tree.add(f"[bold]References[/] ({len(refs)}, {resolved} in this library)")
        for r in refs:
            first = r["authors"][0] if r["authors"] else "?"
            more = " et al." if len(r["authors"]) > 1 else ""
            where = f" [green]→ {safe(r['resolved_document'])}[/]" if r["resolved_document"] else ""
            node.add(f"{safe(first + more)} {r['year'] or ''}. {safe(r['title'] or '')}{where}")
    console.print(tree)


def print_index_report(console: Console, report: IndexReport) -> None:
    """`doctor --check`: per model, the mismatches found and whether they were repaired."""
    if not report.models:
        console.print("index: no vectors in this library (keyword search only)")
    for m in report.models:
        state = (
            "[green]ok[/]"
            if m.mismatches == 0
            else ("[yellow]repaired[/]" if m.remaining == 0 else "[red]still wrong[/]")
        )
        console.print(
            f"index {safe(m.model)}: {state} · {m.vectors} vectors in the store, "
            f"{m.indexed} indexed · {m.mismatches} mismatches found, {m.remaining} left"
        )
        for problem in m.problems:
            console.print(f"  - {safe(problem)}")
