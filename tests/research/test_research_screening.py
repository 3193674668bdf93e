"""Screening by the topic's facets (its noun phrases) against title, abstract and headings."""

from __future__ import annotations

import numpy as np
import pytest

from citewise.agent.research.model import Paper
from citewise.agent.research.reading.facets import addressed_facets
from citewise.agent.research.reading.meaning import OTHER_MODEL_DOCUMENTS, closest_documents
from citewise.agent.research.reading.vocabulary import other_names, parse_related
from citewise.agent.research.stages.plan import make_plan, topic_facets
from citewise.agent.research.stages.screening import screen_paper
from citewise.embed.static import load_static_embedder
from citewise.errors import CitewiseError
from citewise.store.rows import StoredDocument


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
    assert "addresses 1 of the topic's 4 facets" in screen.reason


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


def test_a_long_topic_needs_a_share_of_its_facets_in_the_title_or_abstract() -> None:
    plan = make_plan(
        "reading invoices, totals and merchant names from scanned receipts to build expense ledgers"
    )
    assert len(topic_facets(plan.key_phrases)) >= 4
    # One facet in the abstract, the word of another in a heading: another subject's words.
    tweets = _paper(
        "tweets",
        "Emoji use in short messages",
        "We count totals of emoji per message. Messages come from 40 countries.",
        ["1 Data", "2 Merchant accounts"],
    )
    screen = screen_paper(tweets, plan, lambda term: 1.0)
    assert not screen.eligible and "addresses 1 of the topic's" in screen.reason
    # Two facets, one of them in the abstract: on the topic.
    ledger = _paper(
        "ledger",
        "A bookkeeping assistant",
        "We read scanned receipts and their totals into a shared table.",
        ["1 Method", "2 Expense ledgers"],
    )
    assert screen_paper(ledger, plan, lambda term: 1.0).eligible
    # One facet, in the title: on the topic.
    titled = _paper("titled", "Expense ledgers for small shops", "We interview 12 owners.")
    assert screen_paper(titled, plan, lambda term: 1.0).eligible


def test_a_paper_calling_the_facet_by_another_name_addresses_it_and_says_which() -> None:
    rumours = _paper(
        "rumours",
        "Spotting rumours early on social media",
        "Rumour detection is hard. We add features from news wire.",
    )
    places = addressed_facets(rumours, ["fake news detection"])["fake news detection"]
    assert places[0] == "title (as “rumour detection”)"
    plan = make_plan("fake news detection")
    assert screen_paper(rumours, plan, lambda term: 1.0).eligible
    assert other_names("fake news detection")[:2] == [
        "misinformation detection",
        "disinformation detection",
    ]
    # a name whose words a stopword would cut ("under-resourced") never stands for another
    assert all("resourced" not in n for n in other_names("low-resource parsing"))


def test_a_one_facet_topic_named_once_in_an_abstract_is_a_mention_not_the_subject() -> None:
    plan = make_plan("sarcasm detection")
    aside = _paper(
        "hate",
        "Abusive tweets and their authors",
        "We classify abusive tweets. Applications include sarcasm detection and search.",
    )
    screen = screen_paper(aside, plan, lambda term: 1.0)
    assert not screen.eligible and "a mention, not its subject" in screen.reason
    subject = _paper("sarc", "Sarcasm detection in tweets", "We detect sarcasm in tweets.")
    assert screen_paper(subject, plan, lambda term: 1.0).strength > screen.strength


def test_related_terms_need_their_provenance_line() -> None:
    with pytest.raises(CitewiseError) as raised:
        parse_related("[words]\nfoo: bar\n[phrases]\n# from: here\na | b\n")
    assert raised.value.code == "CUES_INVALID" and "words" in str(raised.value)
    words, groups = parse_related(
        "[words]\n# from: a\nfoo: bar, baz\n[phrases]\n# from: b\nA | b c\n"
    )
    assert words == {"foo": ("bar", "baz")} and groups == [["a", "b c"]]


def _document(key: str, title: str, abstract: str = "") -> StoredDocument:
    return StoredDocument(key, key, f"/{key}.pdf", "pdf", title, [], 2020, None, abstract, 1, 1)


def test_the_documents_closest_in_meaning_to_a_facet_are_candidates() -> None:
    documents = [
        _document("a", "Bird song recordings from alpine meadows"),
        _document("b", "Leveraging sentence representations for fake news classification"),
        _document("c", "Parsing legal contracts", "We classify deceptive news articles online."),
        _document("d", "A survey of protein folding"),
    ]
    closest = closest_documents(documents, load_static_embedder(), ["fake news detection"], 2)
    assert set(closest) == {"b", "c"}
    assert closest_documents(documents, None, ["fake news detection"]) == []


class _NamedModel:
    """The shipped static model under another name (as a slower model would be), recording
    what it is asked to encode."""

    def __init__(self) -> None:
        self.model = load_static_embedder()
        self.name, self.dimensions = "another-model", self.model.dimensions
        self.texts: list[str] = []

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        self.texts += texts
        return self.model.encode(texts, batch_size)


def test_a_slower_model_compares_titles_only_and_not_past_its_bound() -> None:
    documents = [
        _document("b", "Sentence representations for fake news classification"),
        _document("c", "Parsing legal contracts", "We classify deceptive news articles online."),
    ]
    model = _NamedModel()
    assert closest_documents(documents, model, ["fake news detection"], 1) == ["b"]
    assert not any("deceptive" in t for t in model.texts)  # no abstract was encoded
    many = documents * (OTHER_MODEL_DOCUMENTS // 2 + 1)
    assert closest_documents(many, model, ["fake news detection"]) == []
