"""Research over the shared corpus, offline, with the extractive backend: the issue's floors
(sections, evidence IDs on sentences, IDs that resolve, no network, time) and citation validity."""

from __future__ import annotations

import json
import re
import shutil
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citewise.agent.research import ResearchOptions
from citewise.api import Library
from citewise.api.research import ResearchDesk, ResearchOutcome
from citewise.report.markdown import EVIDENCE_ID
from tests.conftest import CORPUS
from tests.research.rendered import body_sentences

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")

WALL_SECONDS: dict[str, float] = {}  # task -> how long research() took, start to report
TOPIC = "building large scholarly corpora from PDFs: extraction quality and citation graphs"
SECTIONS = [
    "## Executive summary",
    "## Cross-cutting discussion",
    "## Where the sources disagree",
    "## Open problems",
    "## References",
    "## Appendix A. Verification",
    "## Appendix B. Coverage",
    "## Appendix C. Screening log",
]


class NetworkUsed(AssertionError):
    pass


def _refuse(*args: object, **kwargs: object) -> None:
    raise NetworkUsed("research tried to open a network connection")


@pytest.fixture(scope="module")
def run(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Library, ResearchOutcome, Path]]:
    folder = tmp_path_factory.mktemp("research")
    library = Library(folder / "library", embeddings=False)
    library.ingest([CORPUS])
    with pytest.MonkeyPatch.context() as patch:
        # No network at all: any attempt to connect a socket fails the run.
        patch.setattr(socket.socket, "connect", _refuse)
        patch.setattr(socket.socket, "connect_ex", _refuse)
        patch.setattr(socket, "create_connection", _refuse)
        started = time.perf_counter()
        outcome = ResearchDesk(library).research(
            TOPIC, ResearchOptions(), out=folder / "out" / "report.md", html=folder / "report.html"
        )
        WALL_SECONDS[outcome.task.id] = time.perf_counter() - started
    yield library, outcome, folder
    library.close()


def _citations(markdown: str) -> list[str]:
    return re.findall(r"(?<!\\)\[(@[^\[\]]+)\]", markdown)


def test_report_is_complete_fast_and_offline(run: tuple[Library, ResearchOutcome, Path]) -> None:
    _, outcome, _ = run
    assert outcome.task.state == "completed"
    assert WALL_SECONDS[outcome.task.id] < 60
    stats = outcome.to_dict()["stats"]
    markdown = Path(str(outcome.report_markdown)).read_text()
    for heading in SECTIONS:
        assert f"\n{heading}\n" in markdown, heading
    sub_questions = re.findall(r"^## Q\d+\. .+\?$", markdown, re.MULTILINE)
    assert 4 <= len(sub_questions) == stats["sub_questions"] <= 8
    assert stats["papers_included"] >= 2 and stats["evidence_items"] > 20


def test_nearly_every_sentence_carries_evidence_ids_that_all_resolve(
    run: tuple[Library, ResearchOutcome, Path],
) -> None:
    library, outcome, _ = run
    stats = outcome.to_dict()["stats"]
    assert stats["evidence_sentence_share"] >= 0.95
    assert stats["unresolved_ids"] == 0 and stats["verification"]["ids_unresolved"] == 0
    markdown = Path(str(outcome.report_markdown)).read_text()
    # A body line without a citation is a labelled coverage note, counted apart.
    # (the literature matrix, a table of cells citing blocks, is checked in
    # tests/report/test_matrix_section.py)
    end = markdown.find("## Literature matrix")
    body = markdown[markdown.index("## Executive summary") : end if end > 0 else None]
    body = body[: body.find("## References")] if "## References" in body else body
    uncited = [
        line.removeprefix("- ")
        for line in body.splitlines()
        if line.strip() and not line.startswith("#") and not EVIDENCE_ID.search(line)
    ]
    assert all(line.startswith("*Coverage note: ") for line in uncited), uncited
    assert stats["coverage_notes"] >= len(uncited)
    assert "Coverage notes (labelled 'Coverage note:')" in markdown  # the counting is stated
    # The counts come from the Report; a recount of the rendered text agrees.
    recount = body_sentences(markdown)
    assert (recount.sentences, recount.cited, recount.notes) == (
        stats["sentences"],
        stats["sentences_with_evidence"],
        stats["coverage_notes"],
    )
    cited = set(EVIDENCE_ID.findall(markdown))
    rows = library.store.db.execute(
        "SELECT e.id, e.quote, b.text, b.page, json_extract(e.data, '$.page') FROM evidence e "
        "JOIN blocks b ON b.id = e.block_id WHERE e.task_id = ?",
        (outcome.task.id,),
    ).fetchall()
    stored = {r[0]: r for r in rows}
    assert cited and cited <= set(stored)  # every ID resolves to a stored block
    for eid in cited:
        _, quote, text, page, evidence_page = stored[eid]
        assert quote in " ".join(text.split())  # verbatim
        assert page == evidence_page


def test_citations_are_pandoc_keys_with_a_csl_bibliography(
    run: tuple[Library, ResearchOutcome, Path],
) -> None:
    _, outcome, folder = run
    markdown = Path(str(outcome.report_markdown)).read_text()
    front = markdown.split("---")[1]
    bibliography = json.loads(re.search(r"^bibliography: (.+)$", front, re.MULTILINE)[1])
    items: list[dict[str, Any]] = json.loads((folder / "out" / bibliography).read_text())
    ids = {item["id"] for item in items}
    assert all(item.get("title") and item.get("type") for item in items)
    keys = set()
    # claims cite evidence items; the literature matrix's cells cite blocks
    matrix_at = markdown.find("## Literature matrix")
    refs_at = markdown.find("## References")
    claims = markdown[:matrix_at] + markdown[refs_at:] if matrix_at > 0 else markdown
    matrix = markdown[matrix_at:refs_at] if matrix_at > 0 else ""
    for text, target in ((claims, r"ev-[0-9a-f]{10}"), (matrix, r"[0-9a-f]{12}-\d{5}")):
        for group in _citations(text):
            for cite in group.split(";"):
                match = re.fullmatch(rf"\s*@([\w:.\-]+)(?:, p\. \d+)?, ({target})\s*", cite)
                assert match, cite
                keys.add(match[1])
    assert keys == ids  # every key has an entry, every entry is cited


def test_screening_log_gives_reasons_and_leaves_off_topic_papers_out(
    run: tuple[Library, ResearchOutcome, Path],
) -> None:
    library, outcome, _ = run
    report = ResearchDesk(library).report(outcome.task.id)
    decisions = {d.key: d for d in report.screening}
    assert decisions["lo2020s2orc"].included and decisions["ammar2018construction"].included
    assert not decisions["datta2010complications"].included
    assert all(d.reason for d in decisions.values())
    markdown = Path(str(outcome.report_markdown)).read_text()
    assert "| exclude |" in markdown and "datta2010complications" in markdown


def test_html_report_has_an_evidence_board_card_for_every_citation(
    run: tuple[Library, ResearchOutcome, Path],
) -> None:
    _, outcome, _ = run
    html = Path(str(outcome.report_html)).read_text()
    assert "<script" not in html and "http://" not in html.split("</style>")[0]
    markers = set(re.findall(r'href="#(ev-[0-9a-f]{10})"', html))
    cards = set(re.findall(r'<article class="card" id="(ev-[0-9a-f]{10})"', html))
    assert markers and markers == cards
    card = re.search(r'<article class="card".*?</article>', html)
    assert card and "<blockquote>" in card[0] and "#page=" in card[0] and "p. " in card[0]


def test_finished_task_re_renders_identically_and_a_rerun_writes_the_same_report(
    run: tuple[Library, ResearchOutcome, Path],
) -> None:
    library, outcome, _ = run
    desk = ResearchDesk(library)
    stored = (library.directory / "reports" / outcome.task.id / "report.md").read_text()
    again = desk.resume(outcome.task.id)
    assert Path(str(again.report_markdown)).read_text() == stored
    assert desk.render(outcome.task.id).html == Path(str(outcome.report_html)).read_text()
    rerun = desk.research(TOPIC, ResearchOptions())

    def anonymous(text: str, task: str) -> str:
        return EVIDENCE_ID.sub("ev", text.replace(task, "TASK"))

    fresh = Path(str(rerun.report_markdown)).read_text()
    assert anonymous(fresh, rerun.task.id) == anonymous(stored, outcome.task.id)
    assert rerun.evidence == outcome.evidence


def test_evidence_rows_are_never_duplicated(run: tuple[Library, ResearchOutcome, Path]) -> None:
    library, outcome, _ = run
    with sqlite3.connect(library.directory / "library.db") as db:
        rows, distinct = db.execute(
            "SELECT count(*), count(DISTINCT sub_question || kind || block_id || quote) "
            "FROM evidence WHERE task_id = ?",
            (outcome.task.id,),
        ).fetchone()
    assert rows == distinct == outcome.evidence


@pytest.mark.skipif(shutil.which("pandoc") is None, reason="pandoc not installed")
def test_pandoc_resolves_every_citation_against_the_bibliography(
    run: tuple[Library, ResearchOutcome, Path],
) -> None:
    _, outcome, _ = run
    markdown = Path(str(outcome.report_markdown))
    result = subprocess.run(
        ["pandoc", "--citeproc", markdown.name, "-t", "plain"],
        cwd=markdown.parent,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "not found" not in result.stderr and "WARNING" not in result.stderr
    assert "(Lo et al. 2020" in result.stdout and "(Ammar et al. 2018" in result.stdout
