"""Scope from the question: the papers a question names narrow retrieval to them (softly).

A paper is named by its citewise ID ("zhang2023"), the system or dataset name its title
introduces ("S2ORC", "VESPA"), an abbreviation only it defines ("KCH"), distinctive title
words ("the trauma DVT-prophylaxis review"), or its first author and year ("Zhang et al.
2023"). A name that fits too many papers scopes nothing: the library answers as a whole.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from citewise.agent.ask.question import Question
from citewise.retrieval.terms import STOPWORDS, stem, tokens

# A name that fits more than this many papers does not pick one out.
MAX_SCOPED = 2
# Title words: at least this many distinctive ones, of enough weight, name the paper.
TITLE_WORDS = 2
TITLE_WEIGHT = 2.0
TITLE_RELATIVE = 0.6
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
    # the question's words that named the paper (stems); they name it, they are not
    # what to look for inside it
    words: frozenset[str] = frozenset()

    def to_dict(self) -> dict[str, str]:
        return {"document": self.document, "title": self.title, "reason": self.reason}


# Every question reads every title: what a title gives is kept (titles change rarely).
TITLES_KEPT = 65_536


@lru_cache(maxsize=TITLES_KEPT)
def title_names(title: str) -> frozenset[str]:
    """Names a title introduces: "S2ORC", "VESPA", "TIMP", "LOGIC-LM", "OLMo"."""
    head = title.split(":")[0] if ":" in title else ""
    found = {w for w in re.findall(r"[A-Za-z][\w-]+", title) if _NAME_LIKE.match(w)}
    if head and len(head.split()) == 1:
        found.add(head.strip())
    return frozenset(w for w in found if w.lower() not in STOPWORDS and len(w) >= 3)


def _family(author: str) -> str:
    parts = author.replace(",", " ").split()
    return parts[-1].lower() if parts else ""


@lru_cache(maxsize=TITLES_KEPT)
def _title_words(title: str) -> frozenset[str]:
    return frozenset(
        stem(t)
        for t in tokens(title)
        if t not in STOPWORDS and t not in _GENERIC_TITLE and len(t) > 2 and not t.isdigit()
    )


def _mentions(question: str, name: str, folded: str = "", loose: bool = False) -> bool:
    """Whether the question names `name` as a word, as the paper writes it (any case when
    the name is lower case); `loose`: or in other capitals, when it still writes it as a
    name ("Logic-LM" for a title's small-caps "LOGIC-LM"; not "health" for a title set in
    capitals). `folded` is the question casefolded. A name not in the question as a
    substring is rejected before its pattern is built (a library's every ID and name is
    tried)."""
    lower = name.islower()
    folded = folded or question.casefold()
    if name not in question and not ((lower or loose) and name.casefold() in folded):
        return False
    pattern = r"(?<![\w-])" + re.escape(name) + r"(?:'s|’s)?(?![\w-])"
    if re.search(pattern, question, re.IGNORECASE if lower else 0):
        return True
    return loose and any(
        _NAME_LIKE.match(m.group(0).split("'")[0].split("’")[0])
        for m in re.finditer(pattern, question, re.IGNORECASE)
    )


def _by_name(question: str, papers: list[Paper]) -> dict[str, tuple[str, set[str]]]:
    """Papers named by ID, name or author-year as the paper writes them; when none is, by
    a name the question writes in other capitals (papers set names in small caps)."""
    return _named(question, papers) or _named(question, papers, loose=True)


def _named(
    question: str, papers: list[Paper], loose: bool = False
) -> dict[str, tuple[str, set[str]]]:
    chosen: dict[str, tuple[str, set[str]]] = {}
    words = set(tokens(question))
    years = set(re.findall(r"\b(?:19|20)\d\d\b", question))
    folded = question.casefold()
    for paper in papers:
        if _mentions(question, paper.id, folded):
            chosen[paper.id] = (f"ID '{paper.id}'", {stem(t) for t in tokens(paper.id)})
            continue
        # names its title introduces first, then abbreviations only it defines
        named = [n for n in paper.names if _mentions(question, n, folded, loose)]
        if named:
            in_title = title_names(paper.title)
            name = min(named, key=lambda n: (n not in in_title, n))
            chosen[paper.id] = (f"name '{name}'", {stem(t) for t in tokens(name)})
        else:
            family = _family(paper.authors[0]) if paper.authors else ""
            # a function word is no family name ("of 2022" from a filing's cover-page
            # "SECURITIES EXCHANGE ACT OF", read as its author)
            if (
                family
                and family not in STOPWORDS
                and paper.year
                and family in words
                and str(paper.year) in years
            ):
                chosen[paper.id] = (
                    f"author-year '{family} {paper.year}'",
                    {family, str(paper.year)},
                )
    return chosen


@lru_cache(maxsize=4)
def _title_index(
    papers: tuple[tuple[str, str], ...],
) -> tuple[dict[str, frozenset[str]], dict[str, list[str]]]:
    """Per paper ID its distinctive title words, and per word the papers whose title has
    it: built once per library, so a question reads only the papers sharing its words."""
    titles = {pid: _title_words(title) for pid, title in papers}
    holders: dict[str, list[str]] = {}
    for pid, ws in titles.items():
        for w in ws:
            holders.setdefault(w, []).append(pid)
    return titles, holders


def _by_title(question: str, papers: list[Paper]) -> dict[str, tuple[str, set[str]]]:
    """Papers whose distinctive title words the question uses (title-level IDF)."""
    words = {stem(t) for t in tokens(question)}
    titles, holders = _title_index(tuple((p.id, p.title) for p in papers))
    hits = Counter(pid for w in words for pid in holders.get(w, ()))
    scored = []
    for pid in (pid for pid, n in hits.items() if n >= TITLE_WORDS):
        shared = titles[pid] & words
        # summed in sorted order: a set's order (its hash seed) would change the rounding
        weight = sum(math.log((len(papers) + 1) / len(holders[w])) for w in sorted(shared))
        if weight >= TITLE_WEIGHT:
            scored.append((weight, pid, sorted(shared)))
    scored.sort(reverse=True)
    # a title matched far better than the others is the one named
    kept = [s for s in scored if s[0] >= TITLE_RELATIVE * scored[0][0]] if scored else []
    return {pid: ("title words " + ", ".join(ws), set(ws)) for _, pid, ws in kept[:MAX_SCOPED]}


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
    return [
        ScopeChoice(pid, titles[pid], reason, frozenset(words))
        for pid, (reason, words) in chosen.items()
    ]


# Keep at least this many terms after dropping the words that named the paper.
MIN_TERMS_LEFT = 2


def without_naming_words(question: Question, scope: list[ScopeChoice]) -> Question:
    """The question without the words that named its paper ("Semantic Scholar literature
    graph" once scoped to that paper), unless too little would be left to look for."""
    named = set().union(*(s.words for s in scope)) if scope else set()
    if not named:
        return question
    # what is asked about stays, even when it is also part of the name ("RMS error")
    named -= {stem(t) for t in question.attribute}
    keep = [t for t in question.terms if stem(t) not in named]
    if len(keep) < MIN_TERMS_LEFT:
        return question
    return replace(question, terms=keep)
