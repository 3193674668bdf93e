"""Pure functions of issue 11: names, scope, vocabulary, short spans, refusal signals."""

from __future__ import annotations

from citewise.agent.ask.question import analyse, focus_sentence
from citewise.agent.ask.refusal import NOT_ANSWERED, NOT_IN_LIBRARY, decide
from citewise.agent.ask.scope import Paper, scope_from_question, title_names, without_naming_words
from citewise.agent.ask.vocabulary import Vocabulary, abbreviations, introduced_names
from citewise.agent.sentences.acronyms import expands
from citewise.agent.sentences.draft import type_fit
from citewise.agent.sentences.spans import shortest_span
from citewise.store.sqlite.vocabulary import Term

PAPERS = [
    Paper("lo2020s2orc", "S2ORC: The Semantic Scholar Open Research Corpus", ("Kyle Lo",), 2020,
          frozenset({"S2ORC"})),
    Paper("zhang2023gentle", "A Gentle Warmup for Transformer Training", ("Wei Zhang",), 2023),
    Paper("datta2010complications", "Complications related to deep venous thrombosis "
          "prophylaxis in trauma: a systematic review", ("I Datta",), 2010),
]  # fmt: skip


def test_a_title_introduces_its_system_name() -> None:
    assert "S2ORC" in title_names("S2ORC: The Semantic Scholar Open Research Corpus")
    assert "VESPA" in title_names("VESPA: Very large-scale Evolutionary Analyses")
    assert title_names("Patient Experiences of Structured Heart Failure Programmes") == set()


def test_the_question_scopes_by_id_name_author_year_and_title_words() -> None:
    def scoped(question: str) -> list[str]:
        return [s.document for s in scope_from_question(question, PAPERS)]

    assert scoped("What learning rate schedule does zhang2023gentle use?") == ["zhang2023gentle"]
    assert scoped("How many PDFs did S2ORC keep?") == ["lo2020s2orc"]
    assert scoped("Which warmup did Zhang et al. 2023 use?") == ["zhang2023gentle"]
    assert scoped("What bleeding risk did the trauma thrombosis review find?") == [
        "datta2010complications"
    ]
    assert scoped("What is the capital of France?") == []


def test_words_that_named_the_paper_are_not_looked_for_inside_it() -> None:
    question = analyse("What bleeding risk did the trauma thrombosis review find?")
    scope = scope_from_question(question.text, PAPERS)
    narrowed = without_naming_words(question, scope)
    assert "trauma" not in narrowed.terms and "bleeding" in narrowed.terms


def test_abbreviations_are_learned_from_their_definitions() -> None:
    text = "We tune the learning rate (LR) and train convolutional neural networks (CNNs)."
    assert abbreviations(text) == [
        ("LR", "learning rate"),
        ("CNN", "convolutional neural networks"),
    ]
    assert abbreviations("the results (see Table 2) hold") == []
    assert introduced_names(["OLMo is open.", "We release OLMo.", "OLMo-7B and OLMo"]) == ["OLMo"]


def test_a_defined_abbreviation_expands_the_question_both_ways() -> None:
    vocabulary = Vocabulary([Term("d", "abbreviation", "LR", "learning rate")])
    extra, aliases = vocabulary.aliases("What learning rate was used?")
    assert "lr" in extra and frozenset({"lr"}) in aliases["learn"]
    extra, aliases = vocabulary.aliases("Which LR schedule?")
    assert {"learning", "rate"} <= set(extra)


def test_a_long_sentence_is_cut_to_the_clause_that_answers() -> None:
    question = analyse("How many PDFs were selected for processing?")
    sentence = (
        "There are around 31.3M PDFs associated with approximately 200M initial paper "
        "clusters, and 30.5M PDFs are selected for processing based on these filtering "
        "criteria, which we describe in the appendix together with the parser settings."
    )
    span = shortest_span(sentence, question)
    assert "30.5M PDFs are selected for processing" in span
    assert span in sentence and len(span.split()) < len(sentence.split())


def test_the_asking_sentence_of_a_lead_in_question_is_analysed() -> None:
    text = "S2ORC uses ScienceParse. What title F1 does the literature-graph paper report?"
    assert focus_sentence(text) == "What title F1 does the literature-graph paper report?"
    assert "scienceparse" not in analyse(text).terms


def test_answer_shapes_follow_the_question() -> None:
    assert expands("OLMo", "a competitive, truly Open Language Model")
    assert not expands("TIMP", "the tim collection of routines")
    when = analyse("When was the last serious shock recorded?")
    assert type_fit(when, "The shock of 1884 April 5 was the last.") == 1.0
    assert type_fit(when, "Shocks were felt by many residents.") == 0.0
    link = analyse("What is the web link to this paper?")
    assert type_fit(link, "http://dx.doi.org/10.1016/j.ejmhg.2015.07.002") == 1.0
    figure = analyse("What colour is the curve of the third head in Figure 2?")
    assert type_fit(figure, "The third head has the largest error.") == 0.0


def test_refusal_kinds_come_from_the_signals() -> None:
    strong = {"drafted": 1.0, "coverage": 0.9, "attribute": 1.0, "type_fit": 1.0, "about": 0.9}
    assert decide(strong) is None
    assert decide({**strong, "coverage": 0.2, "about": 0.2}) == NOT_IN_LIBRARY
    assert decide({**strong, "coverage": 0.5, "type_fit": 0.0, "about": 0.6}) == NOT_ANSWERED
    assert decide({**strong, "in_scope": 0.0}) == NOT_ANSWERED


def test_scientific_notation_is_bridged_between_question_and_paper() -> None:
    from citewise.agent.ask.vocabulary import number_aliases, scientific_numbers
    from citewise.agent.sentences.extractive import stems

    assert [(m, e) for _, m, e in scientific_numbers("2e-5, 1.5 × 10⁻⁴, 3x10^-4")] == [
        ("2", -5),
        ("1.5", -4),
        ("3", -4),
    ]
    _, aliases = number_aliases("Which runs used a learning rate of 2e-5?")
    for sentence in ("The rate was 2 × 10⁻⁵ throughout.", "We used 0.00002 for all runs."):
        words = stems(sentence)
        assert any(form <= words for form in aliases["2e"]), sentence


def test_a_question_can_point_at_a_page() -> None:
    from citewise.agent.sentences.figures import page_named

    assert page_named("what is the color of the stamp in the 6th page?") == 6
    assert page_named("the figure at the top of page 12") == 12
    assert page_named("What does Table 2 report?") is None


def test_a_span_does_not_start_at_a_relative_pronoun() -> None:
    # cut at "which", the span would not say what consists of the PDFs
    sentence = (
        "Reported values are averaged over all of the open access papers in the released "
        "corpus, which consist of 8.1M GROBID-parsed PDFs and 1.5M parsed LATEX sources, as "
        "described in the section on parsing below."
    )
    question = analyse("How many parsed LATEX sources are there?")
    span = shortest_span(sentence, question)
    assert not span.lower().startswith("which"), span
    assert "8.1M" in span and "open access papers" in span, span
