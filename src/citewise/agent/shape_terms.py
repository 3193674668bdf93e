"""Search terms and aliases for the shape an answer must have: a link written out covers
a question's "web link"; a class member ("TPU") covers the class word asked ("hardware")."""

from __future__ import annotations

import re

from citewise.agent.question import Question
from citewise.regex import lazy
from citewise.retrieval.terms import stem

WANTS_LINK = lazy(r"\b(web ?(link|page)|url|website|web address|doi)\b", re.IGNORECASE)
# What a link is written with, for finding one ("the web link to this paper")
LINK_TERMS = ["http", "https", "doi", "www"]


def shape_terms(question: Question) -> list[str]:
    """Search terms for the shape an answer must have (a link's "http", "doi")."""
    return LINK_TERMS if WANTS_LINK.search(question.text) else []


# What a class word in a question is answered with in papers: "what hardware" by a device
# ("a single TPU v3-8"), "which optimizer" by its name, "which framework" likewise.
CLASS_MEMBERS = {
    "hardware": ("gpu", "gpus", "tpu", "tpus", "cpu", "cpus"),
    "accelerator": ("gpu", "gpus", "tpu", "tpus"),
    "optimizer": ("adam", "adamw", "sgd", "adafactor", "rmsprop"),
    "framework": ("pytorch", "tensorflow", "jax", "keras"),
    # a measure is stated in its units: "how much memory" by "12 Mbytes"
    "memory": (
        "bytes",
        "kb",
        "mb",
        "gb",
        "tb",
        "kbytes",
        "mbytes",
        "gbytes",
        "megabytes",
        "gigabytes",
        "kib",
        "mib",
        "gib",
    ),
}


def shape_aliases(question: Question) -> dict[str, list[frozenset[str]]]:
    """A link written out ("http://dx.doi.org/...") covers the question's "web link"; a
    class member ("TPU") covers the class word asked about ("hardware")."""
    out: dict[str, list[frozenset[str]]] = {}
    for t in question.terms:
        members = CLASS_MEMBERS.get(t.lower())
        if members:
            out[stem(t)] = [frozenset({stem(m)}) for m in members]
    if not WANTS_LINK.search(question.text):
        return out
    wanted = {stem(w) for w in ("web", "link", "url", "website", "address", "page", "webpage")}
    out.update(
        {stem(t): [frozenset({w}) for w in LINK_TERMS] for t in question.terms if stem(t) in wanted}
    )
    return out
