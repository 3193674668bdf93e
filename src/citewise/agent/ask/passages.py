"""Retrieved hits -> the passages an answer is drafted from, and each question term's weight
within the paper a passage comes from."""

from __future__ import annotations

from collections.abc import Callable

from citewise.agent.ask.question import Question
from citewise.agent.sentences.extractive import Passage, idf_function
from citewise.retrieval.hybrid import Hit, Retriever
from citewise.store.sqlite.library import StoredBlock

ABSENT_TERM_FACTOR = 0.5
# Passages from outside the papers a question names still count, for less (soft scope).
OUTSIDE_SCOPE_FACTOR = 0.5


def term_weights(
    retriever: Retriever, question: Question, passages: list[Passage]
) -> Callable[[str, str], float]:
    """In-paper IDF of each question term, for each paper the passages come from.

    A word the paper never uses cannot tell its sentences apart; unless it names what is
    asked about ("perplexity"), it is likely phrasing ("kept", "final"), so it weighs less.
    """
    docs = list(dict.fromkeys(p.document_id for p in passages))
    counts = retriever.document_term_counts(question.terms, docs)
    idf = {doc: idf_function(total, freqs) for doc, (total, freqs) in counts.items()}
    attribute = set(question.attribute)

    def weight(term: str, doc: str) -> float:
        if doc not in counts:
            return 1.0
        if counts[doc][1].get(term, 0) == 0 and term not in attribute:
            return ABSENT_TERM_FACTOR * idf[doc](term)
        return idf[doc](term)

    return weight


def hit_passages(
    hits: list[Hit], scope: tuple[str, ...] = ()
) -> tuple[list[Passage], dict[str, StoredBlock]]:
    """Each hit's block and its context blocks once, as passages (with the caption that
    frames a table's rows), and the blocks by ID; hits outside `scope` count for less."""
    passages: list[Passage] = []
    blocks: dict[str, StoredBlock] = {}
    best = max((h.score for h in hits), default=1.0) or 1.0
    # A table's caption frames its rows ("Table 2: filters ..." above "Not English 15.2M").
    captions = {
        (b.document_id, b.label or ""): b.text
        for h in hits
        for b in [h.block, *h.context]
        if b.kind == "caption" and b.label
    }
    for hit in hits:
        strength = hit.score / best
        if scope and hit.block.document_id not in scope:
            strength *= OUTSIDE_SCOPE_FACTOR
        for block, is_context in [(hit.block, False)] + [(b, True) for b in hit.context]:
            if block.id in blocks:
                continue
            blocks[block.id] = block
            passages.append(
                Passage(
                    block.id,
                    block.document_id,
                    block.text,
                    block.kind,
                    block.label,
                    block.section_path,
                    strength,
                    is_context,
                    captions.get((block.document_id, block.label or ""), ""),
                )
            )
    return passages, blocks
