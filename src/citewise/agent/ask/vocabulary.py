"""Vocabulary learned from the library: the abbreviations its papers define ("learning rate
(LR)") and the names they introduce ("S2ORC"), so a question in other words still finds
the passage ("What learning rate ..." against "LR: 3e-4") and names its paper.

Extraction is plain code over each document's text at ingest (no hand-written lists);
`Vocabulary` turns the stored terms into query expansions and coverage aliases.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from citewise.retrieval.terms import STOPWORDS, content_terms, stem, tokens
from citewise.store.protocols import Store
from citewise.store.sqlite.vocabulary import Term

if TYPE_CHECKING:
    from citewise.documents.model import Document

_DEFINED = re.compile(r"\(\s*([A-Za-z][A-Za-z0-9\-]{1,9}s?)\s*(?:[,;:)]|\))")
# A name a paper introduces: mixed case or capitals with a digit ("S2ORC", "OLMo", "VESPA").
# Written capital first, the "no word character before it" test after it: the regex engine
# then jumps from capital to capital instead of trying the look-behind at every character.
_NAME = re.compile(r"([A-Z](?<![\w-].)[A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*(?:-[A-Z0-9]+)?)(?![\w-])")
NAME_MIN_COUNT = 3


def _initials_match(short: str, words: list[str]) -> bool:
    letters = [c.lower() for c in short if c.isalpha()]
    if short.endswith("s") and len(letters) > 2:
        letters = letters[:-1]  # "CNNs"
    initials = [w[0].lower() for w in words if w]
    return initials == letters


def abbreviations(text: str) -> list[tuple[str, str]]:
    """(short, long) pairs a text defines as "long form (SHORT)", initials matching."""
    found: list[tuple[str, str]] = []
    if "(" not in text:  # most blocks define nothing: skip the scan
        return found
    for match in _DEFINED.finditer(text):
        short = match.group(1)
        if not any(c.isupper() for c in short):
            continue
        before = re.findall(r"[A-Za-z][\w-]*", text[max(0, match.start() - 120) : match.start()])
        n = len([c for c in short if c.isalpha()]) - (1 if short.endswith("s") else 0)
        for size in (n, n + 1):  # allow one small word inside ("rate of learning")
            words = [w for w in before[-size:] if w.lower() not in ("of", "the", "and", "for")]
            if len(before) >= size and _initials_match(short, words):
                found.append((short.rstrip("s") if short.endswith("s") else short,
                              " ".join(before[-size:])))  # fmt: skip
                break
    return found


def introduced_names(texts: list[str]) -> list[str]:
    """Name-like tokens a document uses at least three times."""
    # One scan of all texts: no name spans a line break, and a break is no word character,
    # so the texts joined give the names of each text (findall: the one group, the name).
    counts = Counter(_NAME.findall("\n".join(texts)))
    return sorted(
        n
        for n, c in counts.items()
        if c >= NAME_MIN_COUNT and len(n) >= 3 and n.lower() not in STOPWORDS
    )


def document_terms(doc_id: str, texts: list[str]) -> list[Term]:
    """The abbreviations a document's trusted `texts` define and the names they introduce,
    in the order they are stored."""
    terms = {Term(doc_id, "abbreviation", s, lf) for t in texts for s, lf in abbreviations(t)}
    terms |= {Term(doc_id, "name", n) for n in introduced_names(texts)}
    return sorted(terms, key=lambda t: (t.kind, t.short, t.long))


def learn(store: Store) -> int:
    """Extract and store the vocabulary of documents not learned yet; how many were."""
    pending = store.vocabulary.unlearned_documents()
    for doc_id, sha in pending:
        texts = [b.text for b in store.blocks(doc_id) if b.trusted]
        store.vocabulary.save_terms(doc_id, sha, document_terms(doc_id, texts))
    return len(pending)


def learning(store: Store) -> Callable[[str, Document], None]:
    """What learns the vocabulary of each document just stored from its parse (the blocks
    stored are its blocks), so it is not read back from `store` afterwards."""

    def learn_stored(doc_id: str, doc: Document) -> None:
        texts = [b.text for b in doc.blocks if b.trusted]
        store.vocabulary.save_terms(doc_id, doc.sha256, document_terms(doc_id, texts))

    return learn_stored


@dataclass
class Vocabulary:
    """The library's learned terms, for expansion and for naming papers."""

    terms: list[Term] = field(default_factory=list)

    @classmethod
    def of(cls, store: Store) -> Vocabulary:
        learn(store)
        return cls(store.vocabulary.all_terms())

    def names_by_document(self) -> dict[str, set[str]]:
        """Names and defined abbreviations that only one document has (a name shared by
        several papers does not pick one out)."""
        owners: dict[str, set[str]] = {}
        for t in self.terms:
            owners.setdefault(t.short, set()).add(t.document_id)
        names: dict[str, set[str]] = {}
        for t in self.terms:
            if len(owners[t.short]) == 1:
                names.setdefault(t.document_id, set()).add(t.short)
        return names

    @cached_property
    def _abbreviations(self) -> list[tuple[str, list[str], frozenset[str], str]]:
        """Per abbreviation: its short form (lower case), its long form's content words,
        their stems, and its tokens joined between spaces; read once, not per question."""
        found = []
        for t in self.terms:
            long_words = content_terms(t.long) if t.kind == "abbreviation" else []
            if long_words:
                stems = frozenset(stem(w) for w in long_words)
                found.append((t.short.lower(), long_words, stems, f" {' '.join(tokens(t.long))} "))
        return found

    def aliases(self, text: str) -> tuple[list[str], dict[str, list[frozenset[str]]]]:
        """Extra search terms for a question, and per question-term stem the alternative
        stem sets that also cover it ("lr" covers "learning" and "rate", and back)."""
        question_tokens = tokens(text)
        joined = " " + " ".join(question_tokens) + " "
        extra: list[str] = []
        aliases: dict[str, list[frozenset[str]]] = {}
        for short, long_words, long_stems, long_joined in self._abbreviations:
            if long_joined in joined and short not in question_tokens:
                extra += [short, short + "s"]  # "KB" and "KBs"
                for w in long_words:
                    aliases.setdefault(stem(w), []).extend(
                        [frozenset({short}), frozenset({short + "s"})]
                    )
            elif short in question_tokens:
                extra += [w for w in long_words if w not in question_tokens]
                aliases.setdefault(stem(short), []).append(long_stems)
        return list(dict.fromkeys(extra)), aliases


_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺−", "0123456789-+-")
_TO_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_SCIENTIFIC = re.compile(
    r"(\d+(?:\.\d+)?)\s*(?:[eE]\s*([-+]?\d+)|[×x*]\s*10\s*(?:\^|\*\*)?\s*\(?([-+]?\d+)\)?)"
)


def scientific_numbers(text: str) -> list[tuple[str, str, int]]:
    """(as written, mantissa, exponent) of numbers in scientific notation ("2e-5",
    "2 × 10⁻⁵", "2x10^-5")."""
    plain = text.translate(_SUPERSCRIPT)
    found = []
    for match in _SCIENTIFIC.finditer(plain):
        exponent = match.group(2) or match.group(3)
        found.append((match.group(0), match.group(1), int(exponent)))
    return found


def number_aliases(text: str) -> tuple[list[str], dict[str, list[frozenset[str]]]]:
    """Search terms and coverage aliases that let "2e-5" in a question find "2 × 10⁻⁵" or
    "0.00002" in a paper, and back."""
    extra: list[str] = []
    aliases: dict[str, list[frozenset[str]]] = {}
    for written, mantissa, exponent in scientific_numbers(text):
        value = float(mantissa) * 10.0**exponent
        decimal = f"{value:.12f}".rstrip("0").rstrip(".")
        superscript = str(abs(exponent)).translate(_TO_SUPERSCRIPT)
        forms = [
            tokens(f"{mantissa}e{exponent}"),
            tokens(f"{mantissa} × 10^{exponent}"),
            tokens(f"{mantissa} × 10⁻{superscript}"),
            tokens(decimal),
        ]
        asked = {stem(t) for t in tokens(written)}
        for form in forms:
            extra += form
            for term in asked:
                aliases.setdefault(term, []).append(frozenset(stem(t) for t in form))
    return list(dict.fromkeys(extra)), aliases
