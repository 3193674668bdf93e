"""Scope from the question: the papers a question names narrow retrieval to them (softly).

A paper is named by its citewise ID ("zhang2023"), the system or dataset name its title
introduces ("S2ORC", "VESPA"), an abbreviation only it defines ("KCH"), distinctive title
words ("the trauma DVT-prophylaxis review"), or its first author and year ("Zhang et al.
2023"). A name that fits too many papers scopes nothing: the library answers as a whole.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from citewise.retrieval.terms import STOPWORDS, stem, tokens

# A name that fits more than this many papers does not pick one out.
MAX_SCOPED = 2
# Title words: at least this many distinctive ones, of enough weight, name the paper.
TITLE_WORDS = 2
TITLE_WEIGHT = 2.0
_NAME_LIKE = re.compile(r"^(?=.*[A-Z].*[A-Z0-9])[A-Za-z][A-Za-z0-9-]{1,}$|^[A-Z][a-z]+[A-Z]\w*$")
_GENERIC_TITLE = frozenset(
    """study analysis review introduction introductory approach method methods model models
    system systems paper towards toward using based via new novel large scale""".split()
)


@dataclass(frozen=True)
class Paper:
    """What the question can name a paper by."""

    id: str
    title: str
    authors: tuple[str, ...]
    year: int | None
    names: frozenset[str] = frozenset()  # system/dataset names, abbreviations it defines


@dataclass(frozen=True)
class ScopeChoice:
    """A document the answer is scoped to, and why (the `scope` of ask --json)."""

    document: str
    title: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"document": self.document, "title": self.title, "reason": self.reason}


def title_names(title: str) -> set[str]:
    """Names a title introduces: "S2ORC", "VESPA", "TIMP", "LOGIC-LM", "OLMo"."""
    head = title.split(":")[0] if ":" in title else ""
    found = {w for w in re.findall(r"[A-Za-z][\w-]+", title) if _NAME_LIKE.match(w)}
    if head and len(head.split()) == 1:
        found.add(head.strip())
    return {w for w in found if w.lower() not in STOPWORDS and len(w) >= 3}


def _family(author: str) -> str:
    parts = author.replace(",", " ").split()
    return parts[-1].lower() if parts else ""


def _title_words(title: str) -> set[str]:
    return {
        stem(t)
        for t in tokens(title)
        if t not in STOPWORDS and t not in _GENERIC_TITLE and len(t) > 2 and not t.isdigit()
    }


def _mentions(question: str, name: str) -> bool:
    pattern = r"(?<![\w-])" + re.escape(name) + r"(?:'s|’s)?(?![\w-])"
    return re.search(pattern, question, re.IGNORECASE if name.islower() else 0) is not None


def _by_name(question: str, papers: list[Paper]) -> dict[str, str]:
    chosen: dict[str, str] = {}
    words = set(tokens(question))
    years = set(re.findall(r"\b(?:19|20)\d\d\b", question))
    for paper in papers:
        if _mentions(question, paper.id):
            chosen[paper.id] = f"ID '{paper.id}'"
            continue
        for name in sorted(paper.names):
            if _mentions(question, name):
                chosen[paper.id] = f"name '{name}'"
                break
        else:
            family = _family(paper.authors[0]) if paper.authors else ""
            if family and paper.year and family in words and str(paper.year) in years:
                chosen[paper.id] = f"author-year '{family} {paper.year}'"
    return chosen


def _by_title(question: str, papers: list[Paper]) -> dict[str, str]:
    """Papers whose distinctive title words the question uses (title-level IDF)."""
    words = {stem(t) for t in tokens(question)}
    titles = {p.id: _title_words(p.title) for p in papers}
    frequency: dict[str, int] = {}
    for ws in titles.values():
        for w in ws:
            frequency[w] = frequency.get(w, 0) + 1
    scored = []
    for paper in papers:
        shared = titles[paper.id] & words
        weight = sum(math.log((len(papers) + 1) / frequency[w]) for w in shared)
        if len(shared) >= TITLE_WORDS and weight >= TITLE_WEIGHT:
            scored.append((weight, paper.id, sorted(shared)))
    scored.sort(reverse=True)
    return {pid: "title words " + ", ".join(ws) for _, pid, ws in scored[:MAX_SCOPED]}


def scope_from_question(question: str, papers: Iterable[Paper]) -> list[ScopeChoice]:
    """The papers the question names, with the reason; empty when it names none or too many."""
    papers = list(papers)
    if len(papers) < 2:
        return []
    chosen = _by_name(question, papers)
    for pid, reason in _by_title(question, papers).items():
        chosen.setdefault(pid, reason)
    if not chosen or len(chosen) > MAX_SCOPED:
        return []
    titles = {p.id: p.title for p in papers}
    return [ScopeChoice(pid, titles[pid], reason) for pid, reason in chosen.items()]
