"""`citewise eval`: score answers against a QA file (the format of shared/qa/dev.yaml).

Items: id, doc (original file name or a list of them), question, type, answerable, answer,
accept (any of these strings in the answer counts as correct), pages (gold pages; for a
list of docs, pages[i] belongs to doc[i]), evidence.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from citewise.agent.qa import Answer
from citewise.errors import CitewiseError

MAX_ANSWER_WORDS = 80


@dataclass
class QAItem:
    id: str
    docs: list[str]
    question: str
    type: str
    answerable: bool
    accept: list[str]
    pages: list[int]

    def gold_locations(self) -> set[tuple[str, int]]:
        """(file name, page) pairs where a citation counts as on target."""
        if len(self.docs) > 1 and len(self.pages) == len(self.docs):
            return set(zip(self.docs, self.pages, strict=True))
        return {(doc, page) for doc in self.docs for page in self.pages}


def load_items(path: Path) -> list[QAItem]:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CitewiseError(f"cannot read QA file {path}: {exc}", code="BAD_QA_FILE") from exc
    if not isinstance(raw, list):
        raise CitewiseError(f"{path}: expected a list of QA items", code="BAD_QA_FILE")
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
            )
        )
    return items


def _normalize(text: str) -> str:
    return " ".join(text.lower().split())


def is_correct(answer: Answer, accept: list[str]) -> bool:
    """Answered, at most 80 words, and containing any accepted string."""
    if answer.refused or len(answer.answer.split()) > MAX_ANSWER_WORDS:
        return False
    text = _normalize(answer.answer)
    return any(_normalize(a) in text for a in accept)


def cited_locations(answer: Answer, file_names: dict[str, str]) -> set[tuple[str, int]]:
    """(file name, page) of every block the answer's sentences cite."""
    cited = {c for s in answer.sentences for c in s.citations}
    return {
        (file_names.get(e.document, e.document), e.page) for e in answer.evidence if e.id in cited
    }


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def metrics(rows: list[dict[str, object]]) -> dict[str, float | int]:
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    answered = [r for r in answerable if not r["refused"]]
    latencies = [float(r["ms"]) for r in rows]  # type: ignore[arg-type]

    def share(part: list[dict[str, object]], whole: list[dict[str, object]]) -> float:
        return round(len(part) / len(whole), 3) if whole else 0.0

    return {
        "items": len(rows),
        "accuracy": share([r for r in answerable if r["correct"]], answerable),
        "citation_page_accuracy": share([r for r in answered if r["page_hit"]], answered),
        "refusal_recall": share([r for r in unanswerable if r["refused"]], unanswerable),
        "false_refusal_rate": share([r for r in answerable if r["refused"]], answerable),
        "p50_ms": round(_percentile(latencies, 0.5), 1),
        "p95_ms": round(_percentile(latencies, 0.95), 1),
    }


def evaluate(
    items: list[QAItem],
    ask: Callable[[str], Answer],
    file_names: dict[str, str],
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, object]:
    """Ask every question; return overall and per-type metrics plus per-item rows."""
    rows: list[dict[str, object]] = []
    for n, item in enumerate(items, start=1):
        started = time.perf_counter()
        answer = ask(item.question)
        ms = (time.perf_counter() - started) * 1000
        cited = cited_locations(answer, file_names)
        rows.append(
            {
                "id": item.id,
                "type": item.type,
                "answerable": item.answerable,
                "refused": answer.refused,
                "correct": item.answerable and is_correct(answer, item.accept),
                "page_hit": bool(cited & item.gold_locations()),
                "cited": sorted(f"{doc}#{page}" for doc, page in cited),
                "support": answer.support_score,
                "answer": answer.answer,
                "ms": round(ms, 1),
            }
        )
        if progress:
            progress(n, len(items))
    by_type = {
        t: metrics([r for r in rows if r["type"] == t])
        for t in sorted({str(r["type"]) for r in rows})
    }
    return {"overall": metrics(rows), "by_type": by_type, "items": rows}


def file_name_map(documents: list[tuple[str, str]]) -> dict[str, str]:
    """Document ID -> original file name, to match the QA file's `doc` fields."""
    return {doc_id: Path(path).name for doc_id, path in documents}
