"""The words cutting frees go to the scorer's next likely sentences (agent/sentences/joining.py
`filled`): the sentences are chosen by their whole length, then cut to their answering
clauses, and a further sentence the scorer finds likely enough joins within the words the
cut freed and the word budget."""

from __future__ import annotations

from dataclasses import replace

from citewise.agent.ask.question import analyse
from citewise.agent.sentences.draft import _cut
from citewise.agent.sentences.extractive import MAX_SENTENCES, MAX_WORDS, Candidate
from citewise.agent.sentences.joining import Span, filled

QUESTION = analyse("Which corpus did the authors train their tagger on?")

FIRST = (
    "Because annotated speech from the valley villages is scarce, the tagger was trained on "
    "the Harbour Letters corpus, which two archivists transcribed over three winters."
)
SECOND = "The Harbour Letters corpus holds 2,417 letters written by dock workers."
THIRD = "Our tagger reaches 91.2 accuracy on held-out letters."


def _fitted(text: str, score: float, kind: str = "paragraph", block: str = "b1") -> Candidate:
    return Candidate(block, text, 0.5, 0.5, score, frozenset(), fitted=True, kind=kind)


def _first_span() -> Span:
    # the chosen sentence already cut to its answering clause: words freed
    return Span(_fitted(FIRST, 0.6), "the tagger was trained on the Harbour Letters corpus")


def _no_weight(_term: str) -> float:
    return 1.0


def _filled(spans: list[Span], ranked: list[Candidate]) -> list[Span]:
    return filled(spans, ranked, lambda c: _cut(c, QUESTION, _no_weight))


def test_freed_words_take_the_next_likely_sentence() -> None:
    ranked = [_fitted(FIRST, 0.6), _fitted(SECOND, 0.3), _fitted(THIRD, 0.2)]
    spans = _filled([_first_span()], ranked)
    texts = [s.candidate.text for s in spans]
    assert texts[0] == FIRST
    # the cut freed 18 words: the second sentence (12) joins, the third (8) no longer fits
    assert SECOND in texts and THIRD not in texts
    assert sum(len(s.text.split()) for s in spans) <= MAX_WORDS


def test_a_sentence_shown_whole_frees_no_words() -> None:
    # nothing was cut, so the first choice's stop stands: a likely sentence with another
    # answer of the same kind is not appended
    ranked = [_fitted(FIRST, 0.6), _fitted(SECOND, 0.3)]
    spans = _filled([Span(_fitted(FIRST, 0.6), FIRST)], ranked)
    assert [s.candidate.text for s in spans] == [FIRST]


def test_an_unlikely_sentence_does_not_join() -> None:
    # below a tenth of the best sentence's probability: not an answer
    ranked = [_fitted(FIRST, 0.6), _fitted(SECOND, 0.05)]
    spans = _filled([_first_span()], ranked)
    assert [s.candidate.text for s in spans] == [FIRST]


def test_table_rows_captions_and_unscored_sentences_stay_out() -> None:
    ranked = [
        _fitted(FIRST, 0.6),
        _fitted("Harbour Letters | 2,417 | 1890-1910", 0.5, kind="table"),
        _fitted("Figure 2: letters per year in the Harbour corpus.", 0.5, kind="caption"),
        replace(_fitted(SECOND, 0.5), fitted=False),
    ]
    spans = _filled([_first_span()], ranked)
    assert [s.candidate.text for s in spans] == [FIRST]


def test_an_answer_not_ranked_by_the_scorer_is_left_as_it_is() -> None:
    first = Span(replace(_fitted(FIRST, 0.6), fitted=False), FIRST)
    spans = _filled([first], [_fitted(SECOND, 0.5)])
    assert spans == [first]


def test_the_budget_and_the_sentence_count_hold() -> None:
    long = " ".join(["The letters were sorted by the harbour office clerks"] * 10) + "."
    many = [_fitted(f"Letter batch {n} came from dock {n} in spring.", 0.5) for n in range(9)]
    spans = _filled([_first_span()], [_fitted(long, 0.55), *many])
    assert len(spans) <= MAX_SENTENCES
    # a sentence too long to join whole joins cut, or not at all
    assert all(len(s.text.split()) < len(long.split()) for s in spans if s.candidate.text == long)
    assert sum(len(s.text.split()) for s in spans) <= MAX_WORDS
