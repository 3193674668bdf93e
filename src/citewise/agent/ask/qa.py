"""Question -> understand -> scope -> retrieve -> propose -> check -> score -> answer or
refuse, over one state (agent/ask/).

`ask` reads as its stages: analyse the question and scope it to the papers it names,
retrieve, let every registered answer shape propose candidates (agent/ask/proposers.py),
check each (agent/ask/checks.py), score them and choose one (agent/ask/pick.py),
settle it (a drafted answer is refused or answered from its signals, agent/ask/refusal.py), then
let the revisers restate it (a "Yes"/"No" lead, a figure's caption for a refusal).
"""

from __future__ import annotations

import time
from dataclasses import replace

from citewise.agent.ask.answer import Answer, AnswerSentence, Evidence
from citewise.agent.ask.evidence import Citations
from citewise.agent.ask.passages import hit_passages, term_weights
from citewise.agent.ask.pick import draft_support
from citewise.agent.ask.proposers import builtin_registry
from citewise.agent.ask.question import Question, analyse, focus_sentence
from citewise.agent.ask.refusal import (
    DEFAULT_POLICY,
    NOT_ANSWERED,
    NOT_IN_LIBRARY,
    REFUSALS,
    RefusalPolicy,
    answered_share,
    decide,
)
from citewise.agent.ask.run import run
from citewise.agent.ask.scope import (
    Paper,
    ScopeChoice,
    scope_from_question,
    title_names,
    without_naming_words,
)
from citewise.agent.ask.state import AskState
from citewise.agent.ask.trace import trace_of
from citewise.agent.ask.vocabulary import Vocabulary, number_aliases
from citewise.agent.bridge.zh_answer import (
    asks_yes_no,
    bridge_question,
    in_language,
    native_question,
)
from citewise.agent.comparison.compare_questions import (
    PaperAnswer,
    grouped_text,
    per_paper_question,
)
from citewise.agent.sentences.draft import Draft, draft_answer, shape_aliases, shape_terms
from citewise.agent.sentences.extractive import is_running_head
from citewise.agent.sentences.figures import (
    drawn_only,
    named_sections,
    outside_sections,
    table_without_names,
)
from citewise.agent.yesno.lead import YesNoLeads
from citewise.lang.script import is_chinese
from citewise.retrieval.hybrid import Hit, Retriever
from citewise.retrieval.terms import word_count
from citewise.store.protocols import Store
from citewise.store.sqlite.library import BlockFilter, StoredBlock


def _running_head(text: str) -> bool:
    """A block that is only a running head (a few capitalised words, a page number)."""
    return is_running_head(text.strip(), word_count(text))


__all__ = ["REFUSAL", "Answer", "AnswerSentence", "Evidence", "QuestionAnswerer"]

# The generic refusal sentence (kinds have their own, agent/ask/refusal.py).
REFUSAL = "The library does not contain a passage that answers this."
# Within papers the asker named (--doc, `ask(..., documents)`), retrieval reads this many
# times k passages: on QASPER odd, 12 of the 38 questions whose accepted answer no candidate
# sentence held had it in the paper's 9th-16th best block (docs/benchmarks.md).
NAMED_PAPER_DEPTH = 2


class QuestionAnswerer:
    """Answers questions over one library with verbatim, cited sentences."""

    def __init__(
        self,
        store: Store,
        retriever: Retriever,
        policy: RefusalPolicy = DEFAULT_POLICY,
        disabled: tuple[str, ...] = (),
    ) -> None:
        self.store = store
        self.retriever = retriever
        self.policy = policy
        self.citations = Citations(store)
        self._papers: list[Paper] | None = None
        self._vocabulary: Vocabulary | None = None
        self.yes_no = YesNoLeads(store, retriever)
        # the answer shapes, in order (agent/ask/proposers.py); `disabled` are skipped; a
        # domain pack registers its own (agent/packs/ `register_packs`, from api/)
        self.registry = builtin_registry(disabled)

    def evidence(self, block: StoredBlock, quote: str | None = None) -> Evidence:
        return self.citations.evidence(block, quote)

    def vocabulary(self) -> Vocabulary:
        """The library's learned abbreviations and names (learned now if missing)."""
        if self._vocabulary is None:
            self._vocabulary = Vocabulary.of(self.store)
        return self._vocabulary

    def forget(self) -> None:
        """Drop what was read about the library's documents (after an ingest)."""
        self._papers, self._vocabulary = None, None
        for hook in self.registry.scopes:
            hook.forget()
        self.citations.forget()
        self.yes_no.forget()

    def papers(self) -> list[Paper]:
        """The library's papers as a question can name them (read once per answerer)."""
        if self._papers is None:
            names = self.vocabulary().names_by_document()
            self._papers = [
                Paper(
                    d.id,
                    d.title,
                    tuple(d.authors),
                    d.year,
                    frozenset(title_names(d.title) | names.get(d.id, set())),
                )
                for d in self.store.documents()
            ]
        return self._papers

    def _names(self, documents: set[str]) -> set[str]:
        """The names the papers' titles call them by ("S2ORC"), lower case."""
        return {n.lower() for p in self.papers() if p.id in documents for n in title_names(p.title)}

    def scope(self, question: Question, documents: tuple[str, ...]) -> list[ScopeChoice]:
        """Explicit --doc wins; else the first registered scope hook that names documents
        (a pack's: the filing of the company the question names), else the papers it names
        (both soft)."""
        if documents:
            return [ScopeChoice(d, self.citations.document(d).title, "--doc") for d in documents]
        for hook in self.registry.scopes:
            if self.registry.enabled(hook.name) and (found := hook.scope(question, self.store)):
                return found
        return scope_from_question(focus_sentence(question.text), self.papers())

    def analyse(
        self, text: str, documents: tuple[str, ...] = ()
    ) -> tuple[Question, list[ScopeChoice]]:
        """The shared question analysis: type, terms, labels, the papers it is scoped to,
        and the library's vocabulary for it (abbreviations, number forms, link shapes).
        A Chinese question is analysed as its English bridge (agent/bridge/crosslingual.py)."""
        bridged = bridge_question(text, self.retriever)
        text = bridged.english if bridged and not bridged.native else text
        plain = analyse(bridged.english if bridged else text)
        if bridged and bridged.native:
            plain = native_question(plain, bridged)
        chosen_scope = self.scope(plain, documents)
        expansion, aliases = self.vocabulary().aliases(text)
        expansion += bridged.expansion if bridged else []
        for term, forms in (bridged.aliases if bridged else {}).items():
            aliases.setdefault(term, []).extend(forms)
        numbers, number_forms = number_aliases(text)
        for extra in (shape_aliases(plain), number_forms):
            for term, forms in extra.items():
                aliases.setdefault(term, []).extend(forms)
        question = replace(
            without_naming_words(plain, chosen_scope),
            scope=tuple(s.document for s in chosen_scope),
            expansion=expansion + numbers + shape_terms(plain),
            aliases=aliases,
        )
        return question, chosen_scope

    def ask(
        self, text: str, documents: tuple[str, ...] = (), k: int = 8, trace: bool = False
    ) -> Answer:
        """understand -> scope -> retrieve -> propose -> check -> score -> answer or refuse,
        then the revisers (agent/ask/); with `trace`, every proposer runs and the
        answer carries what each proposed (`Answer.pipeline`)."""
        started = time.perf_counter()
        question, chosen_scope = self.analyse(text, documents)
        lead = not is_chinese(text) or asks_yes_no(text, self.retriever)
        state = AskState(text, question, chosen_scope, documents, k, lead, started, self)
        state.exhaustive = trace
        answer = self._answer(state)
        answer.scope = [s.to_dict() for s in chosen_scope]
        answer = in_language(answer, text, question.text)
        if trace:
            answer.pipeline = trace_of(state, self.registry)
        return answer

    def _answer(self, state: AskState) -> Answer:
        """Retrieve, then the pipeline's stages (agent/ask/run.py)."""
        state.hits = self.retrieve(state.question, state.k, strict=bool(state.documents))
        state.retrieved_at = time.perf_counter()
        return run(state, self.registry, self.policy)

    def retrieve(self, question: Question, k: int, strict: bool = False) -> list[Hit]:
        """Hits for the question (and each part of a two-part one), within its scope; a
        scope the question implies (not --doc) also lets in the library's best few."""
        where = BlockFilter(documents=question.scope)
        terms = question.terms + question.expansion
        if strict and question.scope:
            # the papers were named (--doc): every hit is from them, so read them deeper
            k = NAMED_PAPER_DEPTH * k
        hits = self._search(question.text, k, where, terms)
        if question.scope and not strict:
            hits += self.retriever.search(question.text, k=max(2, k // 4), terms=terms)
        parts = question.parts()
        if len(parts) > 1:
            # Each part of "Who funded X, and which body approved it?" may live in another
            # passage: search for each part within the papers the whole question points at.
            papers = question.scope or tuple(dict.fromkeys(h.block.document_id for h in hits[:3]))
            for part in parts:
                hits += self.retriever.search(
                    part.text,
                    k=max(3, k // 2),
                    where=BlockFilter(documents=papers),
                    terms=part.terms + question.terms,
                )
        return hits

    def _search(self, text: str, k: int, where: BlockFilter, terms: list[str]) -> list[Hit]:
        """The best k hits that state something: a running head ("166 BRECCIA-GASHES.",
        printed on every page) matches any question naming the paper's title words and
        crowds out the passages; those are dropped and as many more fetched."""
        hits = self.retriever.search(text, k=k, where=where, terms=terms)
        heads = sum(1 for h in hits if _running_head(h.block.text))
        if not heads:
            return hits
        more = self.retriever.search(text, k=k + 2 * heads, where=where, terms=terms)
        return [h for h in more if not _running_head(h.block.text)][:k]

    def compare(self, question: Question, papers: list[str], k: int) -> Answer:
        """Each paper answers within itself; a refused draft says "not stated"."""
        parts: list[PaperAnswer] = []
        evidence: dict[str, Evidence] = {}
        for doc in papers:
            one = per_paper_question(question, doc)
            answer = self._finish(one, *self._draft(one, k, strict=True))
            parts.append(PaperAnswer(doc, [] if answer.refused else answer.sentences,
                                     answer.support_score))  # fmt: skip
            if not answer.refused:
                evidence.update((e.id, e) for e in answer.evidence)
        stated = [p for p in parts if p.sentences]
        support = max((p.support for p in stated), default=0.0)
        return Answer(
            question.text,
            not stated,
            grouped_text(parts) if stated else REFUSALS[NOT_ANSWERED],
            [s for p in stated for s in p.sentences],
            list(evidence.values()),
            round(support, 3),
            refusal_kind=None if stated else NOT_ANSWERED,
        )

    def _draft(
        self, question: Question, k: int, strict: bool
    ) -> tuple[Draft, list[Hit], dict[str, StoredBlock]]:
        hits = self.retrieve(question, k, strict=strict)
        draft, blocks = self.drafted(question, hits, () if strict else question.scope)
        return draft, hits, blocks

    def drafted(
        self, question: Question, hits: list[Hit], scope: tuple[str, ...]
    ) -> tuple[Draft, dict[str, StoredBlock]]:
        """The draft answer from the hits' passages (those outside `scope` count for less)."""
        passages, blocks = hit_passages(hits, scope)
        draft = draft_answer(
            question,
            passages,
            term_weights(self.retriever, question, passages),
            {b.id: b.document_id for b in blocks.values()},
            self.retriever.similarities,
        )
        return draft, blocks

    def absent(
        self, question: Question, labels: list[str], hits: list[Hit], kind: str = NOT_IN_LIBRARY
    ) -> Answer:
        """Refuse a question about a table, figure or name its paper does not have (no
        labels: refused with the closest passages)."""
        signals = {"drafted": 0.0, "about": 0.0, "label_missing": 1.0}
        return Answer(
            question.text,
            True,
            f"{REFUSALS[kind]} (no {', '.join(labels)} in the paper)" if labels else REFUSALS[kind],
            [],
            [self.evidence(h.block) for h in hits[:3]],
            0.0,
            refusal_kind=kind,
            signals=signals,
        )

    def _refusal_kind(
        self, question: Question, draft: Draft, drafted: list[StoredBlock], score: float
    ) -> str | None:
        """The refusal kind the signals decide, or one the drafted blocks call for."""
        kind = decide(draft.signals, self.policy)
        if kind is None and drawn_only(question, drafted, answered_share(draft.signals)):
            kind = NOT_ANSWERED  # refused below, citing the figure's caption when it has one
        # "in the Appendix" answered from the main text: the sentence the answer rests on
        # (the first; further ones that join it are context) lies outside the named section
        if kind is None and outside_sections(drafted[:1], named_sections(question, self.store)):
            kind = NOT_ANSWERED
        own = self._names({b.document_id for b in drafted})
        if kind is None and table_without_names(question, drafted, self.store, own):
            kind = NOT_ANSWERED  # a table about HOVER for a question about FEVER
        return kind

    def _finish(
        self, question: Question, draft: Draft, hits: list[Hit], blocks: dict[str, StoredBlock]
    ) -> Answer:
        """A draft settled into an answer or a refusal (a comparison's per-paper answers)."""
        score = draft_support(draft.signals, len(draft.spans), self.policy)
        answer = self.drafted_answer(question, draft, blocks)
        return self.settle_draft(question, draft, hits, blocks, answer, score)

    def drafted_answer(
        self, question: Question, draft: Draft, blocks: dict[str, StoredBlock]
    ) -> Answer:
        """What the draft says, cited, with no support yet (the scoring step gives it)."""
        sentences = [
            AnswerSentence(s.text, [s.candidate.block_id, *s.also], round(s.candidate.coverage, 3))
            for s in draft.spans
        ]
        evidence: dict[str, Evidence] = {}
        for span in draft.spans:
            # the whole passage stays in the evidence, as context for the short answer
            for block_id in (span.candidate.block_id, *span.also):
                evidence.setdefault(block_id, self.evidence(blocks[block_id]))
        return Answer(
            question=question.text,
            refused=False,
            answer=" ".join(s.text for s in sentences),
            sentences=sentences,
            evidence=list(evidence.values()),
            support_score=0.0,
            signals=draft.signals,
        )

    def settle_draft(
        self,
        question: Question,
        draft: Draft,
        hits: list[Hit],
        blocks: dict[str, StoredBlock],
        answer: Answer,
        score: float,
    ) -> Answer:
        """The drafted answer with its support, or refused with the kind its signals and
        drafted blocks call for, showing the passages considered."""
        drafted_blocks = [blocks[s.candidate.block_id] for s in draft.spans]
        kind = self._refusal_kind(question, draft, drafted_blocks, score)
        if kind is None:
            answer.support_score = score
            return answer
        # each passage once, however many of its sentences were drafted or retrieved
        drafted = dict.fromkeys(s.candidate.block_id for s in draft.spans)
        considered = [self.evidence(blocks[b]) for b in drafted]  # what the draft rested on
        for hit in hits:
            if len(considered) >= len(drafted) + 3:
                break
            if hit.block.kind == "heading" or any(hit.block.id == o.id for o in considered):
                continue
            shown = self.evidence(hit.block)
            if _states(shown):
                considered.append(shown)
        return Answer(
            question.text,
            True,
            REFUSALS[kind],
            [],
            considered[:4],
            score,
            refusal_kind=kind,
            signals=draft.signals,
            withheld=answer.sentences,
        )


def _states(shown: Evidence) -> bool:
    """Whether a passage states something: a section heading or the paper's own title says
    what a text is about, not what it states, so a refusal does not show it as considered."""
    quote = shown.quote.strip()
    return bool(quote) and quote != shown.title.strip() and quote != shown.section.strip()
