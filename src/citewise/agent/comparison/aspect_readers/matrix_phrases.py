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
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import (
    CITING_PENALTY,
    cites_others,
    clause_end,
    shorten,
    word_list,
)
from citewise.agent.comparison.aspect_readers.matrix_phrase_gate import (
    a_kind_in_general,
    anothers_work,
    generic,
    not_a_total,
)
from citewise.agent.comparison.aspect_readers.matrix_phrase_numbers import (
    Reader,
    cited_value,
    count_readers,
    function_words,
    illustrative,
    number_readers,
    per_item,
    phrase_list,
)
from citewise.agent.comparison.aspect_readers.matrix_phrase_uses import (
    NAME,
    abbreviation,
    caption,
    coordinated,
    copula_reader,
    credited,
    framing,
    in_passing,
    listed_reader,
    names_one,
    own_use,
    stated_reader,
)
from citewise.agent.comparison.extraction import Finding, Unit
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists

MAX_PHRASE_WORDS = 6
MAX_MODIFIERS = 5  # words of a name before the phrase's head noun
# a free-phrase column as a JSON-schema pattern (the tool registry's and HTTP schemas): one to
# six words, the first starting with a letter ("annotators", "loss function"); spaces spelled
# out, so a JSON-schema (ECMAScript) reader and Python split words alike
SPACE = " \t\n\r\f\v"
FREE_PHRASE_PATTERN = rf"^[{SPACE}]*[A-Za-z][^{SPACE}]*(?:[{SPACE}]+[^{SPACE}]+){{0,5}}[{SPACE}]*$"
# what links a phrase to its value: "X is/was/are ...", "X: ...", "X = ...", "X consists of ..."
_LINK = r"\s*(?:\([^)]{0,40}\)\s*)?(?:is|was|are|were|:|=|consist(?:s|ed)? of|include[sd]?)\s+"
# a value that points elsewhere says nothing itself
_POINTS = re.compile(
    r"\b(?:Equation|Eq\b|EQREF|DISPLAY_?FORM|INLINEFORM|Table|Figure|Section|shown|given|below|"
    r"above|follows|following)"
)
# a linked value of one lower-case word is a verb or a stray word ("represents"), and a passive
# verb with its preposition or a conjunction describes what is done with the thing ("is
# optimized by", "is defined on", "are removed and ...")
_NOT_A_VALUE = re.compile(
    r"^(?:[a-z]+|[a-z]+ed(?:\s+(?:by|on|in|as|with|to|for|from|using|and|or|at|into)\b|\s*[,;]).*)$"
)
PHRASE_WORDS_FILE = "setup_phrases.txt"


@cache
def phrase_words(name: str) -> frozenset[str]:
    """A list of agent/data/setup_phrases.txt (lower case; provenance checked)."""
    text = shipped_text(PHRASE_WORDS_FILE)
    lists = sourced_lists(
        text, PHRASE_WORDS_FILE, ("property_modifiers", "negations", "clause_words")
    )
    return frozenset(w.lower() for w in lists[name])


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
        readers = _name_readers(mention)
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
            score = 2.0 - 0.2 * rank + 0.3 * (1.0 - n / share)
            score += 0.2 if unit.kind != "table" else 0.0
            score += 0.5 if not numeric and own_use(text) else 0.0
            if not numeric and rank == 0 and cites_others(text):
                score += CITING_PENALTY  # the paper's own use of a cited thing is its claim
            score -= 0.6 if numeric and value.lower() in _ONE else 0.0
            score -= 0.6 if numeric and per_item(text, value) else 0.0  # "3 labels per tweet"
            score -= 0.6 if illustrative(text) else 0.0  # "For example, ...", "Let x be ..."
            found.append(Finding(phrase, value, text, unit.page, unit.block_id, unit.section,
                                 score, was_cut))  # fmt: skip
            break
    return found


_ARTICLES = frozenset({"a", "an", "the", "this", "these", "those", "its", "their", "our"})
# a count of one says least: "one language" is rarely the paper's count where it states another
_ONE = frozenset({"1", "one", "single", "a single"})


# placeholders of papers converted from LaTeX (citations, tables, formulas) name nothing
_PLACEHOLDERS = re.compile(
    r"^(?:\W*(?:BIBREF|TABREF|FIGREF|SECREF|EQREF|INLINEFORM|DISPLAYFORM)\d+)+\W*$"
)
_PLACEHOLDER = re.compile(r"(?:BIBREF|TABREF|FIGREF|SECREF|EQREF|INLINEFORM|DISPLAYFORM)\d")


# a copula right before the words read as a name makes them a predicate
_COPULA_BEFORE = re.compile(r"\b(?:is|are|was|were|be|been|being)\s+$", re.I)


def _name_readers(mention: str) -> list[Reader]:
    linked = re.compile(rf"\b{mention}{_LINK}(?P<v>\S)", re.I)
    used_as = re.compile(
        rf"(?P<v>\b[\w()-]+(?:\s+[\w()-]+){{0,3}}?)\s+"
        rf"(?:as\s+(?:(?:the|our|a|an)\s+)?|for\s+(?:the|a|an)\s+){mention}",
        re.I,
    )
    # the name the phrase is given right after it: "a pretrained encoder (BERT)", "the
    # tagger, TnT,", "language models such as GPT-2 and XLNet", "an encoder called ELMo"
    named = rf"(?:{NAME})(?:(?:\s*,\s*|\s+and\s+|\s+or\s+|,\s+and\s+)(?:{NAME}))*"
    appositive = re.compile(
        rf"\b(?i:{mention})\w*(?:\s*(?P<open>[(,])\s*|\s+(?:such as|called|named|namely)\s+)"
        rf"(?P<v>{named})(?P<close>\s*[),.;]|\s+(?:and|or|to|is|was|for|with|on|in|as)\b)"
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

    def apposed(text: str) -> tuple[str, bool] | None:
        m = appositive.search(text)
        if not m or re.search(r"BIBREF|REF\d|FORM\d", m.group("v")):
            return None
        if m.group("open") and m.group("close").strip() not in {")", ","}:
            return None  # "a language model, SVM, CNN and HAN": a list, not a name given
        if abbreviation(m.group("v"), text[: m.start("v")]):
            return None  # "a language model (LM)": the phrase's own initials
        return (m.group("v"), False)

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

    return [stated_reader(mention), link, copula_reader(mention), named_as, apposed, which_one]


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
