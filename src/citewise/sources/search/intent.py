"""What a plain-language request asks for, without a model: years and ranges ("2023-2024",
"since 2020", "last 5 years"), publication types and study designs ("review",
"meta-analysis", "RCT", "preprint"), fields ("title:", "author:", "mesh:") and languages
("in German"), turned into the query model every source translates (pure functions).

The words that carried the intent leave the search terms; `notes` says what each became, so
the parsed query can be shown back and logged."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from citewise.sources.query import Query, quote
from citewise.sources.search.mesh import MeshVocabulary

# Language names a request may use -> ISO 639-1.
LANGUAGES = {
    "english": "en",
    "german": "de",
    "french": "fr",
    "spanish": "es",
    "italian": "it",
    "portuguese": "pt",
    "dutch": "nl",
    "chinese": "zh",
    "japanese": "ja",
    "russian": "ru",
    "korean": "ko",
    "polish": "pl",
    "swedish": "sv",
    "turkish": "tr",
    "arabic": "ar",
}
_LANG = "|".join(LANGUAGES)
_YEAR = r"(?:19|20)\d\d"
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "ten": 10, "twenty": 20}

# (pattern, what it sets); patterns are tried in order on the remaining text.
_PUBLICATION = [
    (
        r"\bsystematic(?:\s+literature)?\s+reviews?\b",
        {"types": "review", "designs": "systematic-review"},
    ),
    (r"\bmeta[\s-]?analy(?:sis|ses|tic)\b", {"designs": "meta-analysis"}),
    (
        r"\brandomi[sz]ed\s+(?:controlled\s+)?(?:clinical\s+)?trials?\b|\brcts?\b",
        {"designs": "rct"},
    ),
    (r"(?<!peer\s)(?<!peer-)\b(?:reviews?|surveys?)\b", {"types": "review"}),
    (r"\bpre-?prints?\b", {"types": "preprint"}),
]
_FIELD = re.compile(r'\b(title|abstract|author|au|mesh|lang|language):\s*("([^"]*)"|\S+)', re.I)


@dataclass(frozen=True)
class Intent:
    """The query a request means, and one note per recognised piece."""

    query: Query
    notes: tuple[str, ...] = ()


def parse_intent(
    text: str,
    today: date | None = None,
    *,
    vocabulary: MeshVocabulary | None = None,
    **options: Any,
) -> Intent:
    """`text` read as a request; `options` (the command line's) win over what the text says.
    With a MeSH `vocabulary`, descriptors the words name become phrases searched as the
    phrase or the subject heading (`Query.headings`)."""
    today = today or date.today()
    notes: list[str] = []
    found: dict[str, Any] = {"types": set(), "designs": set(), "languages": [], "authors": []}
    found["mesh"] = []
    rest = _fields(text, found, notes)
    rest = _years(rest, today, found, notes)
    rest = _publication(rest, found, notes)
    rest = _languages(rest, found, notes)
    rest = _trim(rest)
    headings: tuple[tuple[str, str], ...] = ()
    if vocabulary is not None:
        rest, headings = _headings(rest, vocabulary, notes)
    values: dict[str, Any] = {
        "headings": headings,
        "types": frozenset(found["types"]),
        "designs": frozenset(found["designs"]),
        "languages": tuple(dict.fromkeys(found["languages"])),
        "authors": tuple(found["authors"]),
        "mesh": tuple(found["mesh"]),
    }
    for key in ("year_from", "year_to", "field"):
        if key in found:
            values[key] = found[key]
    for key, value in options.items():
        if value in (None, (), frozenset(), []):
            continue
        if key in ("authors", "mesh", "languages"):
            value = tuple(dict.fromkeys([*values.get(key, ()), *value]))
        elif key in ("types", "designs"):
            value = frozenset(values.get(key, frozenset()) | set(value))
        elif key == "field" and value == "all" and "field" in values:
            continue
        values[key] = value
    return Intent(Query.parse(rest, **values), tuple(notes))


_CONNECTOR = r"(?:and|or|of|on|in|for|from|about|published|studies|papers|articles)"


def _trim(text: str) -> str:
    """The words left, without connectors stranded at either end ("meta-analysis of X")."""
    text = " ".join(text.split())
    while True:
        trimmed = re.sub(rf"^{_CONNECTOR}\s+|\s+{_CONNECTOR}$|^{_CONNECTOR}$", "", text, flags=re.I)
        if trimmed == text:
            return text
        text = trimmed.strip()


_TOKEN = re.compile(r'"[^"]*"|\S+')


def _headings(
    text: str, vocabulary: MeshVocabulary, notes: list[str]
) -> tuple[str, tuple[tuple[str, str], ...]]:
    """Runs of bare words that name a descriptor become quoted phrases, paired with it."""
    out: list[str] = []
    run: list[str] = []
    found: list[tuple[str, str]] = []

    def flush() -> None:
        position = 0
        for start, end, name in vocabulary.find(run):
            out.extend(run[position:start])
            phrase = " ".join(run[start:end])
            out.append(quote(phrase))
            found.append((phrase, name))
            notes.append(f"{phrase} -> MeSH {name} (or the phrase)")
            position = end
        out.extend(run[position:])
        run.clear()

    for token in _TOKEN.findall(text):
        if token.startswith('"') or not re.fullmatch(r"[\w][\w'-]*", token):
            flush()
            out.append(token)
        else:
            run.append(token)
    flush()
    return " ".join(out), tuple(found)


def _fields(text: str, found: dict[str, Any], notes: list[str]) -> str:
    fields: set[str] = set()

    def take(match: re.Match[str]) -> str:
        name = match.group(1).lower()
        value = match.group(3) if match.group(3) is not None else match.group(2)
        value = " ".join(value.split())
        if not value:
            return " "
        if name in ("author", "au"):
            found["authors"].append(value)
            notes.append(f"{match.group(0)} -> author {value}")
            return " "
        if name == "mesh":
            found["mesh"].append(value)
            notes.append(f"{match.group(0)} -> MeSH {value}")
            return " "
        if name in ("lang", "language"):
            code = LANGUAGES.get(value.lower(), value.lower())
            found["languages"].append(code)
            notes.append(f"{match.group(0)} -> language {code}")
            return " "
        fields.add(name)
        return f' "{value}" ' if match.group(3) is not None else f" {value} "

    rest = _FIELD.sub(take, text or "")
    if len(fields) == 1:
        found["field"] = fields.pop()
        notes.append(f"{found['field']}: -> the words must match the {found['field']}")
    elif fields:
        notes.append("title: and abstract: together -> the words may match anywhere")
    return rest


def _years(text: str, today: date, found: dict[str, Any], notes: list[str]) -> str:
    rules = [
        (rf"\b(?:from|between)?\s*({_YEAR})\s*(?:-|–|—|to|and|until)\s*({_YEAR})\b", "range"),
        (r"\b(?:in\s+)?(?:the\s+)?(?:last|past)\s+(\d+|\w+)\s+years?\b", "last"),
        (r"\b(?:in\s+)?(?:the\s+)?(?:last|past)\s+decade\b", "decade"),
        (rf"\b(?:since|after|from)\s+({_YEAR})\b|\b({_YEAR})\s+onwards?\b", "since"),
        (rf"\b(?:before|until|up\s+to|through)\s+({_YEAR})\b", "until"),
        (rf"\b(?:in|published\s+in|during)\s+({_YEAR})\b", "in"),
    ]
    for pattern, kind in rules:
        match = re.search(pattern, text, flags=re.I)
        if not match:
            continue
        groups = [g for g in match.groups() if g]
        span = match.group(0).strip()
        if kind == "range":
            first, last = sorted((int(groups[0]), int(groups[1])))
            found["year_from"], found["year_to"] = first, last
        elif kind in ("last", "decade"):
            count = 10 if kind == "decade" else _count(groups[0])
            if count is None:
                continue
            found["year_from"], found["year_to"] = today.year - count + 1, today.year
        elif kind == "since":
            year = int(groups[0])
            found["year_from"] = year + 1 if span.lower().startswith("after") else year
        elif kind == "until":
            year = int(groups[0])
            found["year_to"] = year - 1 if span.lower().startswith("before") else year
        else:
            found["year_from"] = found["year_to"] = int(groups[0])
        notes.append(f"{span} -> years {_span(found)}")
        text = text[: match.start()] + " " + text[match.end() :]
        break
    return text


def _count(word: str) -> int | None:
    if word.isdigit():
        return int(word) if 0 < int(word) < 200 else None
    return _NUMBER_WORDS.get(word.lower())


def _span(found: dict[str, Any]) -> str:
    return f"{found.get('year_from') or '…'}-{found.get('year_to') or '…'}"


def _publication(text: str, found: dict[str, Any], notes: list[str]) -> str:
    for pattern, sets in _PUBLICATION:
        match = re.search(pattern, text, flags=re.I)
        if not match:
            continue
        for key, value in sets.items():
            found[key].add(value)
        what = ", ".join(f"{k[:-1]} {v}" for k, v in sets.items())
        notes.append(f"{match.group(0)} -> {what}")
        text = re.sub(pattern, " ", text, flags=re.I)
    return text


def _languages(text: str, found: dict[str, Any], notes: list[str]) -> str:
    pattern = (
        rf"\b(?:in|written\s+in)\s+({_LANG})\b|\b({_LANG})[\s-]language\b|\b({_LANG})\s+only\b"
    )
    for match in re.finditer(pattern, text, flags=re.I):
        name = next(g for g in match.groups() if g).lower()
        found["languages"].append(LANGUAGES[name])
        notes.append(f"{match.group(0)} -> language {LANGUAGES[name]}")
    return re.sub(pattern, " ", text, flags=re.I)


def describe(query: Query) -> dict[str, Any]:
    """The parsed query as plain data (what `search --json` shows and the log records)."""
    return {
        "terms": list(query.terms),
        "phrases": list(query.phrases),
        "field": query.field,
        "authors": list(query.authors),
        "mesh": list(query.mesh),
        "headings": [{"phrase": p, "mesh": m} for p, m in query.headings],
        "year_from": query.year_from,
        "year_to": query.year_to,
        "types": sorted(query.types),
        "designs": sorted(query.designs),
        "languages": list(query.languages),
        "open_access": query.open_access,
        "min_citations": query.min_citations,
        "limit": query.limit,
    }


def summary(query: Query) -> str:
    """One line for a table header: words, then each filter that is set."""
    parts = [" ".join([*(f'"{p}"' for p in query.phrases), *query.terms]) or "(no words)"]
    if query.field != "all":
        parts.append(f"in {query.field}")
    if query.year_from or query.year_to:
        parts.append(f"years {query.year_from or '…'}-{query.year_to or '…'}")
    for label, values in (
        ("type", sorted(query.types)),
        ("design", sorted(query.designs)),
        ("language", list(query.languages)),
        ("author", list(query.authors)),
        ("MeSH", list(query.mesh)),
        ("MeSH or phrase", [m for _, m in query.headings]),
    ):
        if values:
            parts.append(f"{label} {', '.join(values)}")
    return " · ".join(parts)
