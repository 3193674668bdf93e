"""The query model every source translates: words and quoted phrases, the field they must
match, authors, subject headings, years, publication types, open access, citations, limit."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field

from citewise.errors import CitewiseError, Kind
from citewise.sources.record import KINDS

FIELDS = ("all", "title", "abstract")
# Study designs a source may filter on (PubMed [pt], Europe PMC PUB_TYPE, S2 publicationTypes).
DESIGNS = ("meta-analysis", "systematic-review", "rct")
# ISO 639-1 -> (English name as PubMed's [la] takes it, ISO 639-2 as Europe PMC's LANG takes it).
LANGUAGE_CODES = {
    "en": ("english", "eng"),
    "de": ("german", "ger"),
    "fr": ("french", "fre"),
    "es": ("spanish", "spa"),
    "it": ("italian", "ita"),
    "pt": ("portuguese", "por"),
    "nl": ("dutch", "dut"),
    "zh": ("chinese", "chi"),
    "ja": ("japanese", "jpn"),
    "ru": ("russian", "rus"),
    "ko": ("korean", "kor"),
    "pl": ("polish", "pol"),
    "sv": ("swedish", "swe"),
    "tr": ("turkish", "tur"),
    "ar": ("arabic", "ara"),
}


class QueryError(CitewiseError):
    """A query the sources cannot run (empty, a bad year range, an unknown type)."""

    code = "BAD_QUERY"
    kind: Kind = "invalid"


_TOKEN = re.compile(r'"([^"]*)"|(\S+)')


@dataclass(frozen=True)
class Query:
    """What the user asked for, before any source's syntax.

    `terms` are single words, `phrases` quoted word sequences; all must match (AND) in
    `field` ("all", "title" or "abstract")."""

    terms: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    field: str = "all"
    authors: tuple[str, ...] = ()
    mesh: tuple[str, ...] = ()  # subject headings (PubMed [mh], Europe PMC MESH:)
    # (phrase, descriptor): a phrase of the words that names a MeSH descriptor; sources with
    # subject headings search "the phrase OR the heading", the others the phrase.
    headings: tuple[tuple[str, str], ...] = ()
    year_from: int | None = None
    year_to: int | None = None
    types: frozenset[str] = dataclass_field(default_factory=frozenset)
    designs: frozenset[str] = dataclass_field(default_factory=frozenset)
    languages: tuple[str, ...] = ()  # ISO 639-1 codes ("en", "de")
    open_access: bool = False
    min_citations: int | None = None
    limit: int = 20
    # Only records added since this day (YYYY-MM-DD): arXiv submission date, PubMed Entrez
    # date. Used by `citewise watch`; other sources rely on its list of records already seen.
    added_since: str | None = None

    @classmethod
    def parse(cls, text: str, **options: object) -> Query:
        """Split `text` into words and "quoted phrases"; options set the other fields."""
        terms: list[str] = []
        phrases: list[str] = []
        for phrase, word in _TOKEN.findall(text or ""):
            if phrase.strip():
                phrases.append(" ".join(phrase.split()))
            elif word:
                cleaned = word.strip('"')
                if cleaned:
                    terms.append(cleaned)
        query = cls(terms=tuple(terms), phrases=tuple(phrases))
        # `options` are Query's own field names (the callers' keyword arguments); replace()
        # checks the names at run time, mypy cannot check `**object` against the fields.
        return replace(query, **options).checked() if options else query.checked()  # type: ignore[arg-type]

    def checked(self) -> Query:
        """This query, or a QueryError saying what is wrong with it."""
        if not (self.terms or self.phrases or self.authors or self.mesh):
            raise QueryError("the query is empty", hint='give some words, e.g. "protein folding"')
        if self.field not in FIELDS:
            raise QueryError(
                f"unknown field '{self.field}'", hint=f"use one of {', '.join(FIELDS)}"
            )
        unknown = set(self.types) - set(KINDS)
        if unknown:
            raise QueryError(
                f"unknown publication type '{sorted(unknown)[0]}'", hint=f"use {', '.join(KINDS)}"
            )
        if set(self.designs) - set(DESIGNS):
            raise QueryError(
                f"unknown study design '{sorted(set(self.designs) - set(DESIGNS))[0]}'",
                hint=f"use {', '.join(DESIGNS)}",
            )
        unknown_languages = [code for code in self.languages if code not in LANGUAGE_CODES]
        if unknown_languages:
            raise QueryError(
                f"unknown language '{unknown_languages[0]}'",
                hint=f"use an ISO 639-1 code: {', '.join(LANGUAGE_CODES)}",
            )
        if self.year_from and self.year_to and self.year_from > self.year_to:
            raise QueryError(f"--since {self.year_from} is after --until {self.year_to}")
        if self.added_since and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", self.added_since):
            raise QueryError(f"bad date '{self.added_since}'", hint="use YYYY-MM-DD")
        if self.limit < 1:
            raise QueryError("--limit must be at least 1")
        return self

    @property
    def text(self) -> str:
        """The words and phrases as plain text (for sources without operators, and ranking)."""
        return " ".join([*self.phrases, *self.terms])

    @property
    def words(self) -> list[str]:
        """Every word of the terms and phrases, lower-cased (for ranking)."""
        return [w.lower() for w in re.findall(r"\w+", " ".join([*self.phrases, *self.terms]))]

    def wants(self, kind: str | None) -> bool:
        """Whether a record of this kind passes the --type filter (unknown kinds pass)."""
        if not self.types or kind is None:
            return True
        if kind == "review":
            # A review is also an article.
            return bool({"review", "article"} & self.types)
        return kind in self.types


def coerce(query: str | Query) -> Query:
    return query.checked() if isinstance(query, Query) else Query.parse(query)


def quote(text: str) -> str:
    """A phrase in double quotes, without inner quotes."""
    return '"' + text.replace('"', " ").strip() + '"'
