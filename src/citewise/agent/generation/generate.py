"""Generated answers: numbered evidence in, cited sentences out, each verified.

The flow is code; the model only writes. Retrieval and the refusal decision are the
extractive answerer's. The model sees evidence as [E1..En] and replies
`{"sentences": [{"text", "citations": ["E1"]}], "refused"}`; code maps E-numbers to block IDs
(dropping, and logging, any it did not offer), verifies every sentence against what it cites,
gives failures one repair round, then drops (or marks) what still fails. Nothing left means
a refusal; verified sentences that cover less of the question than the verbatim answer give
way to it. The result has the `Answer` shape of the extractive path.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from citewise.agent.ask.injection import is_instruction, without_instructions
from citewise.agent.ask.qa import REFUSAL, Answer, AnswerSentence, Evidence, QuestionAnswerer
from citewise.agent.ask.question import analyse
from citewise.agent.generation.drafting import (
    ANSWER_TOKENS,
    CITATION_MARKER,
    MAX_EVIDENCE,
    REPAIR_PROMPT,
    UNSUPPORTED_MARK,
    DraftAnswer,
    DraftSentence,
    NumberedEvidence,
    answer_messages,
    excerpt,
    fit_to_context,
    normalize_citation,
    question_coverage,
)
from citewise.agent.generation.verify import Verifier
from citewise.lang.zh import is_chinese
from citewise.llm.base import ContextOverflowError, Message, Params
from citewise.llm.cascade import chain
from citewise.llm.client import ModelClient
from citewise.llm.structured import Structured, structured_call
from citewise.llm.usage import UsageSummary
from citewise.store.sqlite.library import BlockFilter, StoredBlock

log = logging.getLogger(__name__)


@dataclass
class GenerationLog:
    """What happened to one question's draft: for audits and tests."""

    unknown_citations: list[str] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (sentence, reason)
    repaired: int = 0
    fell_back: bool = False
    overflows: int = 0  # server-side context overflows (each followed by a trimmed retry)
    offered: int = 0  # evidence passages in the prompt the model answered


class GeneratedAnswerer:
    """Answers with a language model, under the extractive answerer's retrieval and refusal
    decisions, keeping only verified sentences."""

    def __init__(
        self,
        answerer: QuestionAnswerer,
        writers: list[ModelClient],
        verifier: Verifier,
        max_evidence: int = MAX_EVIDENCE,
        cascade_threshold: float = 0.5,
        mark_unsupported: bool = False,
        verbatim_first: bool = False,
    ) -> None:
        self.answerer = answerer
        self.writers = writers
        self.verifier = verifier
        self.max_evidence = max_evidence
        self.cascade_threshold = cascade_threshold
        self.mark_unsupported = mark_unsupported
        # a cascade that starts with `extractive`: the verbatim answer stands unless unsure
        self.verbatim_first = verbatim_first
        self.last_log = GenerationLog()

    def ask(self, text: str, documents: tuple[str, ...] = (), k: int = 8) -> Answer:
        started = time.perf_counter()
        base = self.answerer.ask(text, documents, k)
        if self.verbatim_first and (base.refused or base.support_score >= self.cascade_threshold):
            return base
        label = self.writers[0].label
        if base.refused:
            base.backend = label
            return base
        if is_chinese(text):  # Chinese over English papers: agent/bridge/zh_write.py
            return self._write_in_chinese(text, base, documents, k)
        items = self.numbered_evidence(text, base, documents, k)
        retrieved = time.perf_counter()
        # Cascade on what the write role can measure best: verification support. Each
        # model writes alone; the next one is called only when this one's answer is weak.
        writer = self.writers[0]
        if writer.escalate is None and len(self.writers) > 1:
            writer = chain(self.writers, self.cascade_threshold)[0]
        answer = self._write(text, base, items, writer.alone())
        while writer.escalate is not None and (
            answer.refused or answer.support_score < writer.threshold
        ):
            writer = writer.escalate
            answer = self._write(text, base, items, writer.alone())
        answer.timings_ms = {
            "retrieve": round((retrieved - started) * 1000),
            "answer": round((time.perf_counter() - retrieved) * 1000),
        }
        return answer

    def numbered_evidence(
        self, text: str, base: Answer, documents: tuple[str, ...], k: int
    ) -> list[NumberedEvidence]:
        """The blocks the extractive answer chose, then the other retrieved blocks."""
        question = analyse(text)
        hits = self.answerer.retriever.search(
            text, k=k, where=BlockFilter(documents=documents), terms=question.terms
        )
        blocks: dict[str, StoredBlock] = {}
        for hit in hits:
            for block in [hit.block, *hit.context]:
                blocks.setdefault(block.id, block)
        chosen: list[Evidence] = []
        for e in base.evidence:
            found = blocks.get(e.id)
            chosen.append(stated(e, found.text, e.quote) if found else stated(e, e.quote))
        for hit in hits:
            if len(chosen) >= self.max_evidence:
                break
            if all(hit.block.id != e.id for e in chosen):
                quoted = self.answerer.evidence(hit.block, excerpt(hit.block.text))
                chosen.append(stated(quoted, hit.block.text, ""))
        # a block that is nothing but instructions to an assistant offers the model nothing
        chosen = [e for e in chosen if e.quote.strip()]
        return [NumberedEvidence(f"E{n}", e) for n, e in enumerate(chosen, start=1)]

    def write(
        self, text: str, base: Answer, items: list[NumberedEvidence], writer: ModelClient
    ) -> Answer:
        """One writer's verified answer over these numbered passages (agent/bridge/zh_write.py)."""
        return self._write(text, base, items, writer)

    def _write(
        self, text: str, base: Answer, items: list[NumberedEvidence], writer: ModelClient
    ) -> Answer:
        record = GenerationLog()
        self.last_log = record
        draft, items, messages = self._draft(text, base, items, writer, record)
        by_number = {n.number: n for n in items}
        backend = f"extractive (fallback from {writer.label})" if draft.fell_back else writer.label
        assert draft.value is not None
        # The model's "refused" is advice: retrieval already found the question answerable,
        # so whatever it wrote is verified; a refusal is what is left when nothing survives.
        if not draft.value.sentences:
            return self._refusal(text, base, backend, [])
        kept, failed = self._verify(text, draft.value.sentences, by_number, record)
        if failed:
            messages = [*messages, {"role": "assistant", "content": draft.value.model_dump_json()}]
            kept += self._repair(text, writer, messages, kept, failed, by_number, record)
        if not [s for s, _ in kept if s.support > 0]:
            return self._refusal(text, base, backend, items)
        if not quotes_planted(base, items) and question_coverage(
            text, [s.text for s, _ in kept]
        ) < question_coverage(text, [s.text for s in base.sentences]):
            # Verified but incomplete: the verbatim answer says more of what was asked.
            record.fell_back = True
            return replace(base, backend=f"extractive (fallback from {writer.label})")
        cited = list(dict.fromkeys(c for _, numbers in kept for c in numbers))
        sentences = [s for s, _ in kept]
        supports = [s.support for s in sentences if s.support > 0]
        return Answer(
            question=text,
            refused=False,
            answer=" ".join(s.text for s in sentences),
            sentences=sentences,
            evidence=[by_number[c].evidence for c in cited],
            support_score=round(sum(supports) / len(supports), 3),
            backend=backend,
        )

    def _draft(
        self,
        text: str,
        base: Answer,
        offered: list[NumberedEvidence],
        writer: ModelClient,
        record: GenerationLog,
    ) -> tuple[Structured[DraftAnswer], list[NumberedEvidence], list[Message]]:
        """The model's draft from the evidence that fits its context (the extractive
        sentences when it cannot write one), with the evidence and messages it saw."""

        items, messages = offered, []

        def fallback() -> DraftAnswer:  # cites what the trimmed evidence still numbers
            return _extractive_draft(base, items)

        for attempt in range(2):
            items = fit_to_context(text, offered, writer, ANSWER_TOKENS)
            messages = answer_messages(text, items)
            try:
                draft = structured_call(
                    writer, messages, DraftAnswer, Params(max_tokens=ANSWER_TOKENS), fallback
                )
                break
            except ContextOverflowError as exc:
                # The server's context is smaller than estimated; the backend has learnt its
                # size from the error, so the evidence is trimmed again and sent once more.
                log.info("%s: %s; trimming evidence (attempt %d)", writer.label, exc, attempt + 1)
                record.overflows += 1
                draft = Structured(fallback(), fell_back=True)
        record.fell_back = draft.fell_back
        record.offered = len(items)
        return draft, items, messages

    def _repair(
        self,
        text: str,
        writer: ModelClient,
        messages: list[Message],
        kept: list[tuple[AnswerSentence, list[str]]],
        failed: list[tuple[str, list[str], str]],
        by_number: dict[str, NumberedEvidence],
        record: GenerationLog,
    ) -> list[tuple[AnswerSentence, list[str]]]:
        """One repair round for the sentences that failed verification: the repaired ones
        that now verify, then (with mark_unsupported) what still fails, marked."""
        problems = "\n".join(
            f'- "{s}" (cites {", ".join(c) or "nothing"}): {why}' for s, c, why in failed
        )
        prompt = {"role": "user", "content": REPAIR_PROMPT.format(problems=problems)}
        try:
            repair = structured_call(
                writer, [*messages, prompt], DraftAnswer, Params(max_tokens=ANSWER_TOKENS)
            )
        except ContextOverflowError:  # the longer conversation did not fit: no repair
            repair = Structured(None, fell_back=True)
        # What stays unresolved: the originals if the repair fixed nothing, else the
        # repair's own failures (its fixed sentences stand in for the originals).
        added: list[tuple[AnswerSentence, list[str]]] = []
        unresolved = failed
        if repair.value is not None:
            fixed, still = self._verify(text, repair.value.sentences, by_number, record)
            known = {s.text for s, _ in kept}
            added = [(s, ids) for s, ids in fixed if s.text not in known]
            record.repaired = len(added)
            unresolved = still if added else failed
        for sentence, numbers, why in unresolved:
            record.dropped.append((sentence, why))
            if self.mark_unsupported:
                ids = [by_number[c].evidence.id for c in numbers if c in by_number]
                marked = AnswerSentence(sentence + UNSUPPORTED_MARK, ids, 0.0)
                added.append((marked, [c for c in numbers if c in by_number]))
        return added

    def _verify(
        self,
        question: str,
        drafts: list[DraftSentence],
        by_number: dict[str, NumberedEvidence],
        record: GenerationLog,
    ) -> tuple[list[tuple[AnswerSentence, list[str]]], list[tuple[str, list[str], str]]]:
        """(verified sentences with their E-numbers, failures with their reasons)."""
        kept: list[tuple[AnswerSentence, list[str]]] = []
        failed: list[tuple[str, list[str], str]] = []
        for draft in drafts:
            inline = [m.upper() for m in CITATION_MARKER.findall(draft.text)]
            sentence = CITATION_MARKER.sub("", draft.text).strip()
            if not sentence:
                continue
            numbers = list(dict.fromkeys(normalize_citation(c) for c in draft.citations + inline))
            unknown = [c for c in numbers if c not in by_number]
            if unknown:
                # An ID the model was never shown is a fabrication, never a citation.
                log.info("dropped citation(s) %s not in the evidence offered", unknown)
                record.unknown_citations += unknown
            numbers = [c for c in numbers if c in by_number]
            verdict = self.verifier.check(
                sentence, [by_number[c].evidence.quote for c in numbers], question
            )
            if verdict.supported:
                ids = [by_number[c].evidence.id for c in numbers]
                kept.append((AnswerSentence(sentence, ids, verdict.support), numbers))
            else:
                failed.append((sentence, numbers, verdict.reason))
        return kept, failed

    def _refusal(
        self, text: str, base: Answer, backend: str, items: list[NumberedEvidence]
    ) -> Answer:
        closest = [n.evidence for n in items[:3]] or base.evidence[:3]
        return Answer(text, True, REFUSAL, [], closest, 0.0, backend=backend)

    def _write_in_chinese(
        self, text: str, base: Answer, documents: tuple[str, ...], k: int
    ) -> Answer:
        """The generated answer to a Chinese question: the English bridge finds the evidence,
        the first `write` model answers in Chinese, the cross-lingual check verifies."""
        from citewise.agent.bridge.zh_answer import to_chinese
        from citewise.agent.bridge.zh_write import INSTRUCTION, CrossLingualVerifier

        english = base.translation or text
        items = self.numbered_evidence(english, base, documents, k)
        checked = GeneratedAnswerer(
            self.answerer,
            self.writers,
            CrossLingualVerifier(self.verifier),
            self.max_evidence,
            self.cascade_threshold,
            self.mark_unsupported,
        )
        answer = checked.write(f"{text}\n{INSTRUCTION}", base, items, self.writers[0].alone())
        self.last_log = checked.last_log
        answer.question = text
        answer.translation = english if english != text else ""
        return to_chinese(answer)


class CitationAudit:
    """Wraps an answer function for an evaluation run: counts citations that are not among
    an answer's evidence (fabrications: must stay 0) and the model calls the run made."""

    def __init__(self, ask: Callable[[str], Answer], usage: Callable[[], UsageSummary]) -> None:
        self._ask = ask
        self._usage = usage
        self._before = usage()
        self.answers: list[Answer] = []

    def ask(self, question: str) -> Answer:
        answer = self._ask(question)
        self.answers.append(answer)
        return answer

    @property
    def generated(self) -> bool:
        return any(a.backend != "extractive" for a in self.answers)

    def summary(self) -> dict[str, object]:
        after, before = self._usage(), self._before
        calls, cache_hits = after.calls - before.calls, after.cache_hits - before.cache_hits
        return {
            "backends": sorted({a.backend for a in self.answers}),
            "answers": len(self.answers),
            "answered": sum(not a.refused for a in self.answers),
            "fabricated_citations": sum(len(fabricated_citations(a)) for a in self.answers),
            "calls_logged": calls,
            "model_calls": calls - cache_hits,
            "cache_hits": cache_hits,
        }


def quotes_planted(base: Answer, items: list[NumberedEvidence]) -> bool:
    """Whether the verbatim answer quotes a planted sentence: an instruction to an
    assistant, or what follows one in its block (left out of the model's evidence)."""
    planted = [p for n in items for p in n.evidence.instructions or []]
    return any(
        is_instruction(s.text) or any(s.text in p or p in s.text for p in planted)
        for s in base.sentences
    )


def fabricated_citations(answer: Answer) -> list[str]:
    """Cited IDs that are not among the answer's evidence (code never lets one through)."""
    offered = {e.id for e in answer.evidence}
    return [c for s in answer.sentences for c in s.citations if c not in offered]


def stated(evidence: Evidence, block: str, focus: str | None = None) -> Evidence:
    """The evidence a model is shown: an excerpt of the block's sentences that state
    something (around `focus`; None: the text whole), the ones addressed to an assistant
    left out and named (agent/ask/injection.py)."""
    text, planted = without_instructions(block)
    shown = text if focus is None else excerpt(text, focus)
    return replace(evidence, quote=shown, instructions=planted or None)


def _extractive_draft(base: Answer, items: list[NumberedEvidence]) -> DraftAnswer:
    """The deterministic path: the extractive answer's sentences, citing what they quote."""
    numbers = {n.evidence.id: n.number for n in items}
    return DraftAnswer(
        sentences=[
            DraftSentence(text=s.text, citations=[numbers[c] for c in s.citations if c in numbers])
            for s in base.sentences
        ],
        refused=False,
    )
