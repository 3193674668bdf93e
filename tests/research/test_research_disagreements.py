"""Two papers that disagree, written by the test: the report's "Where the sources disagree"
section lists both citations, both quotes and the likely reason the evidence shows."""

from __future__ import annotations

import re
from pathlib import Path

from citewise.agent.research import ResearchOptions
from citewise.api import Library
from citewise.api.research import ResearchDesk
from tests.pdfs import write_paper

FIRST = [
    (
        "1 Introduction",
        ["We present acoustic probes that classify granite blocks before they are cut."],
    ),
    (
        "2 Results",
        [
            "The acoustic classifier reached an accuracy of 93.4% on the BQ-312 granite test set. "
            "Sorting granite with acoustic probes reduced crusher downtime by 41 hours per month.",
        ],
    ),
]
SECOND = [
    (
        "1 Introduction",
        ["We present a replication of acoustic probes for classifying granite blocks."],
    ),
    (
        "2 Results",
        [
            "The acoustic classifier reached an accuracy of 71.2% on the BQ-312 granite test set "
            "recorded with the WetRock protocol. Sorting granite with acoustic probes did not "
            "reduce crusher downtime in 12 months of operation.",
        ],
    ),
]


def test_conflicting_numbers_and_claims_are_reported_with_both_citations(tmp_path: Path) -> None:
    first = write_paper(tmp_path / "probes.pdf", "Acoustic Probes for Granite Sorting", FIRST)
    second = write_paper(tmp_path / "replication.pdf", "Acoustic Granite Sorting Revisited", SECOND)
    with Library(tmp_path / "library", embeddings=False) as library:
        library.ingest([first, second])
        desk = ResearchDesk(library)
        outcome = desk.research("acoustic probes for granite sorting", ResearchOptions(rounds=1))
        report = desk.report(outcome.task.id)
        evidence = {e.id: e for e in desk.tasks.evidence(outcome.task.id)}
    numbers = [d for d in report.disagreements if d.kind == "numbers"]
    assert numbers and numbers[0].topic.startswith("accuracy")
    assert set(numbers[0].values) == {"93.4%", "71.2%"}
    assert "WetRock" in numbers[0].reason  # the quote names what differs
    papers = {evidence[e].paper for e in numbers[0].evidence}
    assert len(papers) == 2
    direction = [d for d in report.disagreements if d.kind == "direction"]
    assert direction and "downtime" in " ".join(evidence[e].quote for e in direction[0].evidence)

    markdown = Path(str(outcome.report_markdown)).read_text()
    section = markdown.split("## Where the sources disagree")[1].split("\n## ")[0]
    for eid in numbers[0].evidence:
        assert eid in section
    assert "Likely reason: different data or systems named" in section
    # each quote is written once in the report: in a section, or under the disagreement
    body = markdown.split("## Literature matrix")[0]
    for d in report.disagreements:
        for eid in d.evidence:
            assert body.count(evidence[eid].quote) == 1
    keys = set(re.findall(r"@([\w:.\-]+),", section))
    assert keys == papers
