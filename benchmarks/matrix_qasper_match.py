"""The reading and matching rule of benchmarks/matrix_qasper.py: which matrix column a
QASPER question asks (the question forms file) and when a cell names a gold answer.

The forms file (benchmarks/matrix_qasper_forms.txt; its header says how it was written) has
sections: `[column: NAME]` (question forms, regular expressions, for that column), `[exclude]`
(forms that ask no column), `[generic]` words, `[same]` spellings of one name and `[head ends]`.
A question asks a column when a form of exactly one column matches it and no excluded form does.

The matching rule (`Forms.names_item`, `Forms.names_answer`):
- Text is normalised: Unicode NFKC, dashes and quotes folded, the converter's placeholders
  (BIBREF3, TABREF2, INLINEFORM0, ...) dropped, lower case, split into words of letters and
  digits; a word loses a plural "s" (four or more letters, not "ss"); the spellings the forms
  file's [same] section joins become one ("F-measure", "F-score", "F1" -> "f1").
- A gold answer (one `accept` string) is a list of items split at "," ";" "/" "&" and the
  words "and" / "or". A parenthesis is dropped from its item; when it holds one word with a
  capital letter in the gold ("(HRC)"), that abbreviation alone names the item too.
- An item's distinctive words are its words minus the forms file's [generic] words ("the",
  "dataset", "model", ...), or all its words when none is left. A cell names an item when the
  cell holds every distinctive word of the item, or when one of the cell's parts (split as an
  answer is) is a shorter form of the item: the part's distinctive words, not only numbers,
  all among the item's words and covering at least half of the distinctive words of the
  item's head, its words before the first [head ends] word such as "of", "at" ("Lakeside
  2019" names "Lakeside 2019 Welsh NER", "recall" names "recall at a fixed cutoff"; "Welsh"
  names neither). In the `dataset size` column an item holding a number is named when the
  cell holds each of its numbers (commas and thin spaces between thousands dropped, "10K",
  "64M", "1.3 million" read as 10000, 64000000, 1300000), whatever its words.
- A filled cell is **right** when it names at least one item of one accept string; it
  **names all** when it names every item of one accept string. "not stated" is a miss.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

SENTENCE_WORDS = 12
SIZE_COLUMN = "dataset size"

_PLACEHOLDER = re.compile(
    r"\b(?:BIBREF|TABREF|FIGREF|SECREF|EQREF|INLINEFORM|DISPLAYFORM|UID)\d+\b"
)
# a comma inside a number ("5,415 sentences") splits nothing
_SPLIT = re.compile(r"\s*(?:,(?!\d{3}(?!\d))|[;/&]|\band\b|\bor\b)\s*", re.I)
_PAREN = re.compile(r"\(([^()]*)\)")
_WORD = re.compile(r"[a-z0-9]+")
_NUMBER = re.compile(r"(\d+(?:\.\d+)?)\s*(k|m|b|thousand|million|billion)?\b", re.I)
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "billion": 1e9}


@dataclass(frozen=True)
class Item:
    """One thing a gold answer (or a cell) names: its words, its distinctive words (no generic
    word), an abbreviation given in parentheses, its numbers."""

    text: str
    words: frozenset[str]
    distinctive: frozenset[str]
    head: frozenset[str]  # distinctive words before the first head end ("of", "at", ...)
    abbreviation: frozenset[str]
    numbers: frozenset[float]


@dataclass(frozen=True)
class Forms:
    columns: dict[str, list[re.Pattern[str]]]
    exclude: list[re.Pattern[str]]
    generic: frozenset[str]
    same: tuple[tuple[tuple[str, ...], str], ...] = ()  # (spelling, kept), longest first
    head_ends: frozenset[str] = frozenset()

    def column(self, question: str) -> str | None:
        """The column a question asks, or None (no form, an excluded form, or two columns)."""
        q = " ".join(question.split())
        if any(p.search(q) for p in self.exclude):
            return None
        hits = [c for c, forms in self.columns.items() if any(p.search(q) for p in forms)]
        return hits[0] if len(hits) == 1 else None

    def words(self, text: str) -> list[str]:
        """Normalised words, one spelling per name ("F-measure" -> "f1")."""
        found = [_stem(w) for w in _WORD.findall(clean(text).lower())]
        out, i = [], 0
        while i < len(found):
            for spelling, kept in self.same:
                if tuple(found[i : i + len(spelling)]) == spelling:
                    out.append(kept)
                    i += len(spelling)
                    break
            else:
                out.append(found[i])
                i += 1
        return out

    def items(self, answer: str) -> list[Item]:
        out = []
        for part in _SPLIT.split(clean(answer)):
            abbreviation: frozenset[str] = frozenset()
            for inner in _PAREN.findall(part):
                if len(inner.split()) == 1 and any(c.isupper() for c in inner):
                    abbreviation = frozenset(self.words(inner))
            bare = _PAREN.sub(" ", part)
            every = self.words(bare)
            if not every and not abbreviation:
                continue
            distinctive = [w for w in every if w not in self.generic] or every
            cut = next((i for i, w in enumerate(every) if w in self.head_ends), len(every))
            head = [w for w in every[:cut] if w not in self.generic] or distinctive
            out.append(
                Item(
                    part,
                    frozenset(every),
                    frozenset(distinctive),
                    frozenset(head),
                    abbreviation,
                    frozenset(numbers(bare)),
                )  # fmt: skip
            )
        return out

    def names_item(self, cell: str, item: Item, column: str) -> bool:
        """The cell names the item: it holds the item's distinctive words (or its abbreviation,
        or in the size column its numbers), or one of the cell's parts is a shorter form of the
        item (its distinctive words, not only numbers, all in the item and covering at least
        half of the distinctive words of the item's head)."""
        if column == SIZE_COLUMN and item.numbers:
            return item.numbers <= numbers(cell)
        have = set(self.words(cell))
        if item.abbreviation and item.abbreviation <= have:
            return True
        if item.distinctive and item.distinctive <= have:
            return True
        for part in self.items(cell):
            shared = part.distinctive & item.head
            if (part.distinctive and part.distinctive <= item.words
                    and any(not w.isdigit() for w in part.distinctive)
                    and 2 * len(shared) >= len(item.head)):  # fmt: skip
                return True
        return False

    def names_answer(self, cell: str, accept: list[str], column: str) -> tuple[bool, bool]:
        """(names an item of some accept string, names every item of some accept string)."""
        one = every = False
        for answer in accept:
            found = [self.names_item(cell, i, column) for i in self.items(answer)]
            one = one or any(found)
            every = every or (bool(found) and all(found))
        return one, every


def read_forms(text: str) -> Forms:
    sections: dict[str, list[str]] = {}
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head = re.fullmatch(r"\[(.+)\]", line)
        if head:
            current = head.group(1).strip()
            sections[current] = []
        elif current is None:
            raise SystemExit(f"the forms file: a line before any section: {line!r}")
        else:
            sections[current].append(line)
    columns = {
        name.split(":", 1)[1].strip(): [re.compile(p, re.I) for p in lines]
        for name, lines in sections.items()
        if name.startswith("column:")
    }
    exclude = [re.compile(p, re.I) for p in sections.get("exclude", [])]
    generic = frozenset(_stem(w) for line in sections.get("generic", []) for w in line.split())
    same = []
    for line in sections.get("same", []):
        spellings = [tuple(_stem(w) for w in _WORD.findall(s.lower())) for s in line.split(" = ")]
        same += [(s, " ".join(spellings[0])) for s in spellings if s]
    same.sort(key=lambda pair: -len(pair[0]))
    ends = frozenset(w for line in sections.get("head ends", []) for w in line.split())
    return Forms(columns, exclude, generic, tuple(same), ends)


def _stem(word: str) -> str:
    return word[:-1] if len(word) >= 4 and word.endswith("s") and not word.endswith("ss") else word


def clean(text: str) -> str:
    text = _PLACEHOLDER.sub(" ", unicodedata.normalize("NFKC", text))
    text = re.sub(r"[‐‑‒–—−]", "-", text).replace("’", "'").replace("“", '"').replace("”", '"')
    return " ".join(text.split())


def numbers(text: str) -> set[float]:
    text = clean(text)
    text = re.sub(r"(?<=\d)[,\u2009\u202f](?=\d{3}\b)", "", text)
    text = re.sub(r"\b(\d{1,3}) (?=\d{3}\b)", r"\1", text)  # "13 000"
    out = set()
    for m in _NUMBER.finditer(text):
        scale = _SCALE.get((m.group(2) or "").lower(), 1.0)
        out.add(round(float(m.group(1)) * scale, 6))
    return out


def is_sentence(accept: list[str]) -> bool:
    return all(len(clean(a).split()) > SENTENCE_WORDS for a in accept)
