"""Pre-trained models and embeddings a paper's own experiments load, as setup software: what a
reader must download to rerun them ("initialised with 300-dimensional GloVe vectors", "we
fine-tune BERT-base", "we use a pretrained ResNet-50"). The names are the releases of
agent/data/matrix_software.txt's [pretrained models]; a name counts only in a sentence of the
paper's own that uses, loads or fine-tunes it ("we ...", or a passive "are initialised with"),
never one that names it as an example or a model followed ("similar to ULMFiT"), as a baseline
or comparison, in the introduction or related work, in a caption, as another work's, nor a
release the paper trains itself ("we train word2vec on our corpus": the toolkit is the
software then)."""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.extraction import FIRST_PERSON, Unit
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists

SOFTWARE_FILE = "matrix_software.txt"
# where a paper names the representations others used, not its own, or sums up its work
_BACKGROUND = re.compile(
    r"\b(?:abstract|introduction|related|background|prior work|previous work|literature|"
    r"captions?)\b",
    re.I,
)
_OTHERS_SUBJECT = re.compile(
    r"^\W*(?:[A-Z][\w-]+\s+et\s+al\.?|BIBREF\d+|They\b|(?:Existing|Previous|Prior|Earlier)\s)"
)
_PRETRAINED_PASSIVE = re.compile(r"\b(?:is|are|was|were)\s+(?:\w+ly\s+)?pre-?trained\b", re.I)
# a sentence about what the paper compares with ("the baseline provided by the authors: an ELMo
# encoder"), about another work ("prior work in which the authors fine-tune InferSent"), or a
# figure's caption
_NOT_OWN_USE = re.compile(
    r"\bbaselines?\b|\bcompar\w*|\b(?:implemented|developed|proposed|introduced)\s+by\b|"
    r"\bthe\s+authors\b|"
    r"^\W*(?:Figure|Fig\.|Table)\s*\d",
    re.I,
)
# the name as an example ("models such as ELMo, BERT") or a model followed ("similar to ULMFiT",
# "as recommended in BERT", "the same setting as ELMo", "resembles those of BERT"), inside a
# longer name ("Audio Word2Vec"), where something else was used ("the articles used in the
# word2vec implementation"), or what a toolkit was used for ("gensim for Doc2Vec")
_EXAMPLE = (
    r"(?i:\b(?:such\s+as|e\.g\.,?|like|including|similar\s+to|following|unlike|as\s+in|(?<!well\s)as|in|"
    r"for|(?:those|that)\s+of)\s+(?:the\s+)?)"
)
# (a sentence's "Pre-trained GloVe embeddings ..." has its capital from its place: no longer name)
_NOT_ITSELF = re.compile(
    rf"(?:{_EXAMPLE}|\b(?!Pre-?trained\s)[A-Z][\w-]*\s+|(?i:\bused\s+(?:in|by)\s+(?:the\s+)?))$"
)
# the release right after "pre-trained", in a sentence of the paper's own method without "we":
# "a vector obtained by pre-trained Word2Vec model", "Pre-trained GloVe embeddings of dimension 300"
_PRETRAINED_BEFORE = re.compile(r"\bpre-?trained\s+$", re.I)
# an earlier item of the same list ("such as word2vec BIBREF3 and GloVe", "those of BERT and
# RoBERTa"): the example's words hold for every item
_EXAMPLE_LIST = re.compile(
    r"(?i:\b(?:such\s+as|e\.g\.,?|like|including|similar\s+to|(?:those|that)\s+of)\s+)"
    r"(?:[\w-]+\s*(?:BIBREF\d+\s*)?(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+)){1,4}$"
)


@cache
def _lists() -> dict[str, list[str]]:
    names = ("pretrained models", "model variants", "model use words", "model own training")
    return sourced_lists(shipped_text(SOFTWARE_FILE), SOFTWARE_FILE, names)


def _stems(words: list[str]) -> str:
    """An alternation of the words, longest first, a trailing "*" standing for any ending."""
    ordered = sorted(words, key=len, reverse=True)
    return "|".join(
        re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w) for w in ordered
    )


@cache
def _uses() -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-])(?:{_stems(_lists()['model use words'])})(?![\w-])", re.I)


@cache
def _passive_use() -> re.Pattern[str]:
    """An own use without "we": "are initialised with", "were used", "Used the fixed ..."."""
    # not "is pre-trained", which tells how the model was made
    own = ("use", "uses", "using", "pre-trained", "pretrained")
    verbs = _stems([w for w in _lists()["model use words"] if w not in own])
    return re.compile(
        rf"\b(?:is|are|was|were|been|being)\s+(?:\w+ly\s+)?(?:{verbs})\b|^\W*(?:{verbs})\b", re.I
    )


@cache
def _own_training() -> re.Pattern[str]:
    words = _stems(_lists()["model own training"])
    return re.compile(rf"(?<![\w-])(?:{words})\s+(?:(?:a|an|the|our|own|their)\s+)*$", re.I)


@cache
def _trained_after() -> re.Pattern[str]:
    """After the name, the paper's own training of it: "word2vec generated on the training
    set", "trained on our corpus", or the toolkit that implements it ("word2vec model
    implemented in the gensim package")."""
    words = _stems(_lists()["model own training"])
    return re.compile(
        rf"^\s*(?:BIBREF\d+\s*)?(?:[\w-]+\s+){{0,2}}?(?:(?:{words})\s+(?:on|over|from)\s+"
        r"(?:the\s+training|our|this|these|each)\b|implemented\s+(?:in|with|by)\b)",
        re.I,
    )


@cache
def _models() -> re.Pattern[str]:
    """A release's name as written, with its size or casing ("BERT-base", "bert-base-uncased")
    or depth ("ResNet-50", "VGG16"); a name in capitals as written ("BERT", not the name
    "Bert") unless a variant follows ("bert-base"), any other in any case ("Glove")."""
    names = sorted(_lists()["pretrained models"], key=len, reverse=True)

    def spelled(name: str) -> str:
        return re.sub(r"\\[- ]", "[-\\\\s]?", re.escape(name))

    exact = "|".join(spelled(n) for n in names if n.isupper())
    loose = "|".join(spelled(n) for n in names if not n.isupper())
    variants = "|".join(re.escape(v) for v in _lists()["model variants"])
    # a name in capitals in any case before its variant: "bert-base-uncased"
    lowered = rf"(?i:{exact})(?=(?i:[-_](?:{variants}))\b)"
    return re.compile(
        rf"(?<![\w.+#-])(?P<v>(?:{exact}|{lowered}|(?i:{loose}))(?:[-_]?\d+)?"
        rf"(?:(?i:[-_ ](?:{variants})))*)(?![\w+#-])"
    )


def loaded_models(unit: Unit) -> list[str]:
    """The pre-trained models and embeddings a sentence of the paper's own uses, loads or
    fine-tunes, as written; none in the introduction, related work or a caption, in a sentence
    about a baseline or a comparison, where a cited work is the subject, as an example, or
    right after the paper's own training of it."""
    text = unit.text
    if unit.kind in ("table", "caption") or _BACKGROUND.search(unit.section.split(" > ")[0]):
        return []
    if not _uses().search(text) or _NOT_OWN_USE.search(text):
        return []
    # "are pre-trained embeddings from Word2Vec" uses what follows; "BERT-small is pre-trained
    # by ..." tells how a model was made
    start, bare = 0, False
    if not (FIRST_PERSON.search(text) or _passive_use().search(text)):
        made = _PRETRAINED_PASSIVE.search(text)
        if made is None:
            bare = True  # only a release named right after "pre-trained"
        else:
            start = made.end()
    if _OTHERS_SUBJECT.match(text) and not FIRST_PERSON.search(text):
        return []
    out = []
    for m in _models().finditer(text, start):
        before, after = text[: m.start()], text[m.end() :]
        if bare and not _PRETRAINED_BEFORE.search(before):
            continue
        if _NOT_ITSELF.search(before) or _EXAMPLE_LIST.search(before):
            continue
        if _own_training().search(before):
            continue
        if not _trained_after().search(after):
            out.append(m.group("v").strip())
    return out
