"""Research commands: `research TOPIC` and `tasks [list|show|cancel|resume]`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from citewise.cli import parsing as cli
from citewise.cli.app import app, emit_json, err, open_library, out, progress_bar
from citewise.cli.options import JsonOption, JsonSummaryOption, SourcesConfigOption

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from citewise.api.research import ResearchDesk, ResearchOptions, ResearchOutcome


tasks_app = cli.App(help="Research tasks: list, show, cancel, resume.", no_args_is_help=False)
app.add_group(tasks_app, name="tasks")

LOCAL = "local"


class _StageBars:
    """One progress bar per stage, on stderr."""

    def __init__(self, bar: Progress) -> None:
        self.bar = bar
        self.rows: dict[str, TaskID] = {}

    def __call__(self, state: str, done: int, total: int) -> None:
        if state not in self.rows:
            self.rows[state] = self.bar.add_task(state, total=total or None)
        self.bar.update(self.rows[state], completed=done, total=total or None)


def _sources(value: str) -> list[str]:
    names = [s.strip().lower() for s in value.split(",") if s.strip()]
    try:
        from citewise.api.sources import SOURCE_NAMES
    except ImportError:
        known: tuple[str, ...] = (LOCAL,)
    else:
        known = (LOCAL, *SOURCE_NAMES)
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise cli.BadParameter(
            f"unknown source '{unknown[0] if unknown else value}' (known: {', '.join(known)})",
            param_hint="--sources",
        )
    return list(dict.fromkeys(names))


def _print_outcome(outcome: ResearchOutcome) -> None:
    from citewise.report.terminal import safe

    task = outcome.task
    out.print(f"task [bold]{safe(task.id)}[/] · {safe(task.state)} · round {task.round}")
    if task.state != "completed" or outcome.stats is None:
        out.print(f"resume with: citewise tasks resume {safe(task.id)}")
        return
    stats = outcome.stats.report
    from citewise.report.words import plural

    out.print(
        f"{stats.papers_included} of {plural(stats.papers_screened, 'paper')} included, "
        f"{plural(outcome.evidence, 'evidence item')}, "
        f"{plural(stats.disagreements, 'disagreement')}; "
        f"{stats.counted.cited}/{stats.counted.sentences} sentences cite evidence "
        f"({stats.counted.notes} coverage notes apart), "
        f"{stats.unresolved_ids} unresolved IDs"
    )
    out.print(f"Markdown: {safe(outcome.report_markdown)}")
    out.print(f"HTML:     {safe(outcome.report_html)}")


def _run(as_json: bool, work: Callable[[ResearchDesk], ResearchOutcome]) -> None:
    from citewise.api.research import ResearchDesk
    from citewise.report.terminal import safe

    with open_library() as lib, progress_bar(not as_json) as bar:
        desk = ResearchDesk(lib, _StageBars(bar))
        outcome = work(desk)
        for notice in lib.notices:
            err.print(safe(notice))
        for event in desk.tasks.events(outcome.task.id, "warning"):
            err.print(f"warning: {safe(event.data.get('message', ''))}")
    if as_json:
        emit_json(outcome.to_dict())
    else:
        _print_outcome(outcome)
    if outcome.task.state != "completed":
        raise cli.Exit(1)


ReportOutOption = Annotated[
    Path | None,
    cli.Option("--out", help="Write the report here: .md, or .docx, .odt, .pdf through pandoc."),
]
HtmlOption = Annotated[Path | None, cli.Option("--html", help="Write the HTML report here.")]


# long: one parameter per research option (each option is declared as a parameter)
@app.command()
def research(
    topic: Annotated[str, cli.Argument(help="The research topic, in quotes.")],
    sources: Annotated[
        str, cli.Option("--sources", help="Comma-separated: local, arxiv, pubmed, ...")
    ] = LOCAL,
    rounds: Annotated[int, cli.Option("--rounds", min=1, help="Search rounds at most.")] = 3,
    max_papers: Annotated[
        int, cli.Option("--max-papers", min=1, help="Papers to include at most.")
    ] = 12,
    llm: Annotated[
        str,
        cli.Option(
            "--llm",
            help="BACKEND:MODEL that plans, screens and drafts section prose, each sentence "
            "verified against the evidence it cites (default: extractive, no model: "
            "claims are verbatim quotes).",
        ),
    ] = "extractive",
    budget_tokens: Annotated[
        int | None, cli.Option("--budget-tokens", min=1, help="Model token budget.")
    ] = None,
    report_out: ReportOutOption = None,
    html: HtmlOption = None,
    fetch: Annotated[
        bool,
        cli.Option("--fetch", help="Download and ingest open-access PDFs of included records."),
    ] = False,
    save: Annotated[
        bool,
        cli.Option(
            "--save",
            help="Keep included remote records' abstracts in the library (cited as abstracts).",
        ),
    ] = False,
    sources_config: SourcesConfigOption = None,
    lang: Annotated[
        str,
        cli.Option(
            "--lang",
            help="Report wording: zh (Chinese headings and notes; quotes stay as written) or "
            "en (default: Chinese for a Chinese topic, else English).",
        ),
    ] = "",
    as_json: JsonSummaryOption = False,
    queue: Annotated[
        bool,
        cli.Option("--queue", help="PostgreSQL library: run it as a job on a worker."),
    ] = False,
) -> None:
    """Plan, search, screen, extract, fill gaps and write a cited report on TOPIC."""
    from citewise.api.research import ResearchOptions

    if lang not in ("", "en", "zh"):
        raise cli.BadParameter("--lang takes en or zh")
    options = ResearchOptions(
        sources=_sources(sources),
        rounds=rounds,
        max_papers=max_papers,
        llm=llm,
        budget_tokens=budget_tokens,
        sources_config=str(sources_config.resolve()) if sources_config else None,
        fetch=fetch,
        save_abstracts=save,
        lang=lang,
    )
    _start(topic, options, report_out, html, as_json, queue)


def _start(
    topic: str,
    options: ResearchOptions,
    report_out: Path | None,
    html: Path | None,
    as_json: bool,
    queue: bool,
) -> None:
    """Run the research here, or (--queue) as a job on a worker."""
    from citewise.api.models import parse_spec

    parse_spec(options.llm)  # a bad --llm is a usage error now, not a failure mid-task
    if queue:
        from citewise.cli.worker import queued_research

        queued_research(topic, options, as_json)
        return
    _run(as_json, lambda desk: desk.research(topic, options, report_out, html))


@tasks_app.callback(invoke_without_command=True)
def tasks(
    ctx: cli.Context,
    as_json: JsonOption = False,
) -> None:
    """List research tasks (the default), or show, cancel or resume one."""
    if ctx.invoked_subcommand is None:
        list_tasks(as_json)


@tasks_app.command("list")
def list_tasks(
    as_json: JsonOption = False,
) -> None:
    """Research tasks in this library, oldest first."""
    from rich.table import Table

    from citewise.api.research import ResearchDesk
    from citewise.report.terminal import safe

    with open_library(embeddings=False) as lib:
        found = ResearchDesk(lib).list_tasks()
    if as_json:
        emit_json([t.summary() for t in found])
        return
    table = Table("id", "topic", "state", "round", "created")
    for t in found:
        table.add_row(safe(t.id), safe(t.topic), safe(t.state), str(t.round), safe(t.created))
    out.print(table)


@tasks_app.command("show")
def show_task(
    task_id: Annotated[str, cli.Argument(help="Task ID (see 'citewise tasks list').")],
    as_json: JsonOption = False,
) -> None:
    """A task's state, options and event log."""
    from rich.table import Table

    from citewise.api.research import ResearchDesk
    from citewise.report.terminal import safe

    with open_library(embeddings=False) as lib:
        shown = ResearchDesk(lib).show(task_id).to_dict()
    if as_json:
        emit_json(shown)
        return
    out.print(
        f"[bold]{safe(shown['id'])}[/] · {safe(shown['state'])} · round {shown['round']} · "
        f"{shown['evidence']} evidence items\n{safe(shown['topic'])}"
    )
    for path in (shown["report_markdown"], shown["report_html"]):
        if path:
            out.print(safe(path))
    table = Table("time", "stage", "event", "data")
    for e in shown["events"]:
        table.add_row(*(safe(e[k]) for k in ("time", "stage", "kind")), safe(str(e["data"])[:100]))
    out.print(table)


@tasks_app.command("cancel")
def cancel_task(
    task_id: Annotated[str, cli.Argument()],
    as_json: JsonOption = False,
) -> None:
    """Cancel a task; a process running it stops at its next checkpoint."""
    from citewise.api.research import ResearchDesk
    from citewise.report.terminal import safe

    with open_library(embeddings=False) as lib:
        task = ResearchDesk(lib).cancel(task_id)
    if as_json:
        emit_json(task.summary())
    else:
        out.print(f"task {safe(task.id)} cancelled")


@tasks_app.command("resume")
def resume_task(
    task_id: Annotated[str, cli.Argument()],
    report_out: ReportOutOption = None,
    html: HtmlOption = None,
    as_json: JsonOption = False,
) -> None:
    """Finish a task from its last stored stage (a completed task re-renders offline)."""
    _run(as_json, lambda desk: desk.resume(task_id, report_out, html))
