"""Rich renderings of answers, documents and reports for the terminal."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.tree import Tree

from citewise.agent.qa import Answer
from citewise.ingest import IngestReport
from citewise.store.library import StoredDocument
from citewise.store.vector_check import IndexReport


def print_answer(console: Console, answer: Answer) -> None:
    """The answer with [n] markers, then the evidence board."""
    numbers = {e.id: n for n, e in enumerate(answer.evidence, start=1)}
    if answer.refused:
        console.print(f"[bold yellow]{escape(answer.answer)}[/]")
        if answer.evidence:
            console.print("\nClosest passages considered:")
    else:
        parts = []
        for sentence in answer.sentences:
            marks = "".join(f"[{numbers[c]}]" for c in sentence.citations if c in numbers)
            parts.append(f"{escape(sentence.text)} [bold cyan]{escape(marks)}[/]")
        console.print(" ".join(parts))
        console.print(f"\n[dim]support {answer.support_score:.2f} · backend {answer.backend}[/]")
        console.print("\nEvidence:")
    for n, e in enumerate(answer.evidence, start=1):
        where = f"p. {e.page}" + (f" · {e.section}" if e.section else "")
        console.print(
            f"[bold cyan][{n}][/] [bold]{escape(e.title or e.document)}[/] — {escape(where)}"
        )
        console.print(f"    “{escape(e.quote)}”", soft_wrap=False)
        console.print(f"    [link={e.link}]{escape(e.link)}[/link]", style="dim")


def print_ingest_report(console: Console, report: IngestReport) -> None:
    """The one-line summary (failures are printed apart, one line each, on stderr)."""
    summary = (
        f"{report.documents} documents ({len(report.added)} new, {len(report.replaced)} "
        f"replaced, {len(report.unchanged)} unchanged, {len(report.failed)} failed), "
        f"{report.pages} pages, {report.blocks} blocks in {report.seconds:.1f} s"
    )
    if report.embedding_model:
        summary += f"; {report.embedded_blocks} blocks embedded with {report.embedding_model}"
    console.print(summary, soft_wrap=True)


def print_documents(console: Console, documents: list[StoredDocument]) -> None:
    table = Table("id", "title", "year", "pages", "blocks", "path")
    for d in documents:
        table.add_row(d.id, d.title, str(d.year or ""), str(d.pages), str(d.blocks), d.path)
    console.print(table)


def print_document(console: Console, doc: StoredDocument, structure: dict[str, Any]) -> None:
    """Metadata, then the paper as a tree: sections (with their tables and equations by
    page), then the references, marking those that resolve to library documents."""
    console.print(f"[bold]{escape(doc.title or doc.id)}[/]  [dim]{doc.id}[/]")
    if doc.authors:
        console.print(escape(", ".join(doc.authors)))
    facts = [f"{doc.pages} pages", f"{doc.blocks} blocks"]
    facts += [f"year {doc.year}"] if doc.year else []
    facts += [f"doi {doc.doi}"] if doc.doi else []
    console.print(" · ".join(facts) + f"\n{escape(doc.path)}")
    for page, reason in sorted(doc.flagged_pages.items()):
        console.print(f"[yellow]page {page} not trusted: {escape(reason)}[/]")
    if doc.abstract:
        console.print(f"\n[bold]Abstract[/]\n{escape(doc.abstract)}")
    tree = Tree("[bold]Structure[/]")
    parents: list[tuple[int, Tree]] = [(0, tree)]
    for s in structure["sections"]:
        while parents[-1][0] >= s["level"]:
            parents.pop()
        name = f"{s['number']} {s['title']}" if s["number"] else s["title"]
        node = parents[-1][1].add(f"{escape(name)} [dim]p. {s['page']}[/]")
        parents.append((s["level"], node))
    if structure["tables"]:
        node = tree.add(f"[bold]Tables[/] ({len(structure['tables'])})")
        for t in structure["tables"]:
            size = f"{t['rows']}×{t['cols']}"
            caption = escape(t["caption"][:80]) if t["caption"] else ""
            node.add(f"{escape(t['label'] or 'table')} [dim]p. {t['page']} · {size}[/] {caption}")
    if structure["equations"]:
        node = tree.add(f"[bold]Equations[/] ({len(structure['equations'])})")
        for e in structure["equations"]:
            node.add(
                f"({escape(str(e['number']))}) [dim]p. {e['page']}[/] {escape(e['text'][:80])}"
            )
    if structure["references"]:
        refs = structure["references"]
        resolved = sum(1 for r in refs if r["resolved_document"])
        node = tree.add(f"[bold]References[/] ({len(refs)}, {resolved} in this library)")
        for r in refs:
            first = r["authors"][0] if r["authors"] else "?"
            more = " et al." if len(r["authors"]) > 1 else ""
            where = f" [green]→ {r['resolved_document']}[/]" if r["resolved_document"] else ""
            node.add(f"{escape(first + more)} {r['year'] or ''}. {escape(r['title'] or '')}{where}")
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
            f"index {escape(m.model)}: {state} · {m.vectors} vectors in the store, "
            f"{m.indexed} indexed · {m.mismatches} mismatches found, {m.remaining} left"
        )
        for problem in m.problems:
            console.print(f"  - {escape(problem)}")
