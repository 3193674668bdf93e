"""What the held-out English sets' tests share: a library of the files a set is asked over,
the set scored on it as a user asks (extractive backend, questions unscoped), and each half's
count of items right (odd-numbered items developed fixes; even-numbered ones are held out)."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.ask.answer import Answer
from citewise.api import Library
from citewise.eval.harness import evaluate, file_name_map, load_items
from tests.conftest import CORPUS


def corpus_files() -> list[Path]:
    """The corpus folder's papers and notes, as `citewise ingest` of the folder takes them."""
    return [p for p in sorted(CORPUS.iterdir()) if p.suffix in (".pdf", ".md")]


def scored(folder: Path, files: list[Path], questions: Path) -> dict[str, object]:
    """`questions` asked of a new library in `folder` holding `files` (every one ingested):
    the overall scores and one row per item."""
    library = Library(folder)
    assert library.ingest(files).failed == []
    names = file_name_map([(d.id, d.path) for d in library.documents()])

    def ask(question: str, docs: list[str]) -> Answer:
        return library.ask(question, docs, review=False)

    result = evaluate(load_items(questions), ask, names)
    library.close()
    return {"overall": result.overall.to_dict(), "rows": result.items}


def half_right(rows: list[dict[str, object]], odd: bool) -> int:
    """Items of the half right: answered correctly, or refused when unanswerable."""
    mine = [r for r in rows if (int(str(r["id"]).split("-")[1]) % 2 == 1) == odd]
    return sum(1 for r in mine if (r["correct"] if r["answerable"] else r["refused"]))
