"""How far a drafted answer runs: a cut sentence keeps the clause after the one that
echoes the question, and the scorer's further sentences go along within 80 words (a
paragraph's next sentence does not join on its own) (agent/sentences/spans.py,
agent/sentences/joining.py); which sentences state a size ("how long/big is the
collection": agent/sentences/draft.py, agent/sentences/shape_terms.py)."""

from __future__ import annotations

from dataclasses import replace

from citewise.agent.ask.question import analyse
from citewise.agent.sentences.draft import type_fit
from citewise.agent.sentences.extractive import Candidate, Passage
from citewise.agent.sentences.joining import ANSWER_WORDS, COVERAGE_WORDS, Span, listed
from citewise.agent.sentences.shape_terms import shape_aliases
from citewise.agent.sentences.spans import shortest_span
from citewise.retrieval.terms import stem

LONG = (
    "To label the field recordings gathered at the nine coastal sites over two summers, "
    "we hired two trained ornithologists from the regional bird society, "
    "who listened to every segment twice with headphones, "
    "and the resulting call labels were checked against a published reference collection."
)


def test_a_cut_sentence_keeps_the_clause_after_the_one_echoing_the_question() -> None:
    question = analyse("Who labelled the field recordings?")
    span = shortest_span(LONG, question)
    assert "two trained ornithologists" in span, span
    assert span in LONG and len(span.split()) < len(LONG.split())


def test_without_the_next_clause_the_cut_stops_at_the_echo() -> None:
    # a yes/no question is settled by the clause that states its claim (agent/sentences/draft.py)
    question = analyse("Did they label the field recordings?")
    span = shortest_span(LONG, question, then_next=False)
    assert "ornithologists" not in span, span


def _candidate(text: str, block: str = "b1") -> Candidate:
    return Candidate(block, text, 1.0, 1.0, 1.0, frozenset())


PARAGRAPH = (
    "The main source of our study is the Harbour Archive. It contains 2,417 letters written "
    "by dock workers between 1890 and 1910. The archive is kept in Bristol."
)


def test_the_scorers_next_sentence_follows_not_the_paragraphs_next_one() -> None:
    # "It contains ..." opens the next sentence of the chosen one's paragraph; the answer
    # goes on with the sentence the scorer ranked next, from another passage
    passage = Passage("b1", "d1", PARAGRAPH, "paragraph", None, "Data", 1.0)
    first = "The main source of our study is the Harbour Archive."
    second = "The letters were transcribed by two volunteers from the local history society."
    question = analyse("Which archive did they study?")
    chosen = [Span(_candidate(first), first), Span(_candidate(second, "b2"), second)]
    spans = listed(chosen, question, [passage], {"b1": "d1", "b2": "d1"})
    assert [s.text for s in spans] == [first, second]


def test_further_sentences_go_along_within_the_word_budget_of_one_paper() -> None:
    ten = "one two three four five six seven eight nine ten."

    def spans(fitted: bool) -> list[Span]:
        made = [replace(_candidate(f"S{i} {ten}", f"b{i}"), fitted=fitted) for i in range(12)]
        return [Span(c, c.text) for c in made]

    papers = {f"b{i}": "d1" for i in range(12)} | {"b1": "d2"}
    question = analyse("What did they find?")
    kept = listed(spans(True), question, [], papers)
    assert sum(len(s.text.split()) for s in kept) <= ANSWER_WORDS
    assert len(kept) == ANSWER_WORDS // 11  # 11 words a sentence
    assert all(papers[s.candidate.block_id] == "d1" for s in kept)  # one answer, one paper
    # ranked by term coverage alone (no fitted scorer): the shorter budget
    assert len(listed(spans(False), question, [], papers)) == COVERAGE_WORDS // 11


def test_how_long_a_collection_is_asks_for_its_size_not_a_duration() -> None:
    size = analyse("How long is the letter collection?")
    assert type_fit(size, "The collection holds 2,417 letters from the docks.") == 1.0
    duration = analyse("How long did the transcription take?")
    assert type_fit(duration, "The collection holds 2,417 letters from the docks.") == 0.0
    assert type_fit(duration, "The transcription took three months.") == 1.0


def test_a_stated_size_covers_a_question_asking_how_big_a_collection_is() -> None:
    aliases = shape_aliases(analyse("How big is their letter collection?"))
    assert frozenset({stem("contains")}) in aliases[stem("big")]
    assert frozenset({stem("total")}) in aliases[stem("big")]
    assert stem("collection") not in aliases  # only the size word is bridged
    assert shape_aliases(analyse("Which letters mention night shifts?")) == {}
