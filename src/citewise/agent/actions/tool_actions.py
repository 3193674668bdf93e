"""The typed actions of the tool registry: parameters, results, what each may fail with.

Each action is a pydantic parameter model, a pydantic result model and a function; the
registry (agent/actions/tools.py) validates parameters, runs the function, checks the result's
postconditions and turns every failure into an error code with a recovery hint.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator

from citewise.agent.comparison.aspect_readers.phrases.columns import FREE_PHRASE_PATTERN
from citewise.agent.comparison.aspects import ALIASES, KNOWN
from citewise.agent.comparison.compare import Comparison
from citewise.agent.comparison.matrix import Matrix
from citewise.agent.comparison.setup import Setup
from citewise.agent.generation.verify import Verifier
from citewise.documents.math.formulas import lookup_equation
from citewise.documents.structure import equations, find_table, tables, to_csv_rows
from citewise.errors import CitewiseError, Kind
from citewise.retrieval.hybrid import Hit
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredBlock, StoredDocument


class LibraryLike(Protocol):
    """What the actions need of citewise.api.Library."""

    store: Store

    def document(self, doc_id: str) -> StoredDocument: ...
    def search(self, query: str, k: int = 8, documents: list[str] | None = None) -> list[Hit]: ...
    def compare(self, doc_ids: list[str], aspects: list[str] | None = None) -> Comparison: ...
    def setup(self, doc_id: str) -> Setup: ...
    def matrix(
        self, doc_ids: list[str] | None = None, columns: list[str] | None = None
    ) -> Matrix: ...


class ToolFailure(CitewiseError):
    """An action's precondition or outcome the caller can act on (code + hint)."""


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NothingStated(ToolFailure):
    """No paper states any of the aspects asked for: nothing to show, like a refusal."""

    code = "ASPECT_EMPTY"
    kind: Kind = "not_found"


# The aspect names a caller may send (documented in the schemas): a preset or alias, or a
# free phrase of one to six words answered per paper
# (agent/comparison/aspect_readers/phrases/columns.py); a single word a typo away from a
# preset is UNKNOWN_ASPECT naming it, with the list (agent/comparison/aspects.py).
_NAMES: list[JsonValue] = [*sorted({*KNOWN, *ALIASES})]
# one pattern for both (a schema reader that merges an anyOf of two string schemas loses one)
FREE_PHRASE: dict[str, JsonValue] = {
    "type": "string",
    "pattern": "^(?:" + "|".join(str(n) for n in _NAMES) + ")$|" + FREE_PHRASE_PATTERN,
    "description": "a preset aspect (see examples) or any phrase of one to six words, asked of "
    "each paper like 'What is the <phrase>?' (e.g. 'study design', 'loss function')",
    "examples": _NAMES,
}
ASPECT_NAMES: dict[str, JsonValue] = {"items": FREE_PHRASE}


def _no_blank(names: list[str]) -> list[str]:
    """A blank name is no aspect (an empty list asks for the defaults)."""
    if any(not n.strip() for n in names):
        raise ValueError("an aspect name is blank: name each aspect, or send none for the defaults")
    return names


class Citation(BaseModel):
    """A verbatim quote with its address."""

    document: str
    page: int
    block: str
    quote: str


# --- search_library -----------------------------------------------------------------


class SearchLibraryParams(Params):
    query: str = Field(min_length=1, description="What to look for.")
    k: int = Field(8, ge=1, le=50)
    documents: list[str] = Field(default_factory=list, description="Restrict to these IDs.")
    page: int | None = Field(None, ge=1, description="Restrict to one page (needs documents).")


class SearchLibraryResult(BaseModel):
    hits: list[Citation]


def search_library(lib: LibraryLike, p: SearchLibraryParams) -> SearchLibraryResult:
    docs = [lib.document(d) for d in p.documents]
    if p.page is not None:
        if len(docs) != 1:
            raise ToolFailure(
                "a page needs exactly one document",
                code="INVALID_PARAMS",
                hint="pass documents=[ID] with page",
            )
        if p.page > docs[0].pages:
            raise ToolFailure(
                f"page {p.page} is beyond {docs[0].id}'s {docs[0].pages} pages",
                code="PAGE_OUT_OF_RANGE",
                hint=f"pages run from 1 to {docs[0].pages}",
            )
    hits = lib.search(p.query, p.k if p.page is None else 50, [d.id for d in docs] or None)
    if p.page is not None:
        hits = [h for h in hits if h.block.page == p.page][: p.k]
    return SearchLibraryResult(hits=[_citation(h.block) for h in hits])


def _citation(block: StoredBlock) -> Citation:
    return Citation(document=block.document_id, page=block.page, block=block.id, quote=block.text)


# --- compare_methods / extract_setup ------------------------------------------------


class CompareMethodsParams(Params):
    documents: list[str] = Field(min_length=2, description="Two or more document IDs.")
    aspects: list[str] = Field(
        default_factory=list,
        description="Default: task, method, datasets, metrics, main result, limitations; "
        "or other presets, or any phrase of one to six words ('study design').",
        json_schema_extra=ASPECT_NAMES,
    )
    _named = field_validator("aspects")(lambda names: _no_blank(names))


class Cell(BaseModel):
    aspect: str
    document: str
    value: str
    stated: bool
    citation: Citation | None


class Difference(BaseModel):
    """A key-differences sentence and the cells (block IDs) it cites."""

    text: str
    citations: list[str]


class ComparedPaper(BaseModel):
    id: str
    title: str


class ComparisonCell(Cell):
    """A compared cell: its citation, and the same page, quote and block flat."""

    page: int | None
    quote: str | None
    block: str | None


class CompareMethodsResult(BaseModel):
    """The comparison's own JSON (`Comparison.to_dict`: `citewise compare --json`, POST
    /compare), validated: every face prints one shape for the same comparison."""

    documents: list[ComparedPaper]
    aspects: list[str]
    cells: list[ComparisonCell]
    key_differences: str
    differences: list[Difference] = Field(default_factory=list)


def compare_methods(lib: LibraryLike, p: CompareMethodsParams) -> CompareMethodsResult:
    comparison = lib.compare(p.documents, p.aspects or None)
    if not any(c.stated for c in comparison.cells):
        raise NothingStated(
            "none of the papers states " + ", ".join(comparison.aspects),
            hint="ask for other aspects, or run extract_setup on one paper to see what it states",
        )
    return CompareMethodsResult.model_validate(comparison.to_dict())


# --- build_matrix -------------------------------------------------------------------


class BuildMatrixParams(Params):
    documents: list[str] = Field(default_factory=list, description="Default: every paper.")
    columns: list[str] = Field(
        default_factory=list,
        description="Default: task, method, datasets, metrics, main result, limitations; or "
        "other presets, or any phrase of one to six words ('loss function').",
        json_schema_extra=ASPECT_NAMES,
    )
    _named = field_validator("columns")(lambda names: _no_blank(names))


class MatrixRow(BaseModel):
    document: str
    title: str
    year: int | None
    path: str
    cells: dict[str, ComparisonCell]  # column -> its cell, in the columns' order


class BuildMatrixResult(BaseModel):
    """The matrix's own JSON (`Matrix.to_dict`: POST /matrix, `matrix --out FILE.json`),
    validated: every face answers one shape for the same matrix."""

    columns: list[str]
    rows: list[MatrixRow]
    fill_rate: float
    computed: int  # cells computed by this call
    cached: int  # cells read from the library's cache


def build_matrix(lib: LibraryLike, p: BuildMatrixParams) -> BuildMatrixResult:
    """The literature matrix: one row per paper, one cited cell per column (cached)."""
    matrix = lib.matrix([lib.document(d).id for d in p.documents] or None, p.columns or None)
    return BuildMatrixResult.model_validate(matrix.to_dict())


class ExtractSetupParams(Params):
    document: str = Field(min_length=1)


class SetupValue(BaseModel):
    aspect: str
    value: str
    citation: Citation


class ExtractSetupResult(BaseModel):
    document: str
    values: list[SetupValue]
    not_stated: list[str]


def extract_setup(lib: LibraryLike, p: ExtractSetupParams) -> ExtractSetupResult:
    setup = lib.setup(lib.document(p.document).id)
    values = [
        SetupValue(
            aspect=i.aspect,
            value=f.value,
            citation=Citation(
                document=setup.document, page=f.page, block=f.block_id, quote=f.quote
            ),
        )
        for i in setup.items
        for f in i.findings
    ]
    if not values:
        raise NothingStated(
            f"{setup.document} states no experiment setting",
            hint="the paper may not report experiments; try search_library",
        )
    missing = [i.aspect for i in setup.items if not i.stated]
    return ExtractSetupResult(document=setup.document, values=values, not_stated=missing)


# --- lookup_table / extract_formula -------------------------------------------------


class LookupTableParams(Params):
    document: str = Field(min_length=1)
    label: str = Field(min_length=1, description="'Table 2' or 2.")


class LookupTableResult(BaseModel):
    document: str
    label: str
    page: int
    caption: str
    rows: list[list[str]]
    block: str


def lookup_table(lib: LibraryLike, p: LookupTableParams) -> LookupTableResult:
    doc = lib.document(p.document)
    found = tables(lib.store.blocks_with_data(doc.id, ("table",)))
    hit = find_table(found, p.label)
    if hit is None:
        known = ", ".join(dict.fromkeys(t.label for t in found if t.label)) or "none"
        raise ToolFailure(
            f"no table '{p.label}' in {doc.id}",
            code="TABLE_NOT_FOUND",
            hint=f"labelled tables: {known}",
        )
    block = next(b for b in lib.store.blocks(doc.id) if b.ordinal == hit.block)
    return LookupTableResult(
        document=doc.id,
        label=hit.label or p.label,
        page=hit.page,
        caption=hit.caption,
        rows=to_csv_rows(hit),
        block=block.id,
    )


class ExtractFormulaParams(Params):
    document: str = Field(min_length=1)
    number: str = Field(min_length=1, description="3, 3.2, A.1, eq3.2 or 'Eq. (3.2)'.")


class ExtractFormulaResult(BaseModel):
    document: str
    number: str
    page: int
    text: str
    block: str


def extract_formula(lib: LibraryLike, p: ExtractFormulaParams) -> ExtractFormulaResult:
    doc = lib.document(p.document)
    hit = lookup_equation(
        equations(lib.store.blocks_with_data(doc.id, ("equation",))), p.number, doc.id
    )
    block = next(b for b in lib.store.blocks(doc.id) if b.ordinal == hit.block)
    return ExtractFormulaResult(
        document=doc.id, number=hit.number or p.number, page=hit.page, text=hit.text, block=block.id
    )


# --- validate_conclusion ------------------------------------------------------------


class ValidateConclusionParams(Params):
    conclusion: str = Field(min_length=3, description="A claim to check against the library.")
    documents: list[str] = Field(default_factory=list, description="Restrict to these IDs.")
    k: int = Field(5, ge=1, le=20, description="Passages to check it against.")


class ValidateConclusionResult(BaseModel):
    supported: bool
    support: float
    reason: str
    evidence: list[Citation]  # the passage that supports it best (empty when none does)


def validate_conclusion(lib: LibraryLike, p: ValidateConclusionParams) -> ValidateConclusionResult:
    """Is the claim said by a passage of the library? Numbers must appear in the passage,
    its content words must be covered (agent/generation/verify.py, without a model)."""
    docs = [lib.document(d).id for d in p.documents]
    hits = lib.search(p.conclusion, p.k, docs or None)
    if not hits:
        raise ToolFailure(
            "no passage of the library matches the conclusion",
            code="NO_EVIDENCE",
            hint="search_library with other words",
        )
    verifier = Verifier()
    verdicts = [(verifier.check(p.conclusion, [h.block.text]), h) for h in hits]
    verdict, best = max(verdicts, key=lambda vh: (vh[0].supported, vh[0].support))
    return ValidateConclusionResult(
        supported=verdict.supported,
        support=verdict.support,
        reason=verdict.reason,
        evidence=[_citation(best.block)] if verdict.supported else [],
    )


Action = Callable[[Any, Any], BaseModel]
