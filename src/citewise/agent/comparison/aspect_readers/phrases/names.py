"""The name a free-phrase column's sentence gives the phrase ("the loss function is a focal
loss", "X as the loss function", "a pretrained encoder (BERT)", "Cross-Entropy loss function"):
the readers of a name column, most directly tied first."""

from __future__ import annotations

import re

from citewise.agent.comparison.aspect_readers.matrix_cells import clause_end, shorten, word_list
from citewise.agent.comparison.aspect_readers.phrases.gate import generic
from citewise.agent.comparison.aspect_readers.phrases.lists import phrase_list, phrase_words
from citewise.agent.comparison.aspect_readers.phrases.numbers import Reader
from citewise.agent.comparison.aspect_readers.phrases.uses import (
    NAME,
    abbreviation,
    coordinated,
    copula_reader,
    listed_reader,
    stated_reader,
)

MAX_MODIFIERS = 5  # words of a name before the phrase's head noun
# what links a phrase to its value: "X is/was/are ...", "X: ...", "X = ...", "X consists of ..."
_LINK = r"\s*(?:\([^)]{0,40}\)\s*)?(?:is|was|are|were|:|=|consist(?:s|ed)? of|include[sd]?)\s+"
# a linked value of one lower-case word is a verb or a stray word ("represents"), and a passive
# verb with its preposition or a conjunction describes what is done with the thing ("is
# optimized by", "is defined on", "are removed and ...")
_NOT_A_VALUE = re.compile(
    r"^(?:[a-z]+|[a-z]+ed(?:\s+(?:by|on|in|as|with|to|for|from|using|and|or|at|into)\b|\s*[,;]).*)$"
)
_ARTICLES = frozenset({"a", "an", "the", "this", "these", "those", "its", "their", "our"})

_PLACEHOLDER = re.compile(r"(?:BIBREF|TABREF|FIGREF|SECREF|EQREF|INLINEFORM|DISPLAYFORM)\d")


# a copula right before the words read as a name makes them a predicate
_COPULA_BEFORE = re.compile(r"\b(?:is|are|was|were|be|been|being)\s+$", re.I)


def name_readers(mention: str) -> list[Reader]:
    linked = re.compile(rf"\b{mention}{_LINK}(?P<v>\S)", re.I)
    used_as = re.compile(
        rf"(?P<v>\b[\w()-]+(?:\s+[\w()-]+){{0,3}}?)\s+"
        rf"(?:as\s+(?:(?:the|our|a|an)\s+)?|for\s+(?:the|a|an)\s+){mention}",
        re.I,
    )
    near = re.compile(rf"\b{mention}", re.I)
    listed = listed_reader(mention)

    def link(text: str) -> tuple[str, bool] | None:
        m = linked.search(text)
        if not m or generic(text, m.start(), m.group()) or coordinated(text, m):
            return None
        start = m.start("v")
        value, was_cut = shorten(text[start : clause_end(text, start)].strip(" ,"))
        if _says_no_name(value):
            return None
        if text[: m.start("v")].rstrip().endswith(":") and len(text[: m.start()].split()) > 3:
            return None  # "similar to that of X: ...": an elaboration, not a label's value
        return (value, was_cut)

    def named_as(text: str) -> tuple[str, bool] | None:
        m = used_as.search(text)
        if not m:
            return None
        value = _modifiers(m.group("v").split())
        if value and _COPULA_BEFORE.search(text[: m.end("v") - len(value)]):
            return None  # "is crucial for a rock classifier": a predicate, no name
        return (value, False) if value else None

    def which_one(text: str) -> tuple[str, bool] | None:
        m = near.search(text)
        if not m:
            return None
        if m.group()[:1].isupper() and re.match(r"\s+[A-Z][a-z]", text[m.end() :]):
            return None  # "Automated Knowledge Base Construction": inside a longer name
        if members := listed(text):
            return members  # "three text classifiers: SVM, NB and LR": the names, not the kind
        head = _modifiers(text[: m.start()].split())
        if not head:
            return None
        return (text[text.rfind(head, 0, m.start()) : m.end()].rstrip(), False)

    apposed = _apposed_reader(mention)
    return [stated_reader(mention), link, copula_reader(mention), named_as, apposed, which_one]


def _apposed_reader(mention: str) -> Reader:
    """The name the phrase is given right after it: "a pretrained encoder (BERT)", "the
    tagger, TnT,", "language models such as GPT-2 and XLNet", "an encoder called ELMo"."""
    named = rf"(?:{NAME})(?:(?:\s*,\s*|\s+and\s+|\s+or\s+|,\s+and\s+)(?:{NAME}))*"
    appositive = re.compile(
        rf"\b(?i:{mention})\w*(?:\s*(?P<open>[(,])\s*|\s+(?:such as|called|named|namely)\s+)"
        rf"(?P<v>{named})(?P<close>\s*[),.;]|\s+(?:and|or|to|is|was|for|with|on|in|as)\b)"
    )

    def apposed(text: str) -> tuple[str, bool] | None:
        m = appositive.search(text)
        if not m or re.search(r"BIBREF|REF\d|FORM\d", m.group("v")):
            return None
        if m.group("open") and m.group("close").strip() not in {")", ","}:
            return None  # "a language model, SVM, CNN and HAN": a list, not a name given
        if abbreviation(m.group("v"), text[: m.start("v")]):
            return None  # "a language model (LM)": the phrase's own initials
        return (m.group("v"), False)

    return apposed


def _says_no_name(value: str) -> bool:
    """Whether a linked value says no name: a negation ("is not needed"), a verb ("is
    optimized by"), a clause or place ("is that ...", "are in English") or a predicate ("is
    sensitive to", "is an important role")."""
    words = value.lower().split()
    first = words[0] if words else ""
    if _NOT_A_VALUE.match(value) or first in phrase_words("negations"):
        return True
    if re.match(r"[a-z]+ed\b", value) or re.fullmatch(r"\W*[A-Za-z]?\W*", value):
        return True  # "introduced so as to ...", "used during ...": a verb; "A.": a label
    if first in phrase_list("approximations"):
        return True  # "around 7,800": a quantity says no name
    if first in word_list("dangling") and first not in {"a", "an", "the", "to"}:
        return True
    second = words[1] if len(words) > 1 else ""
    if (first == "the" and second in word_list("vague_modifiers")) or (
        first in word_list("vague_modifiers") and second in {"from", "to", "than", "as"}
    ):
        return True  # "is the same as ...", "is different from ...": a comparison
    return _predicate(first) or (first in {"a", "an"} and bool(second) and _predicate(second))


def _predicate(word: str) -> bool:
    """A word that opens a predicate rather than a name: an adverb ("also", "usually"), an
    adjective of degree or quality ("higher", "special") or a word formed like an adjective
    ("responsible", "sensitive", "available")."""
    whole = word.strip("()[],;:").lower()
    bare = whole.split("-")[0]
    vague = phrase_list("vague_adjectives")
    if bare in phrase_list("adverbs") or bare in vague or whole in vague:
        return True
    return len(bare) > 5 and bare.endswith(tuple(phrase_list("predicate_suffixes")))


# a verb before a mention ends the words that say which one ("we learn ... word embeddings")
_VERB = re.compile(
    r"use[sd]?|using|with|by|via|trained|train|learn\w*|employ\w*|adopt\w*|minimi[sz]\w*|"
    r"appl(?:y|ied|ies)|comput\w*|obtain\w*|initiali[sz]\w*|generat\w*|produc\w*|build|built|"
    r"creat\w*|introduc\w*|propos\w*|develop\w*|extract\w*|represent\w*|consider\w*|compar\w*|"
    r"modif\w*|optimi[sz]\w*|tun\w*|chang\w*|design\w*|defin\w*|choos\w*|chose\w*|select\w*|"
    r"replac\w*|add\w*|updat\w*|requir\w*"
)


def _modifiers(before: list[str]) -> str:
    """The words just before a mention that say which one it is (a name of up to five words,
    "scaled exponential linear unit (SELU)", stopping at a function word, a verb or a vague
    one), or "" when none does or they only say of what kind ("nonlinear", "output")."""
    stop = (
        word_list("dangling")
        | word_list("vague_modifiers")
        | phrase_words("clause_words")
        | phrase_list("number_words")
    )
    kept: list[str] = []
    for at in range(len(before) - 1, -1, -1):
        word = before[at]
        bare = word.strip("()[],;:").lower()
        previous = before[at - 1].lower() if at > 0 else ""
        after_preposition = previous in word_list("dangling") - _ARTICLES
        if previous == "to" or (bare.endswith("ing") and after_preposition):
            break  # "to handle knowledge bases", "for embedding knowledge bases": a verb
        if bare.endswith(("'", "'s", "’", "’s")):
            break  # "the tasks' loss functions": whose, not which
        if (
            not bare
            or bare in stop
            or _predicate(bare)
            or not re.search(r"[A-Za-z]", bare)
            or bare in phrase_list("name_stops")
            or (_PLACEHOLDER.search(word) is not None and word.startswith("("))
            or word.count(")") > word.count("(")
            or not re.fullmatch(r"[\w()\[\],;:'’.+/$\\-]+", word)
            or word.endswith((",", ";", ":"))
        ):
            break
        if _VERB.fullmatch(bare) or bare in phrase_list("use_verbs"):
            break
        kept.insert(0, word)
        if len(kept) == MAX_MODIFIERS:
            break
    general = phrase_words("property_modifiers")
    if all(w.strip("()[],;:").lower() in general for w in kept):
        return ""  # "a nonlinear output activation function" says of what kind, not which one
    return " ".join(kept)
