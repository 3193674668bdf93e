"""A research report over papers the test writes carries a literature-matrix section: one row
per library paper the report cites, the default columns, each stated cell's value cited by
page and block (the value occurs in that block), the rest "not stated"; the same in HTML;
and the report's sentence counts are those of the report without it."""

from __future__ import annotations

import re
from pathlib import Path

from citewise.agent.comparison.matrix import DEFAULT_COLUMNS
from citewise.agent.research import ResearchOptions
from citewise.api import Library
from citewise.api.research import ResearchDesk
from citewise.report.markdown import render_markdown
from citewise.report.matrix_section import HEADING, report_papers
from tests.pdfs import write_paper
from tests.research.rendered import body_sentences
from tests.research.test_research_disagreements import FIRST, SECOND

CELL = re.compile(r"^(?P<value>.+) \[@(?P<doc>[\w:.\-]+), p\. (?P<page>\d+), (?P<block>[\w\-]+)\]$")


def test_a_report_has_the_literature_matrix_of_the_papers_it_cites(tmp_path: Path) -> None:
    first = write_paper(tmp_path / "probes.pdf", "Acoustic Probes for Granite Sorting", FIRST)
    second = write_paper(tmp_path / "replication.pdf", "Acoustic Granite Sorting Revisited", SECOND)
    with Library(tmp_path / "library", embeddings=False) as library:
        library.ingest([first, second])
        desk = ResearchDesk(library)
        outcome = desk.research("acoustic probes for granite sorting", ResearchOptions(rounds=1))
        rendered = desk.render(outcome.task.id)
        report = desk.report(outcome.task.id)
        evidence = desk.tasks.evidence(outcome.task.id)
        cited = report_papers(report, evidence)
        blocks = {b.id: b for d in cited for b in library.blocks(d)}
        plain = render_markdown(report, evidence, outcome.task.id)
    assert len(cited) == 2
    markdown = rendered.markdown
    assert markdown.index(HEADING) < markdown.index("## References")
    table = markdown.split(HEADING)[1].split("\n## ")[0].strip().splitlines()
    assert table[0] == "| paper | " + " | ".join(DEFAULT_COLUMNS) + " |"
    rows = [[c.strip() for c in line.strip("|").split(" | ")] for line in table[2:]]
    assert len(rows) == 2 and all(len(r) == 1 + len(DEFAULT_COLUMNS) for r in rows)
    stated = 0
    for row in rows:
        for cell in row[1:]:
            if cell == "*not stated*":
                continue
            match = CELL.match(cell)
            assert match, cell
            block = blocks[match["block"]]
            assert match["doc"] in cited and block.document_id == match["doc"]
            assert int(match["page"]) == block.page
            assert match["value"].replace("\\", "") in block.text
            stated += 1
    assert stated >= 2  # at least the task and method of both papers
    assert 'id="literature-matrix"' in rendered.html
    assert rendered.html.index("literature-matrix") < rendered.html.index('id="references"')
    # table rows are not report sentences: the counts are those without the section
    assert body_sentences(markdown) == body_sentences(plain)
    assert Path(str(outcome.report_markdown)).read_text() == markdown
