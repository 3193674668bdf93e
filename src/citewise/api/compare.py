"""Library methods for comparing papers: `setup`, `compare` and `matrix` (see agent/)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Literal

from citewise.config import ModelSettings, Settings
from citewise.errors import CitewiseError
from citewise.store.sqlite.library import BlockFilter

if TYPE_CHECKING:
    from citewise.agent.actions.tool_plan import TraceStep
    from citewise.agent.actions.tools import ToolError
    from citewise.agent.comparison.aspects import Paper
    from citewise.agent.comparison.compare import Comparison
    from citewise.agent.comparison.compare_answer import ComparativeAnswer
    from citewise.agent.comparison.gazetteer import Gazetteer
    from citewise.agent.comparison.matrix import Matrix
    from citewise.agent.comparison.setup import Setup
    from citewise.agent.research.model import EvidenceItem, Report
    from citewise.llm.client import ModelClient


if TYPE_CHECKING:
    from citewise.agent.ask.qa import QuestionAnswerer
    from citewise.agent.ask.state import AskState, Candidate
    from citewise.embed.base import Embedder
    from citewise.store.protocols import Store
    from citewise.store.sqlite.library import StoredDocument

CLOSEST = 3  # passages a refused comparison shows


class Pick(Enum):
    """`CONFIGURED`: the `extract` role's model of citewise.toml, chosen by `extract_model`
    when a cell is computed; the default of every compare and matrix method, so each face
    (CLI, POST /compare and /matrix, the registry's actions behind POST /tools/<action>,
    MCP and `ask --trace`, a report's matrix, a comparative `ask`) fills the same cells."""

    CONFIGURED = "configured"


CONFIGURED = Pick.CONFIGURED


class ToolCallError(CitewiseError):
    """A registry action that failed: its code, hint and kind, for a face to answer."""

    def __init__(self, error: ToolError) -> None:
        super().__init__(error.message, error.hint, error.code)
        self.kind = error.kind


@dataclass(frozen=True)
class ToolResult:
    """A registry action's typed result, checked against its postconditions: what the MCP
    `compare`, `matrix` and `setup` tools and POST /tools/<action> answer."""

    action: str
    data: Mapping[str, object]  # the action's result model, dumped (agent/actions/tool_actions.py)

    def to_dict(self) -> dict[str, object]:
        return dict(self.data)


def __getattr__(name: str) -> Any:
    """`ASPECT_NAMES`: every preset aspect name compare, matrix and setup accept (lower
    case; aliases included); `FREE_PHRASE`: the JSON schema of a free-phrase column. Computed
    when first asked for, so opening a library (`citewise list`) does not import the aspect
    patterns."""
    if name == "FREE_PHRASE":
        from citewise.agent.actions.tool_actions import FREE_PHRASE

        return FREE_PHRASE
    if name != "ASPECT_NAMES":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from citewise.agent.comparison.aspects import ALIASES, KNOWN

    return tuple(sorted({*KNOWN, *ALIASES}))


class ComparisonMethods:
    """Mixed into `Library`: needs its `store`, `settings` and `document()`."""

    store: Store
    settings: Settings

    def document(self, doc_id: str) -> StoredDocument:  # pragma: no cover - Library's
        raise NotImplementedError

    @property
    def model_settings(self) -> ModelSettings:  # pragma: no cover - Library's
        raise NotImplementedError

    @property
    def answerer(self) -> QuestionAnswerer:  # pragma: no cover - Library's
        raise NotImplementedError

    def extract_model(
        self, llm: str | None = None, llm_url: str | None = None
    ) -> ModelClient | None:
        """The `extract` role's model (or --llm's); None when extraction is plain code."""
        from citewise.llm.base import parse_spec
        from citewise.llm.registry import role_clients

        override = parse_spec(llm, llm_url) if llm else None
        clients = role_clients("extract", self.model_settings, self.store.audit, override)
        return clients[0] if clients and clients[0].model.backend != "extractive" else None

    def _extractor(
        self, model: ModelClient | None | Literal[Pick.CONFIGURED]
    ) -> ModelClient | None:
        """The one place a compare or matrix call gets its model: `model` as given (a
        client, or None for the patterns alone), else the configured `extract` model."""
        return self.extract_model() if model is CONFIGURED else model

    def papers(self, doc_ids: list[str]) -> list[Paper]:
        from citewise.agent.comparison.aspects import load_paper

        return [load_paper(self.store, self.document(d)) for d in doc_ids]

    def gazetteer(self) -> Gazetteer:
        """Dataset and model names over the whole library (per paper, cached)."""
        from citewise.agent.comparison.matrix import cached_gazetteer

        return cached_gazetteer(self.store)

    def setup(self, doc_id: str, aspects: tuple[str, ...] | None = None) -> Setup:
        """Every setting needed to rerun the paper's experiments, each cited or not stated
        (`aspects`: SETUP_ASPECTS when None)."""
        from citewise.agent.comparison.setup import SETUP_ASPECTS, extract_setup

        (paper,) = self.papers([doc_id])
        return extract_setup(paper, self.gazetteer(), SETUP_ASPECTS if aspects is None else aspects)

    def compare(
        self,
        doc_ids: list[str],
        aspects: list[str] | None = None,
        model: ModelClient | None | Literal[Pick.CONFIGURED] = CONFIGURED,
    ) -> Comparison:
        """An aspect x paper table of cited cells and a key-differences paragraph; the
        `extract` model (see _extractor) fills only cells the patterns leave empty, verbatim."""
        from citewise.agent.comparison.compare import compare_papers

        papers = self.papers(doc_ids)
        return compare_papers(papers, self.gazetteer(), aspects, self._extractor(model))

    def matrix(
        self,
        doc_ids: list[str] | None = None,
        columns: list[str] | None = None,
        progress: Callable[[str], None] | None = None,
        model: ModelClient | None | Literal[Pick.CONFIGURED] = CONFIGURED,
    ) -> Matrix:
        """One row per paper (all papers by default); cells cached in the library, those a
        model helped fill apart (the `extract` model unless `model` says otherwise)."""
        from citewise.agent.comparison.matrix import DEFAULT_COLUMNS, build_matrix

        docs = [self.document(d) for d in doc_ids] if doc_ids else self.store.documents()
        wanted = columns or list(DEFAULT_COLUMNS)
        return build_matrix(self.store, docs, wanted, progress, self._extractor(model))

    def tool(self, action: str, params: Mapping[str, object]) -> ToolResult:
        """Run an action of the tool registry (agent/actions/tools.py: validated parameters, checked
        postconditions) and return its typed result as data; the MCP `compare`, `matrix` and
        `setup` tools and the HTTP routes of the same names answer this. A failure raises
        ToolCallError with the action's error code and recovery hint."""
        from citewise.agent.actions.tools import execute

        outcome = execute(self, action, dict(params))
        if outcome.error is not None:
            raise ToolCallError(outcome.error)
        assert outcome.result is not None
        return ToolResult(action, outcome.result)

    def report_matrix(self, report: Report, evidence: list[EvidenceItem]) -> Matrix:
        """The literature matrix of the library papers a research report cites (the default
        columns; cells cached, so a report renders it once)."""
        from citewise.agent.comparison.matrix import DEFAULT_COLUMNS, Matrix
        from citewise.report.matrix_section import report_papers

        held = {d.id for d in self.store.documents()}
        docs = [d for d in report_papers(report, evidence) if d in held]
        return self.matrix(docs) if docs else Matrix(DEFAULT_COLUMNS, (), 0, 0)

    def plan(
        self,
        question: str,
        documents: list[str] | None = None,
        llm: str | None = None,
        llm_url: str | None = None,
    ) -> list[TraceStep]:
        """The tool steps for a question (`ask --trace`): the `reason` model's (or --llm's),
        each validated and run by the registry, else the one step routed by code."""
        from citewise.agent.actions.tool_plan import route, run_plan
        from citewise.llm.base import parse_spec
        from citewise.llm.registry import role_clients

        doc_ids = tuple(self.document(d).id for d in documents or [])
        analysed, scope = self.answerer.analyse(question, doc_ids)
        library = [d.id for d in self.store.documents()]
        fallback = route(analysed, scope, library)
        override = parse_spec(llm, llm_url) if llm else None
        planners = role_clients("reason", self.model_settings, self.store.audit, override)
        model = planners[0] if planners and planners[0].model.backend != "extractive" else None
        return run_plan(self, question, fallback, model, library)

    def ask_comparison(
        self,
        question: str,
        doc_ids: tuple[str, ...] = (),
        model: ModelClient | None | Literal[Pick.CONFIGURED] = CONFIGURED,
    ) -> ComparativeAnswer | None:
        """A comparative question ("compare the optimizer settings in A and B", "... across
        all papers", "how do A and B differ in Y") answered with the compare table; None for
        any other question (agent/comparison/compare_answer.py decides)."""
        from citewise.agent.comparison.compare_questions import asks_to_compare

        if not asks_to_compare(question):
            return None  # most questions: no analysis spent here, no comparison code loaded
        from citewise.agent.ask.answer import Evidence
        from citewise.agent.comparison.compare_answer import comparative_answer, comparison_request

        started = time.perf_counter()
        analysed, scope = self.answerer.analyse(question, doc_ids)
        library = [d.id for d in self.store.documents()]
        request = comparison_request(analysed, scope, library)
        if request is None:
            return None
        comparison = self.compare(request.documents, request.aspects, model)
        answerer = self.answerer

        def evidence_of(block_id: str) -> Evidence | None:
            block = self.store.block(block_id)
            return answerer.evidence(block) if block is not None else None

        def closest() -> list[Evidence]:
            where = BlockFilter(documents=tuple(request.documents))
            query = " ".join([question, *comparison.aspects])
            hits = answerer.retriever.search(query, k=CLOSEST, where=where)
            return [answerer.evidence(h.block) for h in hits]

        answer = comparative_answer(question, comparison, evidence_of, closest)
        answer.scope = [s.to_dict() for s in scope]
        answer.timings_ms = {"compare": round((time.perf_counter() - started) * 1000)}
        return answer


class CompareTable:
    """The compare-table answer as an answer shape (agent/ask/): a comparative question
    ("compare the optimizer settings in A and B", "how do A and B differ in Y") answered
    with the compare table; registered first by the Library, so the pipeline imports no
    comparison code."""

    name = "compare_table"

    def __init__(self, library: ComparisonMethods) -> None:
        self.library = library

    def propose(self, state: AskState) -> list[Candidate]:
        from citewise.agent.ask.proposers import unsupported

        answer = self.library.ask_comparison(state.text, state.documents)
        return [] if answer is None else [unsupported(self.name, answer)]


def answerer_for(library: ComparisonMethods, embedder: Embedder | None) -> QuestionAnswerer:
    """The library's answerer: the domain packs' shapes (agent/packs/), the compare-table
    shape registered first (it needs the library's compare methods), the shapes the
    settings disable skipped."""
    from citewise.agent.ask.qa import QuestionAnswerer
    from citewise.agent.packs import register_packs
    from citewise.retrieval.hybrid import Retriever

    answerer = QuestionAnswerer(library.store, Retriever(library.store, embedder))
    register_packs(answerer.registry)
    answerer.registry.register(CompareTable(library), before=answerer.registry.proposers[0].name)
    answerer.registry.disable(library.settings.disabled_proposers)
    return answerer
