"""Name phrases in free-phrase columns (agent/comparison/aspect_readers/matrix_phrases.py) read
from the paper's statement of its own choice: "we use the Universal Sentence Encoder", "we
train an LDA topic model", "we adopt the turn attention mechanism" give the object of the verb
of use, whole, up to the phrase's head noun. A kind named in passing where the paper frames its
field ("many machine learning algorithms take ...") is no such statement. The verbs live in
agent/data/matrix_phrases.txt.
"""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import word_list
from citewise.agent.comparison.aspect_readers.matrix_phrase_numbers import (
    Reader,
    modifies,
    phrase_list,
)

# the words an object may open with that name nothing: articles and possessives
_DETERMINERS = frozenset({"a", "an", "the", "our", "their", "its", "this", "these", "those"})
# words an object of use may hold besides its name: articles, coordination, "of"
_INSIDE = frozenset({"a", "an", "the", "and", "or", "of"})
MAX_OBJECT_WORDS = 16


@cache
def use_verbs() -> str:
    """The verbs of use as an alternation, longest first ("make use of", "adopt", "employ")."""
    verbs = sorted(phrase_list("use_verbs"), key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(w) for w in v.split()) for v in verbs)


def _adverb() -> str:
    return "|".join(sorted(phrase_list("adverbs"), key=len, reverse=True))


def use_reader(mention: str) -> Reader:
    """The object of "we (also) use/adopt/train ..." that ends with the phrase's mention, from
    the words that say which one ("we use the pre-trained GloVe word embeddings" gives
    "pre-trained GloVe word embeddings"; "we propose MetaLDA, a topic model" gives "MetaLDA";
    names sharing the head, "the ConceptNet, WordNet and MCG knowledge bases", all of them).
    None where nothing but articles, counts or vague words stand before the mention ("we use
    two different word embeddings"), where the object runs through a clause ("we use X to
    train Y") or where the mention modifies a noun after it ("the target language side")."""
    statement = re.compile(
        rf"\b(?:we|I)\s+(?:(?:{_adverb()}|\w+ly)\s+){{0,2}}(?:{use_verbs()})\s+"
        rf"(?P<obj>(?:[^\s.;:!?]+\s+){{0,{MAX_OBJECT_WORDS}}}?)(?P<m>{mention})(?![\w-])"
        rf"(?:\s+(?P<next>[\w-]+))?",
        re.I,
    )
    stops = (word_list("dangling") - _INSIDE) | phrase_list("name_stops")

    def read(text: str) -> tuple[str, bool] | None:
        for m in statement.finditer(text):
            words = m.group("obj").split()
            if any(w.lower().strip(",()") in stops for w in words):
                continue  # "we use GloVe to initialise the word embeddings": another clause
            if not m.group("m")[-1:].lower() == "s" and modifies((m.group("next") or "")):
                continue  # "the target language side": the mention names a kind of side
            which = _which(m.group("obj"))
            if which is None:
                continue
            if which == "":
                return (text[m.start("obj") : m.end("m")].split(",")[0].strip(), False)
            start = text.find(which, m.start("obj"))
            if start >= 0:
                return (text[start : m.end("m")], False)
        return None

    return read


def _which(obj: str) -> str | None:
    """The words of a verb's object before the mention that say which one: the last item of
    a list where it has its own ("1024-dimensional LSTMs, 128-dimensional"), the whole list
    where its items share the mention ("ConceptNet, WordNet and MCG"); "" for an appositive
    ("MetaLDA, a"); None where nothing says which one."""
    items = re.split(r",\s|\s(?:and|or)\s", " " + obj + " ")
    last = _meaningful(items[-1].split())
    if len(items) > 1 and not last:
        own_article = re.fullmatch(r"\s*(?:a|an|the)\s*", items[-1], re.I)
        if own_article and obj.rstrip().endswith(", " + items[-1].strip()):
            return "" if _meaningful(items[0].split()) else None  # "MetaLDA, a topic model"
        if own_article or not re.search(r"\s(?:and|or)\s", " " + obj) or not all(
            _meaningful(i.split()) for i in items[:-1] if i.strip()
        ):
            return None
        words = obj.split()
        while words and words[0].lower() in _DETERMINERS:
            words.pop(0)
        return " ".join(words) or None
    if not last:
        return None
    return " ".join(last)


def _meaningful(words: list[str]) -> list[str]:
    """The words from the first that says which one: articles, counts, quantities ("a set
    of", "two"), vague and generic words and citation placeholders dropped."""
    vague = word_list("vague_modifiers") | phrase_list("vague_adjectives")
    counts = phrase_list("number_words") | phrase_list("quantity_nouns")
    kept = list(words)
    while kept:
        w = kept[0].lower().strip("(),")
        if w in _DETERMINERS or w in vague or w in counts or w == "of" or w.isdigit():
            kept.pop(0)
        elif re.fullmatch(r"(?:[A-Z]+REF|INLINEFORM|DISPLAYFORM)\d*", kept[0].strip("(),")):
            kept.pop(0)
        elif w in phrase_list("adverbs") or w.endswith("ly"):
            kept.pop(0)
        else:
            break
    if all(re.fullmatch(r"\W*(?:[A-Z]+REF\d+|INLINEFORM\d+)\W*", w) for w in kept):
        return []
    return kept


def stated_use(text: str, mention: str) -> bool:
    """Whether the sentence states the paper's own use of the mentioned thing: "we use/adopt
    ... X", "our X", "X we use"."""
    own = re.compile(
        rf"\b(?:we|I)\s+(?:(?:{_adverb()}|\w+ly)\s+){{0,2}}(?:{use_verbs()})\b[^.;:]{{0,120}}?"
        rf"{mention}|\bour\s+(?:[\w-]+\s+){{0,3}}{mention}|{mention}\w*\s+(?:that\s+)?we\s+"
        rf"(?:{use_verbs()})",
        re.I,
    )
    return own.search(text) is not None


def names_one(value: str) -> bool:
    """Whether a value names which one rather than a kind: a word with a capital after its
    first letter or a digit ("GloVe", "300-dimensional", "BERT"), or a capitalised word that
    is not the value's first ("pre-trained Glove word embeddings")."""
    words = value.split()
    return any(
        re.search(r"\d|.[A-Z]", w) or (i > 0 and w[:1].isupper()) for i, w in enumerate(words)
    )


_CAPTION = re.compile(r"^\W*(?:Figure|Fig\.|Table)\s*[\w.]*\s*[:.]", re.I)


def caption(text: str) -> bool:
    """Whether the sentence is a figure's or table's caption ("Figure 3: Neural attention
    mechanism for ..."): it labels a picture and states no choice."""
    return _CAPTION.match(text) is not None
