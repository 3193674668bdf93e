"""The queries research sends to remote sources: topical words in the sources' phrase and
boolean syntax, no facet cue words, broadened when a round finds too little (logged)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from citewise.agent.research import ResearchOptions
from citewise.agent.research.remote_query import (
    GENERIC,
    broader,
    remote_query,
    search_remote,
)
from citewise.agent.research.stages.plan import make_plan
from citewise.api import Library
from citewise.api.research import ResearchDesk
from citewise.sources.databases import arxiv, pubmed
from citewise.sources.query import Query
from tests.pdfs import write_paper
from tests.research.test_research_remote import LOCAL_PAPER, TOPIC, write_config
from tests.sources.loopback import serve_fixtures
from tests.sources.replay import ReplayServer


def test_facet_questions_send_the_topic_as_a_phrase_without_cue_words() -> None:
    plan = make_plan("gradient clipping")
    sent = {remote_query(plan, q.queries, q, 1) for q in plan.sub_questions}
    assert sent == {'"gradient clipping"'}
    query = Query.parse(sent.pop())
    assert arxiv.translate(query, 10)["search_query"] == 'all:"gradient clipping"'
    assert pubmed.translate(query, 10)["term"] == '"gradient clipping"[tiab]'


def test_topic_questions_add_their_phrase_and_gap_rounds_their_words() -> None:
    plan = make_plan("thromboprophylaxis after knee replacement surgery and bleeding complications")
    topic_question = next(q for q in plan.sub_questions if q.facet == "topic")
    text = remote_query(plan, topic_question.queries, topic_question, 1)
    assert text.startswith('"knee replacement surgery"')
    assert not set(text.replace('"', " ").split()) & GENERIC
    gap = remote_query(plan, ["knee replacement rivaroxaban dosing method"], None, 2)
    assert gap == '"knee replacement surgery" rivaroxaban dosing'


def test_broadening_loosens_the_phrase_drops_the_rarest_term_then_ors_synonyms() -> None:
    rarity = {"thromboprophylaxis": 5.0, "bleeding": 1.0, "complications": 1.0}
    steps = broader('"knee surgery" thromboprophylaxis complications', lambda t: rarity.get(t, 0))
    assert steps[0] == ("knee surgery thromboprophylaxis complications", "phrase loosened to words")
    assert steps[1] == (
        "knee surgery complications",
        "dropped the rarest term 'thromboprophylaxis'",
    )
    assert steps[2] == (
        "knee surgery thromboprophylaxis adverse events",
        "'complications' OR 'adverse events'",
    )


def test_a_round_that_finds_too_little_broadens_and_logs_why() -> None:
    plan = make_plan("gradient clipping")
    sent: list[str] = []

    def search(text: str) -> tuple[list[Any], list[str]]:
        sent.append(text)
        # Only the loosened query matches anything.
        hits = [SimpleNamespace(key=f"k{i}") for i in range(4)] if '"' not in text else []
        return hits, []

    found = search_remote(plan, {q.id: q.queries for q in plan.sub_questions}, 1, search)
    assert sent == ['"gradient clipping"', "gradient clipping"]  # each query runs once
    assert all(len(records) == 4 for records in found.records.values())
    first = [e for e in found.log if e["sub_question"] == plan.sub_questions[0].id]
    assert [(e["why"], e["records"]) for e in first] == [
        ("the sub-question's topical words", 0),
        ("broadened: phrase loosened to words", 4),
    ]
    assert all(e["shared"] for e in found.log[2:])


def test_a_research_run_sends_no_cue_words_and_every_question_finds_records(
    tmp_path: Path,
) -> None:
    paper = write_paper(tmp_path / "gat.pdf", "Graph Attention for Molecules", LOCAL_PAPER)
    with Library(tmp_path / "library", embeddings=False) as library, ReplayServer() as server:
        library.ingest([paper])
        serve_fixtures(server, only=["arxiv", "openalex"])
        options = ResearchOptions(
            sources=["local", "arxiv", "openalex"],
            sources_config=str(write_config(tmp_path / "sources.yaml", server)),
        )
        desk = ResearchDesk(library)
        outcome = desk.research(TOPIC, options)
        events = [e.data for e in desk.tasks.events(outcome.task.id, "remote-query")]
        arxiv_queries = [s.query["search_query"][0] for s in server.seen("/arxiv")]
        openalex_queries = [s.query["search"][0] for s in server.seen("/openalex")]
    assert outcome.task.state == "completed"
    words = {
        w.strip('"').split(":")[-1] for q in arxiv_queries + openalex_queries for w in q.split()
    }
    assert not words & GENERIC, words & GENERIC
    assert arxiv_queries[0] == (
        'all:"graph attention networks" AND all:molecule AND all:property AND all:prediction'
    )
    questions = {e["sub_question"] for e in events}
    assert len(questions) >= 6
    for question in questions:
        assert max(e["records"] for e in events if e["sub_question"] == question) > 0
