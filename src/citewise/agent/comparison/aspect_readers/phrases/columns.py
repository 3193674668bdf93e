"""Free-phrase columns: `--columns "study design,loss function"` beside the presets.

A phrase of two or more words that names no preset aspect is asked of each paper like
"What is the <phrase>?". A sentence that mentions the phrase (its content words, at most two
words apart) is a candidate; the cell is what the sentence says the phrase is, never the bare
sentence:

- a phrase ending in a quantity word ("beam size", "number of layers"; agent/data/
  matrix_cells.txt) asks for a number: "a beam size of 8", "beam size 4", "300 hidden size";
- otherwise what the sentence links to it ("the loss function is a focal loss", "X as the
  loss function") or the words that name which one ("Cross-Entropy loss function",
  "pretrained GloVe word embeddings").

The candidates are then scored like every other cell
(agent/comparison/aspect_readers/matrix_cells.py
`own_statements`:
related work left out, citing sentences demoted). A paper with no such sentence leaves the
cell "not stated".
"""

from __future__ import annotations

import re

from citewise.agent.comparison.aspect_readers.matrix_cells import (
    CITING_PENALTY,
    cites_others,
    word_list,
)
from citewise.agent.comparison.aspect_readers.phrases.gate import (
    a_kind_in_general,
    anothers_work,
    not_a_total,
)
from citewise.agent.comparison.aspect_readers.phrases.lists import function_words, phrase_list
from citewise.agent.comparison.aspect_readers.phrases.names import name_readers
from citewise.agent.comparison.aspect_readers.phrases.numbers import (
    cited_value,
    count_readers,
    illustrative,
    number_readers,
    per_item,
)
from citewise.agent.comparison.aspect_readers.phrases.uses import (
    caption,
    credited,
    framing,
    in_passing,
    names_one,
    own_use,
)
from citewise.agent.comparison.extraction import Finding, Unit

MAX_PHRASE_WORDS = 6
# a free-phrase column as a JSON-schema pattern (the tool registry's and HTTP schemas): one to
# six words, the first starting with a letter ("annotators", "loss function"); spaces spelled
# out, so a JSON-schema (ECMAScript) reader and Python split words alike
SPACE = " \t\n\r\f\v"
FREE_PHRASE_PATTERN = rf"^[{SPACE}]*[A-Za-z][^{SPACE}]*(?:[{SPACE}]+[^{SPACE}]+){{0,5}}[{SPACE}]*$"
# a value that points elsewhere says nothing itself
_POINTS = re.compile(
    r"\b(?:Equation|Eq\b|EQREF|DISPLAY_?FORM|INLINEFORM|Table|Figure|Section|shown|given|below|"
    r"above|follows|following)"
)


def is_free_phrase(key: str) -> bool:
    """One to six words, the first starting with a letter: a column the user wrote rather
    than a preset (agent/comparison/aspects.py refuses a single word that misspells one)."""
    return re.fullmatch(FREE_PHRASE_PATTERN, key) is not None


def phrase_key(name: str) -> str:
    """A column name as a key: lower case, its words joined by one space."""
    return " ".join(w for w in re.split(f"[{SPACE}]+", name.lower()) if w)


def content_words(phrase: str) -> list[str]:
    """The phrase's words that carry meaning, singular ("losses" -> "loss" stem)."""
    skip = word_list("dangling")
    words = [w for w in re.findall(r"[a-z0-9][a-z0-9-]*", phrase.lower()) if w not in skip]
    return [w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w
            for w in words]  # fmt: skip


def asks_for_number(phrase: str) -> bool:
    """A phrase ending in a quantity word ("beam size"), opening with one and "of" ("number
    of hidden units") or naming a measure ("inter-rater agreement", "F1 score") asks for a
    number."""
    words = re.findall(r"[a-z0-9]+", phrase.lower())
    return bool(words) and (
        words[-1] in word_list("quantity_words") or counted(phrase) != phrase or measured(phrase)
    )


def measured(phrase: str) -> bool:
    """Whether the phrase names a measure ("annotator agreement", "F1 score"): its value is
    the number the paper measured."""
    words = phrase.lower().split()
    return bool(words) and words[-1] in phrase_list("measure_words")


def counted(phrase: str) -> str:
    """What a "number of X" phrase counts ("hidden units"): a count is written before the
    thing it counts ("512 hidden units"), so the sentence need not say "number"."""
    m = re.match(r"\s*(?:the\s+)?(\w+)\s+of\s+(?P<x>\S.*)$", phrase, re.I)
    if m and m.group(1).lower() in word_list("quantity_words"):
        return m.group("x").strip()
    return phrase


def spelled(word: str) -> str:
    """A word as a pattern that also matches its spellings with and without the hyphen after
    a prefix ("pretrained", "pre-trained", "pre trained"; agent/data/matrix_phrases.txt)."""
    bare = word.replace("-", "")
    for prefix in sorted(phrase_list("prefixes"), key=len, reverse=True):
        if bare.startswith(prefix) and len(bare) > len(prefix) + 2:
            return rf"{re.escape(prefix)}[- ]?{re.escape(bare[len(prefix) :])}"
    return re.escape(word)


def mention_pattern(words: list[str], strict: bool = False) -> str:
    """The phrase's content words in order, each a stem ("layer" matches "layers"), at most
    two words apart ("embedding/hidden layer size"). `strict` (a name phrase): the words as
    a compound, each singular or plural ("language models", not "language modeling"; "base
    model", not "based model" or "baseline model"),
    another word between them only as a coordination ("word and character embeddings"; not
    "baselines and our model", "language sentiment classification model")."""
    if not strict:
        return r"\W+(?:\w+\W+){0,2}?".join(rf"{spelled(w)}\w*" for w in words)
    gap = rf"\W+(?:(?:and|or)\W+(?!(?:{function_words()})\b)[\w-]+\W+)?"
    return gap.join(rf"{spelled(w)}(?:e?s)?\b" for w in words)


def phrase_findings(phrase: str, paper_units: list[Unit]) -> list[Finding]:
    """Sentences mentioning every content word of the phrase, the value being what the
    sentence says the phrase is; scored by how the value is tied to the phrase, by whether
    the paper says it of its own work and by position."""
    words = content_words(counted(phrase))
    if not words:
        return []
    each = [re.compile(rf"\b{spelled(w)}\w*", re.I) for w in words]
    numeric = asks_for_number(phrase)
    mention = mention_pattern(words, strict=not numeric)
    counts = numeric and counted(phrase) != phrase
    if not numeric:
        readers = name_readers(mention)
    elif counts:
        readers = count_readers(mention_pattern(content_words(phrase)), mention)
    else:
        readers = number_readers(mention)
    share = max(len(paper_units), 1)
    found = []
    for n, unit in enumerate(paper_units):
        text = unit.text
        if not all(p.search(text) for p in each) or (unit.kind == "table" and not numeric):
            continue
        if not numeric and caption(text):
            continue
        for rank, reader in enumerate(readers):
            read = reader(text)
            if read is None:
                continue
            value, was_cut = read
            if not value and rank == 0 and numeric:
                break  # a "respectively" sentence whose names and values do not pair up
            if (
                not value
                or value not in text
                or _POINTS.search(value)
                or _PLACEHOLDERS.match(value)
            ):
                continue
            if cited_value(text, value) or (numeric and credited(text, value)):
                continue  # "BIBREF4 report an agreement of 0.7": another work's value
            written = rank == len(readers) - 1
            if counts and not_a_total(text, value, written, counted(phrase)):
                continue  # "the similarity of two sentences": no total of the paper's own
            if numeric and not own_use(text) and framing(unit):
                continue  # a count named in passing where the paper frames its field
            if not numeric and a_kind_in_general(value, phrase, text):
                continue  # "we train text classification models": the class, not which one
            if not numeric and anothers_work(text):
                continue  # "BIBREF4 learns ...": a cited work's thing
            if not numeric and rank > 0 and not names_one(value) and in_passing(unit, mention):
                continue  # a kind named in passing, not the paper's stated choice
            score = _score(text, value, unit, numeric, rank, 1.0 - n / share)
            found.append(Finding(phrase, value, text, unit.page, unit.block_id, unit.section,
                                 score, was_cut))  # fmt: skip
            break
    return found


def _score(text: str, value: str, unit: Unit, numeric: bool, rank: int, early: float) -> float:
    """How surely a reading is the paper's own value: how it is tied to the phrase (the
    reader's rank), position, prose over tables, the paper's own use; a count of one, a count
    per item and an example say least."""
    score = 2.0 - 0.2 * rank + 0.3 * early
    score += 0.2 if unit.kind != "table" else 0.0
    score += 0.5 if not numeric and own_use(text) else 0.0
    if not numeric and rank == 0 and cites_others(text):
        score += CITING_PENALTY  # the paper's own use of a cited thing is its claim
    score -= 0.6 if numeric and value.lower() in _ONE else 0.0
    score -= 0.6 if numeric and per_item(text, value) else 0.0  # "3 labels per tweet"
    score -= 0.6 if illustrative(text) else 0.0  # "For example, ...", "Let x be ..."
    return score


# a count of one says least: "one language" is rarely the paper's count where it states another
_ONE = frozenset({"1", "one", "single", "a single"})


# placeholders of papers converted from LaTeX (citations, tables, formulas) name nothing
_PLACEHOLDERS = re.compile(
    r"^(?:\W*(?:BIBREF|TABREF|FIGREF|SECREF|EQREF|INLINEFORM|DISPLAYFORM)\d+)+\W*$"
)
