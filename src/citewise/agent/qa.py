"""Question -> analysis -> evidence -> answer -> support check -> answer or refusal."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from citewise.agent.question import Question, analyse
from citewise.llm.extractive import (
    Candidate,
    Passage,
    idf_function,
    score_candidates,
    select_answer,
)
from citewise.retrieval.hybrid import Hit, Retriever
from citewise.retrieval.terms import stem
from citewise.store.library import BlockFilter, LibraryStore, StoredBlock

REFUSAL = "The library does not contain a passage that answers this."
# Below this support, the best sentence does not cover enough of what the question asks.
SUPPORT_THRESHOLD = 0.42
# An answer that never names what was asked about ("mean age") is probably about something else.
ATTRIBUTE_MISSING_FACTOR = 0.6
ATTRIBUTE_NAMED_SHARE = 0.4
ABSENT_TERM_FACTOR = 0.5


@dataclass
class Evidence:
    id: str
    document: str
    title: str
    page: int
    bbox: list[float]
    section: str
    quote: str
    link: str


@dataclass
class AnswerSentence:
    text: str
    citations: list[str]
    support: float
    # optional, shown in JSON only when set (agent/numeric_answer.py): "cell" | "computed"
    kind: str = "quote"
    cell: dict[str, object] | None = None  # {"table", "row", "column", "value"}
    operands: list[dict[str, object]] | None = None  # each operand quoted and cited


@dataclass
class Answer:
    question: str
    refused: bool
    answer: str
    sentences: list[AnswerSentence]
    evidence: list[Evidence]
    support_score: float
    backend: str = "extractive"
    timings_ms: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """Exactly the `ask --json` schema of ARCHITECTURE.md §5 (a cell or computed
        sentence adds its `kind`, `cell` and `operands`)."""
        out = asdict(self)
        for sentence in out["sentences"]:
            if sentence["kind"] == "quote":
                del sentence["kind"], sentence["cell"], sentence["operands"]
        return out


def _link(path: str, page: int) -> str:
    return f"{Path(path).as_uri()}#page={page}"


class QuestionAnswerer:
    """Answers questions over one library with verbatim, cited sentences."""

    def __init__(self, store: LibraryStore, retriever: Retriever) -> None:
        self.store = store
        self.retriever = retriever
        self._documents: dict[str, tuple[str, str]] = {}

    def _document(self, doc_id: str) -> tuple[str, str]:
        if doc_id not in self._documents:
            doc = self.store.document(doc_id)
            self._documents[doc_id] = (doc.title, doc.path) if doc else ("", "")
        return self._documents[doc_id]

    def evidence(self, block: StoredBlock, quote: str | None = None) -> Evidence:
        title, path = self._document(block.document_id)
        return Evidence(
            id=block.id,
            document=block.document_id,
            title=title,
            page=block.page,
            bbox=[round(v, 1) for v in block.bbox],
            section=block.section_path,
            quote=quote if quote is not None else block.text,
            link=_link(path, block.page),
        )

    def ask(self, text: str, documents: tuple[str, ...] = (), k: int = 8) -> Answer:
        started = time.perf_counter()
        question = analyse(text)
        where = BlockFilter(documents=documents)
        hits = self.retriever.search(text, k=k, where=where, terms=question.terms)
        from citewise.agent.numeric_answer import answer_numeric  # imports this module

        if (numeric := answer_numeric(text, question, hits, self.store)) is not None:
            return numeric
        parts = question.parts()
        if len(parts) > 1:
            # Each part of "Who funded X, and which body approved it?" may live in another
            # passage: search for each part within the papers the whole question points at.
            papers = tuple(dict.fromkeys(h.block.document_id for h in hits[:3]))
            for part in parts:
                hits += self.retriever.search(
                    part.text,
                    k=max(3, k // 2),
                    where=BlockFilter(documents=papers),
                    terms=part.terms + question.terms,
                )
        retrieved = time.perf_counter()
        passages, blocks = self._passages(hits)
        weight = self._weights(question, passages)
        if len(parts) > 1:
            chosen: list[Candidate] = []
            support = 0.0
            for part in parts:
                best = select_answer(score_candidates(part, passages, weight), part)[:1]
                chosen += [c for c in best if all(c.text != o.text for o in chosen)]
                support += _support(best, part) / len(parts)
        else:
            chosen = select_answer(score_candidates(question, passages, weight), question)
            support = _support(chosen, question)
        answered = time.perf_counter()
        timings = {
            "retrieve": round((retrieved - started) * 1000),
            "answer": round((answered - retrieved) * 1000),
        }
        if not chosen or support < SUPPORT_THRESHOLD:
            closest = [self.evidence(h.block) for h in hits[:3]]
            return Answer(text, True, REFUSAL, [], closest, round(support, 3), timings_ms=timings)
        evidence: dict[str, Evidence] = {}
        sentences = []
        for c in chosen:
            if c.block_id in evidence:
                evidence[c.block_id].quote += " … " + c.text
            else:
                evidence[c.block_id] = self.evidence(blocks[c.block_id], c.text)
            sentences.append(AnswerSentence(c.text, [c.block_id], round(c.coverage, 3)))
        return Answer(
            question=text,
            refused=False,
            answer=" ".join(s.text for s in sentences),
            sentences=sentences,
            evidence=list(evidence.values()),
            support_score=round(support, 3),
            timings_ms=timings,
        )

    def _weights(self, question: Question, passages: list[Passage]) -> Callable[[str, str], float]:
        """In-paper IDF of each question term, for each paper the passages come from.

        A word the paper never uses cannot tell its sentences apart; unless it names what is
        asked about ("perplexity"), it is likely phrasing ("kept", "final"), so it weighs less.
        """
        docs = list(dict.fromkeys(p.document_id for p in passages))
        counts = self.store.document_term_counts(question.terms, docs)
        idf = {doc: idf_function(total, freqs) for doc, (total, freqs) in counts.items()}
        attribute = set(question.attribute)

        def weight(term: str, doc: str) -> float:
            if counts[doc][1].get(term, 0) == 0 and term not in attribute:
                return ABSENT_TERM_FACTOR * idf[doc](term)
            return idf[doc](term)

        return weight

    def _passages(self, hits: list[Hit]) -> tuple[list[Passage], dict[str, StoredBlock]]:
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
                        hit.score / best,
                        is_context,
                        captions.get((block.document_id, block.label or ""), ""),
                    )
                )
        return passages, blocks


def _support(chosen: list[Candidate], question: Question) -> float:
    """How much of what the question asks the chosen sentences cover (0..1).

    Mostly the best sentence's weighted coverage, partly the answer's joint coverage;
    discounted when the answer never names the thing asked about ("mean age").
    """
    if not chosen or not question.terms:
        return 0.0
    covered = set().union(*(c.terms for c in chosen))
    best = max(c.coverage for c in chosen)
    joint = len(covered) / len({stem(t) for t in question.terms})
    support = 0.7 * best + 0.3 * joint
    if max(c.attribute for c in chosen) < ATTRIBUTE_NAMED_SHARE:
        support *= ATTRIBUTE_MISSING_FACTOR
    return support
