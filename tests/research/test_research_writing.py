"""How a report is written: each sentence once, the papers' own claims in the report's voice
(attributed and quoted), claims that two papers share written once for both, limitations as the
authors state them, Chinese fixed wording; on evidence and papers the tests write."""

from __future__ import annotations

import re
from pathlib import Path

from citewise.agent.research import ResearchOptions
from citewise.agent.research.chinese import chinese_report
from citewise.agent.research.model import EvidenceItem, Paper, ScreeningDecision
from citewise.agent.research.reading.claims import (
    in_background_section,
    reports_other_work,
    states_limitation,
)
from citewise.agent.research.reading.cluster import cluster_claims
from citewise.agent.research.stages.plan import make_plan
from citewise.agent.research.stages.write import write_report
from citewise.api import Library
from citewise.api.research import ResearchDesk
from citewise.report.markdown import render_markdown
from tests.pdfs import write_paper

TOPIC = "tide gauges for harbour silting"


def _paper(key: str, family: str, year: int) -> Paper:
    authors = [{"family": family}, {"family": "Ng"}, {"family": "Ruiz"}]
    csl = {"id": key, "title": f"{family} on tides", "author": authors}
    csl["issued"] = {"date-parts": [[year]]}
    return Paper(key, f"{family} on tides", "", year, [family], "local", "", csl)


def _item(
    n: int, paper: str, question: str, kind: str, quote: str, section: str = ""
) -> EvidenceItem:
    return EvidenceItem(f"ev-{n:010d}", question, kind, paper, quote, f"b{n}", 2, section=section)


def _report(items: list[EvidenceItem], papers: list[Paper]) -> str:
    plan = make_plan(TOPIC)
    screening = [ScreeningDecision(p.key, p.title, 1, 0.9, True, "on topic") for p in papers]
    report = write_report(plan, items, papers, screening, [], {})
    return render_markdown(report, items, "task-1")


def test_a_sentence_found_for_several_sub_questions_is_written_once() -> None:
    shared = "We installed nine tide gauges along the harbour mouth in 2019."
    items = [
        _item(
            1,
            "alpha",
            "",
            "contribution",
            "We present a survey of silting measured by tide gauges.",
        ),
        _item(2, "alpha", "q1", "method", shared),
        _item(3, "alpha", "q2", "passage", shared),
        _item(4, "alpha", "q6", "application", shared),
        _item(5, "alpha", "q5", "limitation", "A limitation is that two gauges failed in winter."),
    ]
    markdown = _report(items, [_paper("alpha", "Okafor", 2021)])
    body = markdown.split("## Literature matrix")[0].split("## References")[0]
    for item in items:
        assert body.count(item.quote) == 1, item.quote


def test_claims_are_attributed_in_third_person_and_quoted() -> None:
    items = [
        _item(1, "alpha", "q1", "method", "We installed nine tide gauges along the harbour mouth."),
    ]
    markdown = _report(items, [_paper("alpha", "Okafor", 2021)])
    assert "Okafor et al. (2021) write: “We installed nine tide gauges" in markdown


def test_two_papers_making_the_same_claim_are_written_once_for_both() -> None:
    same_a = "Silting at the harbour mouth doubled after the breakwater was extended."
    same_b = "After the breakwater was extended, silting at the harbour mouth doubled."
    other = "Dredging costs were paid by the port authority every spring."
    items = [
        _item(1, "alpha", "q4", "result", same_a),
        _item(2, "beta", "q4", "result", same_b),
        _item(3, "beta", "q4", "result", other),
    ]
    groups = cluster_claims(items, set())
    assert [[i.id for i in g] for g in groups] == [[items[0].id, items[1].id], [items[2].id]]
    markdown = _report(items, [_paper("alpha", "Okafor", 2021), _paper("beta", "Lind", 2022)])
    line = next(line for line in markdown.splitlines() if same_a in line)
    assert "Okafor et al. (2021) write (and Lind et al. (2022) likewise):" in line
    body = markdown.split("## References")[0]
    assert items[0].id in line and items[1].id in line and same_b not in body


def test_sentences_with_different_numbers_or_polarity_are_not_one_claim() -> None:
    items = [
        _item(
            1, "alpha", "q4", "result", "Silting at the mouth grew by 12 cm per year after 2015."
        ),
        _item(2, "beta", "q4", "result", "Silting at the mouth grew by 30 cm per year after 2015."),
        _item(3, "gamma", "q4", "result", "Silting at the mouth did not grow after 2015 at all."),
    ]
    assert len(cluster_claims(items, set())) == 3


def test_sentences_reporting_other_work_are_not_the_papers_claims() -> None:
    assert reports_other_work("Okafor et al. (2019) report that gauges drift by 2 cm a year.")
    assert reports_other_work("Earlier surveys measured silting with sonar (Lind, 2015).")
    assert reports_other_work("We follow several surveys (Lind, 2015; Ruiz et al., 2017).")
    assert not reports_other_work("We calibrate each gauge as Lind (2015) recommends.")
    assert not reports_other_work("We installed nine tide gauges along the harbour mouth.")
    assert in_background_section("2 Related Work > Sonar surveys")
    assert not in_background_section("3 Method > Gauges")


def test_limitations_are_stated_limitations_not_method_details() -> None:
    assert states_limitation("A limitation is that two gauges failed in winter.", "3 Method")
    assert states_limitation("Gauges cannot separate silt from sand.", "6 Discussion")
    # a filter rule of the method mentions an error, but is no limitation
    assert not states_limitation(
        "We drop readings that produce an error in the logger.", "3 Method"
    )


def test_a_chinese_report_words_its_fixed_strings_in_chinese() -> None:
    plan = make_plan(TOPIC)
    items = [
        _item(1, "alpha", "q1", "method", "We installed nine tide gauges along the harbour mouth.")
    ]
    papers = [_paper("alpha", "Okafor", 2021)]
    screening = [ScreeningDecision("alpha", "Okafor on tides", 1, 0.9, True, "on topic")]
    report = chinese_report(write_report(plan, items, papers, screening, [], {}), plan)
    markdown = render_markdown(report, items, "task-1")
    # the quote keeps its words, after a gloss from fixed strings: its kind, its numbers
    assert "研究报告：" in markdown and "覆盖说明：" in markdown
    assert "写道：〔方法〕“We installed nine tide gauges" in markdown
    assert (
        "Research report:" not in markdown and "Coverage note:" not in markdown.split("## 附录")[0]
    )
    assert " write:" not in markdown
    assert "## References" not in markdown and "## Appendix" not in markdown


AGREE = [
    ("1 Introduction", ["We present tide gauges that measure silting in small harbours."]),
    ("2 Results", ["The gauges reached an accuracy of 91.0% on the Solent silt test set."]),
]
AGREE_AGAIN = [
    ("1 Introduction", ["We present a replication of tide gauges for harbour silting."]),
    ("2 Results", ["The gauges reached an accuracy of 91.0% on the Solent silt test set."]),
]


def test_two_papers_that_agree_show_no_disagreement_and_their_claim_once(tmp_path: Path) -> None:
    first = write_paper(tmp_path / "gauges.pdf", "Tide Gauges for Harbour Silting", AGREE)
    second = write_paper(tmp_path / "again.pdf", "Harbour Silting Gauges Revisited", AGREE_AGAIN)
    with Library(tmp_path / "library", embeddings=False) as library:
        library.ingest([first, second])
        desk = ResearchDesk(library)
        outcome = desk.research(TOPIC, ResearchOptions(rounds=1))
        report = desk.report(outcome.task.id)
    assert report.disagreements == []
    markdown = Path(str(outcome.report_markdown)).read_text()
    body = markdown.split("## Literature matrix")[0]
    assert body.count("The gauges reached an accuracy of 91.0%") == 1
    quotes = re.findall(r"writes?(?: \([^)]*\))?: “([^”]+)”", body)
    assert quotes and len(quotes) == len(set(quotes))
