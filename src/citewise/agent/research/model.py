"""The shapes research stages hand each other: plan, papers, screening, evidence, report.

Every shape turns into a JSON-ready dict and back, because each stage's output is stored in
the task's event log before the next stage starts (that is what makes a task resumable).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypeVar

STATES = (
    "planning",
    "searching",
    "screening",
    "extracting",
    "analyzing",
    "writing",
    "verifying",
    "completed",
    "failed",
    "cancelled",
)
TERMINAL_STATES = frozenset({"completed", "failed", "cancelled"})
FACETS = ("methods", "datasets", "metrics", "results", "limitations", "applications")

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T", bound="DataclassInstance")


def from_dict(cls: type[T], data: dict[str, Any]) -> T:
    """Build a dataclass from a stored dict, ignoring keys it does not know (older rows)."""
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class ResearchOptions:
    """What the user asked for; stored with the task so `resume` runs the same research."""

    sources: list[str] = field(default_factory=lambda: ["local"])
    rounds: int = 3
    max_papers: int = 12
    llm: str = "extractive"
    budget_tokens: int | None = None
    sources_config: str | None = None  # a sources.yaml overriding the shipped defaults
    fetch: bool = False  # may open-access PDFs of included records be downloaded and ingested?
    # keep included remote records' abstracts in the library (abstract-level documents)?
    save_abstracts: bool = False
    lang: str = ""  # "zh": the report's own wording in Chinese ("": Chinese for a Chinese topic)

    @property
    def remote_sources(self) -> list[str]:
        return [s for s in self.sources if s != "local"]


@dataclass
class SubQuestion:
    id: str  # "q1"
    text: str
    facet: str  # one of FACETS, or "topic" for a question about a key phrase itself
    queries: list[str]  # query variants: the phrase with synonyms and related terms
    terms: list[str]  # content terms that answer sentences should mention


@dataclass
class Plan:
    topic: str
    key_phrases: list[str]
    topic_terms: list[str]
    sub_questions: list[SubQuestion]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Plan:
        questions = [from_dict(SubQuestion, q) for q in data["sub_questions"]]
        return cls(data["topic"], data["key_phrases"], data["topic_terms"], questions)


@dataclass
class Paper:
    """A candidate source found by search: a library document or a remote record."""

    key: str  # library document ID, or the search record's key
    title: str
    abstract: str
    year: int | None
    authors: list[str]
    origin: str  # "local" or the remote sources that returned it ("arxiv,openalex")
    link: str  # file URI of the PDF, or the record's landing/PDF URL
    csl: dict[str, Any]
    hits: dict[str, list[str]] = field(default_factory=dict)  # sub-question -> block IDs
    retrieval: float = 0.0  # best fused retrieval score, 0..1 relative to the round's best
    round: int = 1
    lead: str = ""  # opening text (abstract, else first paragraphs) for screening
    pdf_url: str = ""  # an open-access PDF of a remote record, fetched when allowed
    headings: list[str] = field(default_factory=list)  # a library paper's section headings

    @property
    def local(self) -> bool:
        return self.origin == "local"


@dataclass
class ScreeningDecision:
    key: str
    title: str
    round: int
    score: float
    included: bool
    reason: str
    sub_questions: list[str] = field(default_factory=list)


@dataclass
class EvidenceItem:
    """A verbatim quote from a block (or an abstract sentence of a remote record)."""

    id: str
    sub_question: str  # "" for paper-level evidence (the background section)
    kind: str  # contribution | method | setup | result | limitation | application | passage
    paper: str  # Paper.key
    quote: str
    block_id: str | None = None
    page: int | None = None
    bbox: list[float] = field(default_factory=list)
    section: str = ""
    title: str = ""
    link: str = ""
    score: float = 0.0
    round: int = 1

    def data(self) -> dict[str, Any]:
        """The columns the evidence table has no place for."""
        keep = {"page", "bbox", "section", "title", "link", "score", "round", "paper"}
        return {k: v for k, v in asdict(self).items() if k in keep}


def evidence_id(task_id: str, sub_question: str, kind: str, source: str, quote: str) -> str:
    """Deterministic: the same quote found again for the same purpose is the same row."""
    digest = hashlib.sha1(
        "\x1f".join((task_id, sub_question, kind, source, quote)).encode()
    ).hexdigest()
    return f"ev-{digest[:10]}"


@dataclass
class Claim:
    """One report sentence and the evidence IDs that support it (attached by code)."""

    text: str
    evidence: list[str]
    support: float = 1.0
    flag: str = ""  # "" | "unverified" (kept but marked) | "note" (a stated gap, not a claim)
    # Who says it, worded in the report's language ("Lo et al. (2020) write:"): then `text` is
    # their verbatim quote, shown in quotation marks after it; "" for the report's own sentences.
    speaker: str = ""


@dataclass
class Paragraph:
    claims: list[Claim]
    lead: str = ""  # a short bold label ("Semantic Scholar:"); not a sentence


@dataclass
class Section:
    key: str  # "summary", "background", "q1", ..., "discussion", "disagreements", "open"
    title: str
    paragraphs: list[Paragraph] = field(default_factory=list)

    def claims(self) -> list[Claim]:
        return [c for p in self.paragraphs for c in p.claims]


@dataclass
class Disagreement:
    kind: str  # "numbers" | "direction"
    topic: str  # "F1 on GROBID", "effect of heparin on bleeding"
    evidence: tuple[str, str]
    values: tuple[str, str]
    reason: str  # likely reason the evidence shows, or "" when it shows none

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Disagreement:
        first, second = d["evidence"]
        value_a, value_b = d["values"]
        return cls(d["kind"], d["topic"], (first, second), (value_a, value_b), d["reason"])


@dataclass
class CoverageRow:
    """Evidence items and distinct papers a sub-question found (appendix B)."""

    id: str  # "q1"
    question: str
    evidence: int
    papers: int


@dataclass
class Report:
    topic: str
    sections: list[Section]
    references: list[dict[str, Any]]  # CSL-JSON items of cited papers, in citation order
    disagreements: list[Disagreement] = field(default_factory=list)
    verification: dict[str, Any] = field(default_factory=dict)
    screening: list[ScreeningDecision] = field(default_factory=list)
    coverage: list[CoverageRow] = field(default_factory=list)  # per sub-question, plan order
    lang: str = ""  # "zh": the report's fixed wording is Chinese

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Report:
        sections = [
            Section(
                s["key"],
                s["title"],
                [
                    Paragraph([from_dict(Claim, c) for c in p["claims"]], p.get("lead", ""))
                    for p in s["paragraphs"]
                ],
            )
            for s in data["sections"]
        ]
        disagreements = [Disagreement.from_dict(d) for d in data.get("disagreements", [])]
        screening = [from_dict(ScreeningDecision, s) for s in data.get("screening", [])]
        return cls(
            data["topic"],
            sections,
            data["references"],
            disagreements,
            data.get("verification", {}),
            screening,
            [from_dict(CoverageRow, row) for row in data.get("coverage", [])],
            data.get("lang", ""),
        )

    def claims(self) -> list[Claim]:
        return [c for s in self.sections for c in s.claims()]
