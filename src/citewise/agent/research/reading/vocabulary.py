"""Related terms (data/related_terms.txt): the related words a query variant or a facet may
use in a word's place, and the other names of a phrase ("rumour" for "fake news"), so screening
finds a paper on the topic that calls it by another name. Read once per process."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from citewise.agent.sourced_lists import sourced_lists
from citewise.retrieval.terms import content_terms, stem

SOURCE = "agent/research/data/related_terms.txt"
LISTS = ("words", "phrases")


def parse_related(
    text: str, source: str = SOURCE
) -> tuple[dict[str, tuple[str, ...]], list[list[str]]]:
    """(word -> related words, groups of names for one thing) from the file's two lists."""
    lists = sourced_lists(text, source, LISTS)
    words: dict[str, tuple[str, ...]] = {}
    for line in lists["words"]:
        word, _, related = line.partition(":")
        words[word.strip().lower()] = tuple(r.strip() for r in related.split(",") if r.strip())
    groups = [
        [n.strip().lower() for n in line.split("|") if n.strip()] for line in lists["phrases"]
    ]
    return words, [g for g in groups if len(g) > 1]


@lru_cache(maxsize=1)
def related_vocabulary() -> tuple[dict[str, tuple[str, ...]], list[list[str]]]:
    text = resources.files("citewise.agent.research").joinpath("data", "related_terms.txt")
    return parse_related(text.read_text("utf-8"))


def related_words(word: str) -> tuple[str, ...]:
    """The words a query or a facet may use in `word`'s place."""
    return related_vocabulary()[0].get(word.lower(), ())


def _whole(name: str) -> list[str]:
    """A name's content words, or none when a word of it is a stopword ("under-resourced"
    would be "resourced": another name)."""
    terms = content_terms(name)
    return terms if len(terms) == len(re.split(r"[\s\-]+", name.strip())) else []


def other_names(phrase: str) -> list[str]:
    """The phrase with each run of its words that has other names (a group of the file)
    replaced by each of them: "fake news detection" -> "misinformation detection", "rumour
    detection", ... Matched on word stems; the phrase itself is not among them."""
    words = content_terms(phrase)
    stems = [stem(w) for w in words]
    found: dict[tuple[str, ...], str] = {tuple(stems): ""}
    for group in related_vocabulary()[1]:
        names = [terms for terms in map(_whole, group) if terms]
        for name in names:
            run = [stem(w) for w in name]
            for at in range(len(stems) - len(run) + 1):
                if stems[at : at + len(run)] != run:
                    continue
                for other in names:
                    variant = [*words[:at], *other, *words[at + len(run) :]]
                    found.setdefault(tuple(stem(w) for w in variant), " ".join(variant))
    return [v for v in found.values() if v]
