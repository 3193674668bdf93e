"""Search terms and aliases for the shape an answer must have: a link written out covers
a question's "web link"; a class member ("TPU") covers the class word asked ("hardware")."""

from __future__ import annotations

import re
from functools import lru_cache

from citewise.agent.ask.question import Question
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists
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


@lru_cache(maxsize=1)
def size_words() -> tuple[frozenset[str], tuple[str, ...]]:
    """The words a question asks a collection's size with, and those a size is stated with
    (agent/data/size_words.txt)."""
    text = shipped_text("size_words.txt")
    lists = sourced_lists(text, "size_words.txt", ["asks_size", "states_size"])
    return frozenset(lists["asks_size"]), tuple(lists["states_size"])


def shape_aliases(question: Question) -> dict[str, list[frozenset[str]]]:
    """A link written out ("http://dx.doi.org/...") covers the question's "web link"; a
    class member ("TPU") covers the class word asked about ("hardware"); a size stated
    ("contains 3,857 segments", "a total of 829") covers "how big", "the size of"."""
    out: dict[str, list[frozenset[str]]] = {}
    asks_size, states_size = size_words()
    for t in question.terms:
        members = CLASS_MEMBERS.get(t.lower()) or (states_size if t.lower() in asks_size else ())
        if members:
            out[stem(t)] = [frozenset({stem(m)}) for m in members]
    if not WANTS_LINK.search(question.text):
        return out
    wanted = {stem(w) for w in ("web", "link", "url", "website", "address", "page", "webpage")}
    out.update(
        {stem(t): [frozenset({w}) for w in LINK_TERMS] for t in question.terms if stem(t) in wanted}
    )
    return out
