"""The `Stage` protocol and the typed records research stages take and return.

A stage reads what it needs from the task's stored outputs (`inputs`), does its work
(`run`), and names the state that follows (`following`); the runner (`pipeline.run_stage`)
commits the output's `to_dict()` with the next state in one transaction. Each output's
`to_dict()` is exactly the JSON the task store keeps (so tasks started by an older
citewise resume), and `from_dict` reads it back, ignoring keys it does not know.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Protocol, Self, TypeVar

from citewise.agent.research.context import StageContext
from citewise.agent.research.model import (
    Disagreement,
    EvidenceItem,
    Paper,
    Plan,
    Report,
    ScreeningDecision,
    from_dict,
)


class StageOutput(Protocol):
    stage: ClassVar[str]  # the name the output is stored under

    def to_dict(self) -> dict[str, Any]:
        """The JSON the task store keeps."""
        ...

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Read a stored output back (keys it does not know are ignored)."""
        ...


In = TypeVar("In")
Out = TypeVar("Out", bound=StageOutput)


class Stage(Protocol[In, Out]):
    """One step of the research state machine."""

    name: str  # the stored output's name ("plan", "search", ...)
    state: str  # the task state the stage runs in ("planning", "searching", ...)
    per_round: bool  # stored per round (False: once per task, as round 0)

    def inputs(self, ctx: StageContext) -> In:
        """What the stage works on, read from the outputs earlier stages stored."""
        ...

    def run(self, ctx: StageContext, inputs: In) -> Out:
        """The stage's work; raises TaskCancelled at a checkpoint when cancelled."""
        ...

    def following(self, ctx: StageContext, output: Out) -> tuple[str, int]:
        """The next state and round once the output is stored."""
        ...


# -- outputs (what the task store keeps per stage and round) --------------------------


@dataclass
class PlanOutput:
    stage: ClassVar[str] = "plan"
    plan: Plan

    def to_dict(self) -> dict[str, Any]:
        return {"plan": self.plan.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlanOutput:
        return cls(Plan.from_dict(data["plan"]))


@dataclass
class SearchOutput:
    """Candidate papers (best retrieval first) and the remote sources' warnings."""

    stage: ClassVar[str] = "search"
    papers: list[Paper]
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"papers": [asdict(p) for p in self.papers], "warnings": list(self.warnings)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SearchOutput:
        papers = [from_dict(Paper, p) for p in data.get("papers", [])]
        return cls(papers, [str(w) for w in data.get("warnings", [])])


@dataclass
class ScreenOutput:
    stage: ClassVar[str] = "screen"
    decisions: list[ScreeningDecision]

    def to_dict(self) -> dict[str, Any]:
        return {"decisions": [asdict(d) for d in self.decisions]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScreenOutput:
        return cls([from_dict(ScreeningDecision, d) for d in data.get("decisions", [])])


@dataclass
class ExtractOutput:
    """The papers extracted this round (their evidence is stored paper by paper)."""

    stage: ClassVar[str] = "extract"
    papers: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"papers": list(self.papers)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExtractOutput:
        return cls([str(p) for p in data.get("papers", [])])


@dataclass
class Added:
    papers: int
    evidence: int


@dataclass
class Analysis:
    """Coverage and gaps after a round, the gap-filling queries for the next, and why the
    search stops (when `stop` is set, `new_queries` is empty)."""

    stage: ClassVar[str] = "analyze"
    coverage: dict[str, dict[str, int]]  # sub-question -> {"evidence": n, "papers": n}
    covered: int
    gaps: list[str]
    new_queries: dict[str, list[str]]
    conflicts: list[Disagreement]
    added: Added
    stop: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Analysis:
        added = data.get("added") or {}
        return cls(
            data.get("coverage", {}),
            int(data.get("covered", 0)),
            list(data.get("gaps", [])),
            data.get("new_queries", {}),
            [Disagreement.from_dict(d) for d in data.get("conflicts", [])],
            Added(int(added.get("papers", 0)), int(added.get("evidence", 0))),
            str(data.get("stop", "")),
        )


@dataclass
class Draft:
    """The written report before verification, and what the prose model did."""

    stage: ClassVar[str] = "write"
    report: Report
    prose: dict[str, object] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"report": self.report.to_dict(), "prose": self.prose}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Draft:
        return cls(Report.from_dict(data["report"]), dict(data.get("prose") or {}))


@dataclass
class Verified:
    stage: ClassVar[str] = "verify"
    report: Report

    def to_dict(self) -> dict[str, Any]:
        return {"report": self.report.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verified:
        return cls(Report.from_dict(data["report"]))


def stored(ctx: StageContext, kind: type[Out], round_: int) -> Out | None:
    """The output of `kind`'s stage for `round_`, or None if it has not finished it."""
    data = ctx.output(kind.stage, round_)
    return None if data is None else kind.from_dict(data)


# -- inputs (what each stage works on) ------------------------------------------------


@dataclass
class SearchInput:
    plan: Plan
    queries: dict[str, list[str]]  # sub-question -> query variants
    round: int


@dataclass
class ScreenInput:
    plan: Plan
    found: list[Paper]  # this round's candidates not screened in an earlier round
    included_before: int  # papers earlier rounds included (room under --max-papers)


@dataclass
class ExtractInput:
    plan: Plan
    new: list[Paper]  # included this round: full extraction
    revisit: list[Paper]  # included earlier, found again: sub-question passages only
    round: int


@dataclass
class AnalyzeInput:
    plan: Plan
    round: int
    evidence: list[EvidenceItem]
    years: dict[str, int | None]  # paper key -> publication year
    asked: set[str]  # every query sent so far
    new_papers: int  # papers included this round


@dataclass
class WriteInput:
    plan: Plan
    round: int
    evidence: list[EvidenceItem]
    papers: list[Paper]  # the included papers
    decisions: list[ScreeningDecision]  # every round's screening
    analysis: Analysis | None  # the last round's


@dataclass
class VerifyInput:
    draft: Draft
    evidence: list[EvidenceItem]
    names: dict[str, list[str]]  # paper key -> words a sentence may name it by


# -- reading what earlier rounds stored -----------------------------------------------


def papers_found(ctx: StageContext, last_round: int) -> dict[str, Paper]:
    """Every paper any search round found (first sighting wins)."""
    papers: dict[str, Paper] = {}
    for r in range(1, last_round + 1):
        found = stored(ctx, SearchOutput, r)
        for paper in found.papers if found else []:
            papers.setdefault(paper.key, paper)
    return papers


def decisions_made(ctx: StageContext, last_round: int) -> list[ScreeningDecision]:
    """Every screening decision of rounds 1..last_round, in order."""
    decisions: list[ScreeningDecision] = []
    for r in range(1, last_round + 1):
        screened = stored(ctx, ScreenOutput, r)
        decisions += screened.decisions if screened else []
    return decisions


def round_queries(ctx: StageContext, plan: Plan, round_: int) -> dict[str, list[str]]:
    """The plan's queries in round 1; after that, the gap queries the last analysis chose."""
    if round_ == 1:
        return {q.id: q.queries for q in plan.sub_questions}
    analysis = stored(ctx, Analysis, round_ - 1)
    return analysis.new_queries if analysis else {}


def queries_asked(ctx: StageContext, plan: Plan, last_round: int) -> set[str]:
    return {
        q
        for r in range(1, last_round + 1)
        for qs in round_queries(ctx, plan, r).values()
        for q in qs
    }
