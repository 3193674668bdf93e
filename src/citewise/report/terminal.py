"""Rich renderings of answers, documents and reports for the terminal."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from citewise.agent.qa import Answer
from citewise.ingest import IngestReport
from citewise.store.library import StoredBlock, StoredDocument


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


def print_document(console: Console, doc: StoredDocument, blocks: list[StoredBlock]) -> None:
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
    console.print("\n[bold]Sections[/]")
    for b in blocks:
        if b.kind == "heading":
            depth = b.section_path.count(" > ")
            console.print(f"{'  ' * depth}{escape(b.text)} [dim]p. {b.page}[/]")
