"""A topic's facets in a paper: where its title, abstract sentences and section headings name
each of the topic's noun phrases, and whether that makes the paper about it. Pure functions."""

from __future__ import annotations

from collections.abc import Callable

from citewise.agent.extractive import split_sentences
from citewise.agent.research.model import Paper
from citewise.agent.research.plan import names_word
from citewise.retrieval.terms import content_terms, stem


def facet_sites(paper: Paper) -> list[tuple[str, set[str]]]:
    """Where a paper can name a facet, as (place, stems): its title, each sentence of its
    abstract (or opening text) and each section heading."""
    sites = [("title", paper.title)]
    sites += [("abstract", s) for s in split_sentences(paper.lead or paper.abstract)]
    sites += [(f"heading “{h}”", h) for h in paper.headings]
    return [(place, {stem(t) for t in content_terms(text)}) for place, text in sites if text]


def addressed_facets(paper: Paper, facets: list[str]) -> dict[str, list[str]]:
    """Facet -> the places where the paper addresses it: every word of the facet (or a
    synonym) in its title, in one sentence of its abstract, or in one section heading; or the
    facet's modifiers so ("hate speech" of "hate speech datasets") with its head noun
    elsewhere in them. A facet's words scattered over an abstract do not make a paper about it."""
    sites = facet_sites(paper)
    everywhere = set().union(*(stems for _, stems in sites)) if sites else set()
    found: dict[str, list[str]] = {}
    for facet in facets:
        words = content_terms(facet)
        modifiers = words[:-1]
        whole_head = bool(modifiers) and names_word(words[-1], everywhere)
        for place, stems in sites:
            whole = bool(words) and all(names_word(w, stems) for w in words)
            if whole or (whole_head and all(names_word(w, stems) for w in modifiers)):
                found.setdefault(facet, []).append(place)
    return found


def places_text(places: list[str]) -> str:
    more = len(places) - 2
    return " and ".join(places[:2]) + (f" (and {more} more)" if more > 0 else "")


def in_summary(places: list[str]) -> bool:
    """Whether a facet is addressed in the paper's title or abstract, not only in headings."""
    return any(p in ("title", "abstract") for p in places)


def facets_needed(facets: int) -> int:
    """How many facets of a topic a paper addresses to be on it: one of one or two; of
    three or more, a share (two of three to five), as a paper on one facet of a long topic
    ("metadata") is most often on another subject that uses the word."""
    return 1 + facets // 3


def substantive(places: list[str]) -> bool:
    """A facet a paper is about, not one it mentions: in its title, or in two places."""
    return "title" in places or len(places) > 1


def named_facets(paper: Paper, facets: list[str], weight: Callable[[str], float]) -> list[str]:
    """The facets whose most specific word (the rarest in the library) the paper's title,
    abstract or headings name: a facet touched, if not addressed."""
    sites = facet_sites(paper)
    everywhere = set().union(*(stems for _, stems in sites)) if sites else set()
    named = []
    for facet in facets:
        words = content_terms(facet)
        if words and names_word(max(words, key=weight), everywhere):
            named.append(facet)
    return named
