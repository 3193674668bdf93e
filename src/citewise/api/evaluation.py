"""Scoring the library's answers against a QA file (`citewise eval`): its items read (with
the gold of another file for a translation), every item asked and scored, its citations
audited; and saved runs compared side by side or used to fit the refusal parameters."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from citewise.eval.compare import compare_runs, fit_runs, load_run
from citewise.eval.harness import QAItem, evaluate, file_name_map, load_items
from citewise.eval.metrics import EvalResult

if TYPE_CHECKING:
    from citewise.agent.ask.answer import Answer
    from citewise.api.library import Library

__all__ = [
    "EvalResult",
    "ModelChoice",
    "QAItem",
    "compare_runs",
    "evaluate_library",
    "fit_runs",
    "load_items",
    "load_run",
]


@dataclass(frozen=True)
class ModelChoice:
    """The model `--llm`, `--llm-url` and `--no-cache` choose for the answers."""

    llm: str | None = None
    url: str | None = None
    use_cache: bool = True


def evaluate_library(
    library: Library,
    items: list[QAItem],
    scope_docs: bool,
    model: ModelChoice = ModelChoice(),
    progress: Callable[[int, int], None] | None = None,
) -> EvalResult:
    """Every item asked over `library` (within its `doc` with scope_docs), each answer scored
    and its citations audited; the models' usage when a model wrote any.
    `progress(done, total)` hears (0, total) once the model is loaded, then each item."""
    from citewise.agent.generation.generate import CitationAudit

    llm, url, use_cache = model.llm, model.url, model.use_cache
    names = file_name_map([(d.id, d.path) for d in library.documents()])
    # load the model once so latencies measure answering, not start-up
    library.ask("warm up", review=False)
    if progress is not None:
        progress(0, len(items))
    scoped: list[str] = []  # the current item's documents (--scope-docs)
    audit = CitationAudit(
        lambda q: library.ask_with_model(q, scoped, 8, llm, url, use_cache), library.usage
    )

    def ask(question: str, docs: list[str]) -> Answer:
        scoped[:] = docs
        return audit.ask(question)

    result = evaluate(items, ask, names, progress=progress, scope_docs=scope_docs)
    if llm or audit.generated:
        result.models = audit.summary()
    return result
