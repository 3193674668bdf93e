"""Literature search: eight scholarly databases at once, and the table of merged records
that `watch` prints too. The other literature commands (export, watch, graph, fetch) are
in cli/literature.py."""

from __future__ import annotations

import logging
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from citewise.api.names import ALL_CAP, SOURCE_NAMES
from citewise.cli import parsing as cli
from citewise.cli.app import app, emit_json, err, open_library, out, settings
from citewise.cli.options import SourcesConfigOption

if TYPE_CHECKING:
    from rich.text import Text

    from citewise.api.literature import Intent, Literature, LiteratureSearch, SearchResult


log = logging.getLogger(__name__)
EXIT_NOT_FOUND = 3
# Short labels so a record found by four sources still fits the column.
BADGES = {
    "arxiv": ("arXiv", "red"),
    "pubmed": ("PM", "blue"),
    "semantic_scholar": ("S2", "magenta"),
    "openalex": ("OAlex", "cyan"),
    "crossref": ("CR", "yellow"),
    "core": ("CORE", "green"),
    "doaj": ("DOAJ", "bright_green"),
    "europepmc": ("EPMC", "bright_blue"),
}


def split_values(values: list[str] | None) -> list[str]:
    return [v.strip() for value in values or [] for v in value.split(",") if v.strip()]


def _format_for(fmt: str | None, out_file: Path | None) -> str:
    from citewise.api.literature import EXTENSION_FORMATS, FORMATS

    if fmt:
        if fmt not in ("table", *FORMATS):
            raise cli.BadParameter(f"use one of table, {', '.join(FORMATS)}", param_hint="--format")
        return fmt
    if out_file is not None:
        return EXTENSION_FORMATS.get(out_file.suffix.lower(), "csl-json")
    return "table"


# long: one parameter per search option (each option is declared as a parameter)
@app.command()
def search(
    query: Annotated[str, cli.Argument(help='What to look for; "quoted phrases" stay together.')],
    sources: Annotated[
        list[str] | None,
        cli.Option(
            "--sources", "-s", help=f"Comma-separated: {','.join(SOURCE_NAMES)} (default: all)."
        ),
    ] = None,
    since: Annotated[int | None, cli.Option("--since", help="First publication year.")] = None,
    until: Annotated[int | None, cli.Option("--until", help="Last publication year.")] = None,
    types: Annotated[
        list[str] | None, cli.Option("--type", help="article, review or preprint (repeatable).")
    ] = None,
    field: Annotated[
        str, cli.Option("--field", help="Match words in: all, title, abstract.")
    ] = "all",
    authors: Annotated[
        list[str] | None, cli.Option("--author", help="Author name (repeatable).")
    ] = None,
    mesh: Annotated[
        list[str] | None, cli.Option("--mesh", help="MeSH descriptor (repeatable).")
    ] = None,
    languages: Annotated[
        list[str] | None, cli.Option("--lang", help="Language, ISO 639-1 (en, de; repeatable).")
    ] = None,
    open_access: Annotated[bool, cli.Option("--oa", help="Open-access records only.")] = False,
    min_citations: Annotated[
        int | None, cli.Option("--min-citations", help="Where the source knows citation counts.")
    ] = None,
    limit: Annotated[
        int, cli.Option("--limit", "-n", help=f"Records to return (at most {ALL_CAP}).")
    ] = 20,
    everything: Annotated[
        bool, cli.Option("--all", help=f"Page through every source, up to {ALL_CAP} records.")
    ] = False,
    fmt: Annotated[
        str | None, cli.Option("--format", "-f", help="table, csl-json, bibtex or ris.")
    ] = None,
    out_file: Annotated[
        Path | None, cli.Option("--out", "-o", help="Write the records here.")
    ] = None,
    as_json: Annotated[
        bool, cli.Option("--json", help="Print records, warnings and timings as JSON.")
    ] = False,
    sources_config: SourcesConfigOption = None,
    refresh: Annotated[bool, cli.Option("--refresh", help="Ignore cached replies.")] = False,
    by_author: Annotated[
        bool,
        cli.Option("--by-author", help="The topic's most-cited authors first, then their papers."),
    ] = False,
    save: Annotated[
        bool,
        cli.Option(
            "--save",
            help="Keep the records' abstracts in the library: ask can cite them (as abstracts).",
        ),
    ] = False,
) -> None:
    """Search scholarly databases at once: merged, deduplicated, ranked records."""
    from citewise.api.literature import read_intent
    from citewise.cli.progress import SourceBars

    chosen = _format_for(fmt, out_file)
    if limit > ALL_CAP:
        raise cli.BadParameter(f"at most {ALL_CAP}; --all pages up to it", param_hint="--limit")
    limit = ALL_CAP if everything else limit
    asked = query
    query, translated = _english(query)
    intent = read_intent(
        query,
        field=field,
        authors=tuple(authors or ()),
        mesh=tuple(mesh or ()),
        languages=tuple(split_values(languages)),
        year_from=since,
        year_to=until,
        types=frozenset(split_values(types)),
        open_access=open_access,
        min_citations=min_citations,
        limit=limit,
    )
    _log_parse(asked, intent, translated)
    literature = literature_for(sources_config)
    with ExitStack() as stack:
        bars = None if as_json or not err.is_terminal else stack.enter_context(SourceBars(err))
        found = literature.search(
            intent.query, split_values(sources), limit, refresh, by_author=by_author, progress=bars
        )
    _show_found(found, literature, chosen, out_file, save, as_json)


def _english(query: str) -> tuple[str, list[str]]:
    """A Chinese request read into English, with a notice on stderr for each reading."""
    from citewise.api.literature import english_request
    from citewise.report.terminal import safe

    query, translated = english_request(query)
    for note in translated:
        err.print(f"notice: {safe(note)}", highlight=False)
    return query, translated


def _log_parse(asked: str, intent: Intent, translated: list[str]) -> None:
    from citewise.api.literature import describe

    notes = "; ".join([*translated, *intent.notes])
    log.info("search: %r parsed as %s (%s)", asked, describe(intent.query), notes)


def _show_found(
    found: LiteratureSearch,
    literature: Literature,
    chosen: str,
    out_file: Path | None,
    save: bool,
    as_json: bool,
) -> None:
    """Notices and warnings on stderr; the records to --out, the library (--save) and
    stdout in the chosen format; exit 1 when every source failed, 3 when nothing matched."""
    from citewise.api.literature import export
    from citewise.report.terminal import plain, safe
    from citewise.report.words import plural

    result = found.result
    for notice in result.notices:
        err.print(f"notice: {safe(notice)}", highlight=False)
    for warning in result.warnings:
        err.print(f"warning: {safe(warning)}", style="yellow", highlight=False)
    if out_file is not None:
        out_file.write_text(
            export(result.records, "csl-json" if chosen == "table" else chosen), "utf-8"
        )
        err.print(
            f"wrote {plural(len(result.records), 'record')} to {safe(out_file)}", highlight=False
        )
    saved = None
    if save and result.records:
        saved = literature.save(result.records, lambda: open_library(embeddings=True))
        err.print(
            f"{safe(saved.summary())} (library {safe(literature.directory)})", highlight=False
        )
    if as_json:
        emit_json({**found.to_dict(), **({"saved": saved.to_dict()} if saved else {})})
    elif chosen != "table" and out_file is None:
        sys.stdout.write(plain(export(result.records, chosen)))
    else:
        print_records(result)
    if not result.records:
        raise cli.Exit(1 if found.all_failed else EXIT_NOT_FOUND)


def literature_for(sources_config: Path | None) -> Literature:
    from citewise.api.literature import Literature
    from citewise.api.sources import SourcesConfig

    chosen = settings()
    config = SourcesConfig.load(sources_config, chosen.environ)
    return Literature(chosen.library, config, chosen.database)


def badges(names: list[str]) -> Text:
    from rich.text import Text

    text = Text()
    for name in names:
        label, colour = BADGES.get(name, (name, "white"))
        text.append(f"[{label}]", style=colour)
        text.append(" ")
    return text


def print_records(result: SearchResult) -> None:
    from rich.table import Table
    from rich.text import Text

    from citewise.api.literature import summary
    from citewise.report.terminal import plain, safe

    if not result.records:
        out.print("No records found.")
        return
    table = Table(expand=True, title=plain(summary(result.query)) if result.query else None)
    table.add_column("#", justify="right", width=3)
    table.add_column("score", justify="right", width=5)
    table.add_column("year", width=4)
    table.add_column("title", ratio=3, min_width=24)
    table.add_column("sources", ratio=1, min_width=6)
    table.add_column("cites", justify="right", width=5)
    table.add_column("key", ratio=1, min_width=12, overflow="fold")
    for number, record in enumerate(result.records, start=1):
        authors = (
            plain(record.authors[0]) + (" et al." if len(record.authors) > 1 else "")
            if record.authors
            else ""
        )
        title = Text(plain(record.title or "(untitled)"), style="bold")
        if authors:
            title.append(f"\n{authors}", style="dim")
        if record.open_access:
            title.append("  open access", style="green")
        if record.retraction:
            title.append(plain(f"\nRETRACTED ({record.retraction})"), style="bold red")
        if record.related:
            title.append(plain(f"\nother version: {', '.join(record.related)}"), style="dim")
        table.add_row(
            str(number),
            f"{record.score:.2f}",
            str(record.year or ""),
            title,
            badges([plain(s) for s in record.sources]),
            "" if record.citations is None else str(record.citations),
            Text(plain(record.key)),
        )
    out.print(table)
    timings = ", ".join(
        f"{safe(s.name)} {s.records}{'' if s.total is None else f' of {s.total}'}"
        f" in {s.seconds:.1f}s"
        for s in result.sources
        if s.status == "ok"
    )
    if timings:
        err.print(f"[dim]{timings}[/dim]")
