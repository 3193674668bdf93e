"""A topic's facets in a paper: where its title, abstract sentences and section headings name
each of the topic's noun phrases, and whether that makes the paper about it. Pure functions."""

from __future__ import annotations

from collections.abc import Callable

from citewise.agent.research.model import Paper
from citewise.agent.research.reading.vocabulary import other_names
from citewise.agent.research.stages.plan import names_word
from citewise.agent.sentences.extractive import split_sentences
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
    elsewhere in them. The facet may go by another name (vocabulary.other_names: "rumour
    detection" for "fake news detection"); the place then says which. A facet's words
    scattered over an abstract do not make a paper about it."""
    sites = facet_sites(paper)
    everywhere = set().union(*(stems for _, stems in sites)) if sites else set()
    found: dict[str, list[str]] = {}
    for facet in facets:
        # Each place once, under the first name that addresses it there.
        places: dict[str, str] = {}
        for name in [facet, *other_names(facet)]:
            for place in _named_at(content_terms(name), sites, everywhere):
                places.setdefault(place, "" if name == facet else f" (as “{name}”)")
        if places:
            found[facet] = [f"{place}{named_as}" for place, named_as in places.items()]
    return found


def _named_at(
    words: list[str], sites: list[tuple[str, set[str]]], everywhere: set[str]
) -> list[str]:
    """The sites naming all of `words`, or its modifiers with the head word anywhere."""
    modifiers = words[:-1]
    whole_head = bool(modifiers) and names_word(words[-1], everywhere)
    places = []
    for place, stems in sites:
        whole = bool(words) and all(names_word(w, stems) for w in words)
        if whole or (whole_head and all(names_word(w, stems) for w in modifiers)):
            places.append(place)
    return places


def places_text(places: list[str]) -> str:
    more = len(places) - 2
    return " and ".join(places[:2]) + (f" (and {more} more)" if more > 0 else "")


def in_summary(places: list[str]) -> bool:
    """Whether a facet is addressed in the paper's title or abstract, not only in headings."""
    return any(p.startswith(("title", "abstract")) for p in places)


def facets_needed(facets: int) -> int:
    """How many facets of a topic a paper addresses to be on it: one of one or two; of
    three or more, a share (two of three to five), as a paper on one facet of a long topic
    ("metadata") is most often on another subject that uses the word."""
    return 1 + facets // 3


def substantive(places: list[str]) -> bool:
    """A facet a paper is about, not one it mentions: in its title, or in two places."""
    return any(p.startswith("title") for p in places) or len(places) > 1


def strength(addressed: dict[str, list[str]]) -> float:
    """How much of a paper is about the topic: per facet addressed, one, two when in the
    title, and a tenth for each place that names it (at most five)."""
    return sum(
        (2.0 if any(p.startswith("title") for p in places) else 1.0) + 0.1 * min(len(places), 5)
        for places in addressed.values()
    )


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
