"""`citewise eval`: score answers against a QA file (the format of shared/qa/dev.yaml).

Items: id, doc (original file name or a list of them), question, type, answerable, answer,
accept (any of these strings in the answer counts as correct), pages (gold pages; for a
list of docs, pages[i] belongs to doc[i]), evidence; optionally evidence_sources (the
external benchmarks' "Pure-text (Plain-text)", "Table", "Figure", ...).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from citewise.agent.ask.qa import Answer
from citewise.agent.sentences.extractive import without_labels
from citewise.errors import CitewiseError
from citewise.eval.calibration import calibration_table, leave_one_document_out
from citewise.eval.metrics import EvalResult, Row, metrics

MAX_ANSWER_WORDS = 80
# Accepted strings this short ("2", "M.A") count only as whole tokens of the answer.
SHORT_ACCEPT = 3
# Evidence a text-only reader can use; the rest (Figure, Chart) is in images.
TEXT_EVIDENCE = ("pure-text", "table", "generalized-text")

Ask = Callable[[str, list[str]], Answer]


@dataclass
class QAItem:
    id: str
    docs: list[str]
    question: str
    type: str
    answerable: bool
    accept: list[str]
    pages: list[int]
    evidence_sources: list[str] = field(default_factory=list)
    weak_match: bool = False  # the benchmark says the answer is too short for substrings

    def gold_locations(self) -> set[tuple[str, int]]:
        """(file name, page) pairs where a citation counts as on target."""
        if len(self.docs) > 1 and len(self.pages) == len(self.docs):
            return set(zip(self.docs, self.pages, strict=True))
        return {(doc, page) for doc in self.docs for page in self.pages}

    @property
    def evidence_group(self) -> str | None:
        """ "text+table" when every evidence source is text or a table; "figure" when one
        is an image; None when the item says nothing about its evidence."""
        if not self.evidence_sources:
            return None
        text = all(s.lower().startswith(TEXT_EVIDENCE) for s in self.evidence_sources)
        return "text+table" if text else "figure"


def load_items(path: Path, gold: Path | None = None) -> list[QAItem]:
    """The file's items; with `gold`, each question's gold (docs, type, answerable, accept,
    pages) read from that file by id: a translation of a QA set holds only id and question."""
    raw = _read(path)
    if gold is not None:
        answers = {str(e.get("id")): e for e in _read(gold)}
        missing = [str(e.get("id")) for e in raw if str(e.get("id")) not in answers]
        if missing:
            raise CitewiseError(
                f"{path}: {len(missing)} question(s) have no gold in {gold}: {missing[:3]}",
                code="BAD_QA_FILE",
            )
        raw = [{**answers[str(e["id"])], "question": e["question"]} for e in raw]
    elif raw and not any("accept" in e or "answerable" in e for e in raw):
        raise CitewiseError(
            f"{path} holds questions without gold answers",
            code="BAD_QA_FILE",
            hint="give the QA file they translate: --gold ../shared/qa/dev.yaml",
        )
    items = []
    for entry in raw:
        docs = entry.get("doc") or []
        items.append(
            QAItem(
                id=str(entry["id"]),
                docs=[docs] if isinstance(docs, str) else list(docs),
                question=str(entry["question"]),
                type=str(entry.get("type", "unknown")),
                answerable=bool(entry.get("answerable", True)),
                accept=[str(a) for a in entry.get("accept") or []],
                pages=[int(p) for p in entry.get("pages") or []],
                evidence_sources=[str(s) for s in entry.get("evidence_sources") or []],
                weak_match=bool(entry.get("weak_match", False)),
            )
        )
    return items


def _read(path: Path) -> list[dict[str, Any]]:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CitewiseError(f"cannot read QA file {path}: {exc}", code="BAD_QA_FILE") from exc
    if not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
        raise CitewiseError(f"{path}: expected a list of QA items", code="BAD_QA_FILE")
    return raw


def _normalize(text: str) -> str:
    return " ".join(text.lower().split())


def _contains(text: str, accept: str, whole: bool) -> bool:
    if not whole:
        return accept in text
    # "2" must not count inside "GPT-4, 2) the format" as "42" or "3.2"
    pattern = r"(?<![\w.-])" + re.escape(accept) + r"(?![\w]|[.,]\d)"
    return re.search(pattern, text) is not None


# List markers "2)" and compounds "one-step" state no count.
_NOT_A_COUNT = re.compile(
    r"\(?\b\d+\)|\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)-[a-z]\w*",
    re.IGNORECASE,
)


def text_is_correct(text: str, accept: list[str], whole: bool = False) -> bool:
    """At most 80 words and containing any accepted string; short accepted strings (and
    every one of a `weak_match` item) only as a whole token, and for `weak_match` items
    not inside a label ("Chapter 9"), a list marker ("2)") or a compound ("one-step")."""
    if len(text.split()) > MAX_ANSWER_WORDS:
        return False
    if whole:
        text = _NOT_A_COUNT.sub(" ", without_labels(text))
    normal = _normalize(text)
    return any(
        _contains(normal, _normalize(a), whole or len(a.strip()) <= SHORT_ACCEPT) for a in accept
    )


def is_correct(answer: Answer, accept: list[str], whole: bool = False) -> bool:
    """Answered, at most 80 words, and containing any accepted string."""
    return not answer.refused and text_is_correct(answer.answer, accept, whole)


def cited_locations(
    answer: Answer, file_names: dict[str, str], withheld: bool = False
) -> set[tuple[str, int]]:
    """(file name, page) of every block the answer's sentences (or withheld draft) cite."""
    sentences = answer.withheld if withheld else answer.sentences
    cited = {c for s in sentences for c in s.citations}
    return {
        (file_names.get(e.document, e.document), e.page) for e in answer.evidence if e.id in cited
    }


def _row(item: QAItem, answer: Answer, ms: float, file_names: dict[str, str]) -> Row:
    cited = cited_locations(answer, file_names)
    withheld = " ".join(s.text for s in answer.withheld)
    return {
        "id": item.id,
        "docs": item.docs,
        "type": item.type,
        "evidence": item.evidence_group,
        "answerable": item.answerable,
        "refused": answer.refused,
        "refusal_kind": answer.refusal_kind,
        "correct": item.answerable and is_correct(answer, item.accept, item.weak_match),
        # what the answer would have been without the refusal decision (for calibration)
        "draft_correct": item.answerable
        and text_is_correct(
            withheld if answer.refused else answer.answer, item.accept, item.weak_match
        ),
        "page_hit": bool(cited & item.gold_locations()),
        "draft_page_hit": bool(
            (cited_locations(answer, file_names, withheld=True) if answer.refused else cited)
            & item.gold_locations()
        ),
        "cited": sorted(f"{doc}#{page}" for doc, page in cited),
        "support": answer.support_score,
        "signals": answer.signals,
        "scope": [s["document"] for s in answer.scope],
        "answer": answer.answer,
        "ms": round(ms, 1),
    }


def evaluate(
    items: list[QAItem],
    ask: Ask,
    file_names: dict[str, str],
    progress: Callable[[int, int], None] | None = None,
    scope_docs: bool = False,
) -> EvalResult:
    """Ask every question (scoped to the item's documents with `scope_docs`); return
    overall, per-type and per-evidence metrics, the support calibration, and per-item rows."""
    by_name = {name: doc_id for doc_id, name in file_names.items()}
    rows: list[Row] = []
    for n, item in enumerate(items, start=1):
        docs = [by_name[d] for d in item.docs if d in by_name] if scope_docs else []
        started = time.perf_counter()
        answer = ask(item.question, docs)
        rows.append(_row(item, answer, (time.perf_counter() - started) * 1000, file_names))
        if progress:
            progress(n, len(items))
    return summarize(rows)


def summarize(rows: list[Row]) -> EvalResult:
    """Metrics of evaluated rows: overall, by type, by evidence kind, calibration, LODO."""
    by_type = {
        t: metrics([r for r in rows if r["type"] == t])
        for t in sorted({str(r["type"]) for r in rows})
    }
    by_evidence = None
    groups = sorted({str(r["evidence"]) for r in rows if r["evidence"]})
    if groups:
        # unanswerable items carry no evidence: count them with every group's refusals
        unanswerable = [r for r in rows if not r["answerable"]]
        by_evidence = {
            g: metrics([r for r in rows if r["evidence"] == g] + unanswerable) for g in groups
        }
    return EvalResult(
        overall=metrics(rows),
        by_type=by_type,
        calibration=calibration_table(rows),
        lodo=leave_one_document_out(rows),
        items=rows,
        by_evidence=by_evidence,
    )


def file_name_map(documents: list[tuple[str, str]]) -> dict[str, str]:
    """Document ID -> original file name, to match the QA file's `doc` fields."""
    return {doc_id: Path(path).name for doc_id, path in documents}
