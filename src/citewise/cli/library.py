"""Library commands: ingest, show, ask, compact, review, eval (list, remove: cli/documents.py)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import (
    EXIT_REFUSED,
    app,
    emit_json,
    err,
    open_library,
    out,
    progress_bar,
)
from citewise.cli.options import (
    JsonOption,
    JsonSummaryOption,
    LlmOption,
    LlmUrlOption,
    NoCacheOption,
)

if TYPE_CHECKING:
    from rich.progress import TaskID

    from citewise.api.evaluation import EvalResult, ModelChoice, QAItem
    from citewise.api.ingested import FileFilter, IngestReport, Sources


# which of a folder's files an ingest takes (inputs.FileFilter)
IncludeOption = Annotated[
    list[str] | None,
    cli.Option(
        "--include",
        metavar="GLOB",
        help='Of the files in folders, only those matching (repeatable): "*.pdf".',
    ),
]
ExcludeOption = Annotated[
    list[str] | None,
    cli.Option(
        "--exclude",
        metavar="GLOB",
        help='Leave out the files in folders matching (repeatable): "notes*", "drafts/".',
    ),
]


@app.command()
def ingest(
    paths: Annotated[
        list[Path] | None,
        cli.Argument(
            metavar="PATH",
            help="PDF, .docx, .ipynb, .csv/.tsv, .md, .html or .txt files, or folders.",
        ),
    ] = None,
    zotero: Annotated[
        Path | None,
        cli.Option(
            "--zotero", metavar="DIR", help="Zotero data directory (zotero.sqlite + storage/)."
        ),
    ] = None,
    manifest: Annotated[
        Path | None,
        cli.Option(
            "--manifest",
            metavar="FILE",
            help="library.yaml: papers: [{id, title, authors, year, doi, file_path, notes}].",
        ),
    ] = None,
    no_embed: Annotated[bool, cli.Option("--no-embed", help="Skip embeddings.")] = False,
    password: Annotated[
        str | None,
        cli.Option(
            "--password",
            help="Password of encrypted PDFs (else $CITEWISE_PDF_PASSWORD).",
            metavar="PASSWORD",
        ),
    ] = None,
    as_json: JsonSummaryOption = False,
    queue: Annotated[
        bool,
        cli.Option("--queue", help="PostgreSQL library: one job per file for the workers."),
    ] = False,
    detach: Annotated[
        bool, cli.Option("--detach", help="With --queue: enqueue, do not wait.")
    ] = False,
    include: IncludeOption = None,
    exclude: ExcludeOption = None,
) -> None:
    """Add files to the library (folders recursively); unchanged files are skipped."""
    from citewise.api.ingested import FileFilter

    if not paths and zotero is None and manifest is None:
        raise cli.BadParameter("give files or folders, --zotero DIR or --manifest FILE")
    selection = FileFilter(tuple(include or ()), tuple(exclude or ()))
    if queue:
        from citewise.cli.worker import queued_ingest

        queued_ingest(list(paths or []), detach, as_json, selection)
        return
    sources = _entry_sources(manifest, zotero)
    batch = Batch(list(paths or []), sources, selection)
    _show_ingest(_ingest(batch, password, not no_embed, as_json), as_json)


@dataclass(frozen=True)
class Batch:
    """What `ingest` was given: paths, a manifest's or Zotero's entries, the folder filter."""

    paths: list[Path]
    sources: Sources
    selection: FileFilter


def _ingest(batch: Batch, password: str | None, embed: bool, as_json: bool) -> IngestReport:
    """The batch ingested under a progress bar (none with --json); notices on stderr."""
    from citewise.report.terminal import safe

    with open_library(embeddings=embed) as lib, progress_bar(not as_json) as bar:
        task = bar.add_task("ingesting", total=None)

        def advance(name: str, done: int, total: int) -> None:
            bar.update(task, description=safe(name[:40]), completed=done, total=total)

        report = lib.ingest(
            batch.paths,
            progress=advance,
            sources=batch.sources,
            password=password,
            selection=batch.selection,
        )
        for notice in lib.notices:
            err.print(safe(notice), soft_wrap=True)
    return report


def _entry_sources(manifest: Path | None, zotero: Path | None) -> Sources:
    """The entries a manifest and a Zotero library add to the batch (none without them)."""
    from citewise.api.ingested import Sources

    sources = Sources()
    if manifest is not None:
        sources = sources.merge(Sources.from_manifest(manifest))
    if zotero is not None:
        sources = sources.merge(Sources.from_zotero(zotero))
    return sources


def _show_ingest(report: IngestReport, as_json: bool) -> None:
    """Failures and warnings on stderr, one line each; the report; exit 1 if a file failed."""
    from citewise.api.ingested import IngestSummary
    from citewise.report.terminal import plain, print_ingest_report

    # One line per failure on stderr, naming the file and the reason.
    for failure in report.failed:
        sys.stderr.write(plain(f"error: {failure.path}: {failure.reason} ({failure.code})") + "\n")
    for path, warning in report.warnings:
        sys.stderr.write(plain(f"warning: {path}: {warning}") + "\n")
    if as_json:
        emit_json(IngestSummary(report).to_dict())
    else:
        print_ingest_report(out, report)
    if report.failed:
        raise cli.Exit(1)


@app.command()
def show(
    doc: Annotated[str, cli.Argument(metavar="DOC", help="Document ID (see 'citewise list').")],
    as_json: JsonOption = False,
) -> None:
    """Show a document's metadata and structure: sections, tables, equations, references."""
    from citewise.report.terminal import print_document

    with open_library(embeddings=False) as lib:
        if as_json:
            emit_json(lib.document_details(doc).to_dict())
            return
        document = lib.document(doc)
        structure = lib.structure(document.id).to_dict()
    print_document(out, document, structure)


@app.command()
def ask(
    question: Annotated[str, cli.Argument(metavar="QUESTION", help="Your question, in quotes.")],
    doc: Annotated[
        list[str] | None,
        cli.Option("--doc", metavar="DOC", help="Only this document (repeatable)."),
    ] = None,
    k: Annotated[int, cli.Option("-k", metavar="N", help="Passages to retrieve.")] = 8,
    as_json: JsonOption = False,
    llm: LlmOption = None,
    llm_url: LlmUrlOption = None,
    no_cache: NoCacheOption = False,
    lang: Annotated[
        str | None,
        cli.Option(
            "--lang", metavar="LANG", help="Labels in this language: zh (automatic for Chinese)."
        ),
    ] = None,
    trace: Annotated[
        bool,
        cli.Option(
            "--trace",
            help="Also print each answer shape's candidates and scores, and the tool steps.",
        ),
    ] = False,
) -> None:
    """Answer from the library with verbatim, cited sentences, or refuse (exit code 3).
    With --llm, a model writes the answer and every sentence is verified against its evidence."""
    from citewise.api.answers import to_chinese
    from citewise.report.terminal import print_answer, safe
    from citewise.report.trace_view import print_pipeline, print_trace

    with open_library() as lib:
        answer = lib.ask_with_model(question, doc or [], k, llm, llm_url, not no_cache, trace)
        steps = lib.plan(question, doc or [], llm, llm_url) if trace else []
        for notice in lib.notices:
            err.print(safe(notice), soft_wrap=True)
    if lang == "zh":
        answer = to_chinese(answer)
    if as_json:
        traced = {"trace": [s.to_dict() for s in steps]} if trace else {}
        emit_json({**answer.to_dict(), **traced})
    else:
        if trace:
            print_pipeline(err, answer.pipeline)
            print_trace(err, steps)
        print_answer(out, answer)
    if answer.refused:
        raise cli.Exit(EXIT_REFUSED)


@app.command()
def compact(as_json: JsonOption = False) -> None:
    """Give the library's free space back to the disk (after a migration or deletions);
    on a PostgreSQL library, first remove jobs finished more than `[queue] retention_days`
    (default 30) ago and their outcomes. Stop `serve` and workers using the library first."""
    with open_library(embeddings=False) as lib:
        result = lib.compact()
    if as_json:
        emit_json(result.to_dict())
        return
    mb = 1024 * 1024
    out.print(
        f"compacted {result.location}: {result.before / mb:.1f} MB -> {result.after / mb:.1f} MB"
    )
    if result.jobs_removed or result.outcomes_removed:
        out.print(
            f"removed {result.jobs_removed} finished job(s) and {result.outcomes_removed} "
            "job outcome(s) past the queue's retention"
        )


@app.command()
def review(
    limit: Annotated[int, cli.Option("-n", metavar="N", help="How many entries to show.")] = 50,
    as_json: JsonOption = False,
) -> None:
    """Low-support answers and refusals that `ask` logged, newest first: the questions
    the library answers worst."""
    with open_library(embeddings=False) as lib:
        entries = lib.review(limit)
    if as_json:
        emit_json([vars(e) for e in entries])
        return
    from rich.table import Table

    table = Table("asked", "support", "outcome", "question", "draft answer")
    for e in entries:
        outcome = f"refused ({e.refusal_kind})" if e.refused else "answered"
        table.add_row(e.asked_at, f"{e.support:.2f}", outcome, e.question, e.answer[:120])
    out.print(table)


@app.command("eval")
def eval_command(
    qa_file: Annotated[
        Path | None,
        cli.Argument(metavar="QA_FILE", help="QA file (YAML, the format of dev.yaml)."),
    ] = None,
    as_json: JsonOption = False,
    scope_docs: Annotated[
        bool,
        cli.Option("--scope-docs", help="Ask each question within its item's `doc`."),
    ] = False,
    compare: Annotated[
        list[Path] | None,
        cli.Option(
            "--compare",
            metavar="RUN.json",
            help="Two saved `eval --json` runs to show side by side.",
        ),
    ] = None,
    fit: Annotated[
        list[Path] | None,
        cli.Option(
            "--fit",
            metavar="RUN.json",
            help="Saved `eval --json` runs: fit the refusal parameters, leave one document out.",
        ),
    ] = None,
    gold: Annotated[
        Path | None,
        cli.Option("--gold", help="QA file whose gold the questions (a translation) use."),
    ] = None,
    llm: LlmOption = None,
    llm_url: LlmUrlOption = None,
    no_cache: NoCacheOption = False,
) -> None:
    """Score answers over the current library against gold answers and pages."""
    from citewise.api.evaluation import ModelChoice, fit_runs, load_items
    from citewise.eval.render import print_eval, print_fit

    if compare:
        _compare_runs(compare, as_json)
        return
    if fit:
        fitted = fit_runs(fit)
        emit_json(fitted) if as_json else print_fit(out, fitted)
        return
    if qa_file is None:
        raise cli.BadParameter("give a QA file, --compare A.json B.json or --fit RUN.json")
    items = load_items(qa_file, gold)
    result = _evaluate(items, scope_docs, as_json, ModelChoice(llm, llm_url, not no_cache))
    if as_json:
        emit_json(result.to_dict())
        return
    print_eval(out, result)


def _evaluate(
    items: list[QAItem], scope_docs: bool, as_json: bool, model: ModelChoice
) -> EvalResult:
    """Every item asked over the library under a progress bar (none with --json)."""
    from citewise.api.evaluation import evaluate_library

    with open_library() as lib, progress_bar(not as_json) as bar:
        shown: list[TaskID] = []  # the bar's task, added once the model is loaded

        def advance(done: int, total: int) -> None:
            if not shown:
                shown.append(bar.add_task("evaluating", total=total))
            bar.update(shown[0], completed=done)

        return evaluate_library(lib, items, scope_docs, model, advance)


def _compare_runs(paths: list[Path], as_json: bool) -> None:
    from citewise.api.evaluation import compare_runs, load_run
    from citewise.eval.render import print_comparison

    if len(paths) != 2:
        raise cli.BadParameter("--compare takes two saved runs: --compare A.json --compare B.json")
    comparison = compare_runs(load_run(paths[0]), load_run(paths[1]))
    if as_json:
        emit_json(comparison)
    else:
        print_comparison(out, comparison, paths[0].name, paths[1].name)
