"""The one state an `ask` carries through its stages, and the candidates proposers add.

Understand and scope fill `question` and `scope`; retrieve fills `hits`; each proposer adds
`Candidate`s; checks, the scoring step and the refusal decision read and annotate them; the
trace (trace.py) is written from this state alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from citewise.agent.ask.answer import Answer, Evidence
    from citewise.agent.ask.question import Question
    from citewise.agent.ask.scope import Paper, ScopeChoice
    from citewise.agent.sentences.draft import Draft
    from citewise.agent.yesno.lead import YesNoLeads
    from citewise.retrieval.hybrid import Hit, Retriever
    from citewise.store.protocols import Store
    from citewise.store.sqlite.library import StoredBlock

# What a candidate is: an answer to give, or a refusal a proposer stands behind ("the paper
# has no Figure 7"), which wins like any other candidate.
KIND_ANSWER, KIND_REFUSAL = "answer", "refusal"


@dataclass
class Candidate:
    """One proposed answer: what it would say (`answer`, rendered by its proposer with its
    citations and evidence) and the features it was proposed on. A proposer never sets
    `support`: the scoring step (pick.py) does, and the pipeline rejects a candidate that
    arrives with one (or with an answer that carries a support score)."""

    proposer: str
    answer: Answer
    kind: str = KIND_ANSWER
    features: dict[str, float] = field(default_factory=dict)
    # what the proposer worked from, for the refusal decision and revisions (a draft, its
    # blocks); never shown
    basis: dict[str, Any] = field(default_factory=dict, repr=False)
    # filled by the later stages
    problems: dict[str, list[str]] = field(default_factory=dict)  # check name -> problems
    support: float | None = None

    @property
    def passed(self) -> bool:
        """Every check found nothing wrong."""
        return not any(self.problems.values())


class Answering(Protocol):
    """What proposers may use of the answerer (agent/ask/qa.py `QuestionAnswerer`)."""

    store: Store
    retriever: Retriever
    yes_no: YesNoLeads

    def evidence(self, block: StoredBlock, quote: str | None = None) -> Evidence: ...

    def papers(self) -> list[Paper]: ...

    def compare(self, question: Question, papers: list[str], k: int) -> Answer: ...

    def drafted(
        self, question: Question, hits: list[Hit], scope: tuple[str, ...]
    ) -> tuple[Draft, dict[str, StoredBlock]]: ...

    def drafted_answer(
        self, question: Question, draft: Draft, blocks: dict[str, StoredBlock]
    ) -> Answer: ...

    def absent(
        self, question: Question, labels: list[str], hits: list[Hit], kind: str
    ) -> Answer: ...

    def settle_draft(
        self,
        question: Question,
        draft: Draft,
        hits: list[Hit],
        blocks: dict[str, StoredBlock],
        answer: Answer,
        score: float,
    ) -> Answer: ...


@dataclass
class AskState:
    """One question on its way to an answer. `text` is the question as asked; proposers
    read `question` (the analysis), not the raw text."""

    text: str
    question: Question
    scope: list[ScopeChoice]
    documents: tuple[str, ...]  # --doc: a strict scope
    k: int
    lead: bool  # a "Yes"/"No" lead may be given (English, or a Chinese yes/no question)
    started: float
    answerer: Answering
    hits: list[Hit] = field(default_factory=list)
    retrieved_at: float = 0.0
    candidates: list[Candidate] = field(default_factory=list)
    # per proposer, in the order they ran: what it did ("candidates", "nothing", "disabled",
    # "skipped": not run because an earlier candidate had already won)
    ran: dict[str, str] = field(default_factory=dict)
    winner: Candidate | None = None
    # the revisions applied to the winner's answer, in order (trace.py)
    revised_by: list[str] = field(default_factory=list)
    # record every proposer's candidates even when the scoring step could stop early
    exhaustive: bool = False

    def of(self, proposer: str) -> list[Candidate]:
        return [c for c in self.candidates if c.proposer == proposer]
