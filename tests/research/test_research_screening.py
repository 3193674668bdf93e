"""Screening by the topic's facets (its noun phrases) against title, abstract and headings."""

from __future__ import annotations

from citewise.agent.research.facets import addressed_facets
from citewise.agent.research.gather import screen_paper
from citewise.agent.research.model import Paper
from citewise.agent.research.plan import make_plan, topic_facets


def _paper(key: str, title: str, abstract: str, headings: list[str] | None = None) -> Paper:
    return Paper(
        key, title, abstract, 2021, [], "local", "", {}, lead=abstract, headings=headings or []
    )


def test_facets_are_the_topics_noun_phrases_without_their_opening_verbs() -> None:
    plan = make_plan("parsing receipts, totals and merchant names to build expense ledgers")
    assert set(topic_facets(plan.key_phrases)) == {
        "expense ledgers",
        "receipts",
        "totals",
        "merchant names",
    }


def test_a_paper_addressing_one_facet_in_a_heading_and_another_in_its_abstract_is_included() -> (
    None
):
    plan = make_plan("extracting receipts, totals and merchant names to build expense ledgers")
    paper = _paper(
        "graph",
        "A shop graph for bookkeeping",
        "We link merchant names across shops. The graph has 2M nodes.",
        ["1 Introduction", "3 Reading receipts", "4 Results"],
    )
    screen = screen_paper(paper, plan, lambda term: 1.0)
    assert screen.eligible
    assert "heading “3 Reading receipts”" in screen.reason and "merchant names" in screen.reason


def test_an_unrelated_paper_sharing_a_word_of_the_topic_is_excluded_with_its_reason() -> None:
    plan = make_plan("extracting receipts, totals and merchant names to build expense ledgers")
    paper = _paper(
        "spectra",
        "An R package for spectroscopy",
        "Totals of photon counts are fitted with nonlinear models. The package is large.",
        ["1 Models", "2 Fitting"],
    )
    screen = screen_paper(paper, plan, lambda term: 1.0)
    assert not screen.eligible
    assert "names no other facet" in screen.reason


def test_a_facet_needs_its_words_together_not_scattered_over_the_abstract() -> None:
    paper = _paper(
        "speech",
        "Spoken commands for robots",
        "Speech datasets are small. Some users hate repeating themselves.",
    )
    assert addressed_facets(paper, ["hate speech datasets"]) == {}
    rumours = _paper("rumours", "Spotting rumours early", "Rumour detection is hard.")
    assert addressed_facets(rumours, ["sarcasm detection"]) == {}
    on_topic = _paper("sarc", "Sarcasm recognition across domains", "We study tweets.")
    assert addressed_facets(on_topic, ["sarcasm detection"]) == {"sarcasm detection": ["title"]}


def test_a_facets_modifiers_in_one_sentence_and_its_head_elsewhere_address_it() -> None:
    paper = _paper(
        "hs",
        "Deep learning for hate speech detection in tweets",
        "We classify tweets. Experiments use a benchmark dataset of 16K tweets.",
    )
    assert "hate speech datasets" in addressed_facets(paper, ["hate speech datasets"])
