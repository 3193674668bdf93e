"""Which sentences join the best one in a drafted answer, and how far it runs: the items a
chosen sentence announces (agent/sentences/spans.py), then the scorer's next likely sentences
as far as the word budget takes.

(A paragraph's next sentence that refers back to a chosen one, "It contains ...", no longer
joins it: on QASPER it changed 12-15% of answers, gained 1 on the half it was built on and
lost 3 on the other, by taking the budget from the scorer's next sentences;
docs/benchmarks.md, "Fifth session: QASPER reader".)"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from citewise.agent.ask.question import Question
from citewise.agent.sentences.extractive import (
    MAX_SENTENCES,
    MAX_WORDS,
    SECOND_SHARE,
    Candidate,
    Passage,
)
from citewise.agent.sentences.spans import listed_items

# An answer runs to this many words: the sentence that holds the answer is often the
# scorer's second to fourth, not its first, so the further ones it rates close go along.
ANSWER_WORDS = 80
# An answer ranked by term coverage alone (a table among the best, a yes/no question) stays
# this short: coverage says less than the scorer about which further sentence answers.
COVERAGE_WORDS = 60


@dataclass
class Span:
    """One answer sentence: the candidate it comes from and the verbatim span shown."""

    candidate: Candidate
    text: str
    also: tuple[str, ...] = ()  # blocks after the candidate's that the text goes on into


def filled(
    spans: list[Span], ranked: list[Candidate], cut: Callable[[Candidate], Span]
) -> list[Span]:
    """The fitted scorer's next most likely prose sentences (`ranked`, best first), each
    `cut` to its answering clauses, while the cut answer has room: the sentences were chosen
    by their whole length, and cutting them frees words. The same rule as the first choice
    (agent/sentences/extractive.py `select_answer`): at least SECOND_SHARE of the best one's
    probability, at most MAX_SENTENCES, MAX_WORDS), and no more words than the cut freed."""
    best = spans[0].candidate if spans else None
    if best is None or not best.fitted or best.kind != "paragraph":
        return spans
    words = sum(len(s.text.split()) for s in spans)
    # only the room the cut freed: where nothing was cut, the first choice's stop stands
    freed = sum(len(s.candidate.text.split()) for s in spans) - words
    shown = {s.candidate.text for s in spans}
    kept = list(spans)
    for candidate in ranked:
        if len(kept) >= MAX_SENTENCES or candidate.score < SECOND_SHARE * best.score:
            break
        if candidate.text in shown or not candidate.fitted or candidate.kind != "paragraph":
            continue
        span = cut(candidate)
        size = len(span.text.split())
        if words + size > MAX_WORDS or size > freed:
            continue
        freed -= size
        kept.append(span)
        shown.add(candidate.text)
        words += len(span.text.split())
    return kept


def listed(
    spans: list[Span], question: Question, passages: list[Passage], document_of: dict[str, str]
) -> list[Span]:
    """Each span widened to the items it lists, then as many as the word budget takes."""
    texts = {p.block_id: p.text for p in passages}
    widened = [
        Span(s.candidate, listed_items(question.text, s.text, texts.get(s.candidate.block_id, "")))
        for s in spans
    ]
    return _within_budget(widened, document_of)


def _within_budget(spans: list[Span], document_of: dict[str, str]) -> list[Span]:
    """The first span always; more only while the answer stays within ANSWER_WORDS (or
    COVERAGE_WORDS when the fitted scorer did not rank it)."""
    budget = ANSWER_WORDS if spans and spans[0].candidate.fitted else COVERAGE_WORDS
    kept = spans[:1]
    words = len(spans[0].text.split()) if spans else 0
    for span in spans[1:]:
        if document_of.get(span.candidate.block_id) != document_of.get(kept[0].candidate.block_id):
            continue  # one answer, one paper (comparisons go through compare_questions)
        words += len(span.text.split())
        if words > budget:
            break
        kept.append(span)
    return kept
