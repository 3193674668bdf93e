"""Bibliography entries: split, parsed into authors / title / year / venue / DOI / arXiv ID.

Works on the reader's 'reference' blocks (one per entry as printed). Entries broken by a
page or column are joined again; trailing matter (publisher adverts, 'Cite this article')
is dropped. Parsing covers the common styles: ACL/APA (`Authors. 2017. Title. Venue.`),
JSS (`Authors (2003). "Title." Venue`), IEEE (`[1] A. Author, "Title," Venue, 1997.`)
and Vancouver (`1. Author AB, Other C: Title. Journal 2006, 19:516-532.`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import islice
from typing import Protocol

from citewise.documents.model import Citation, Reference
from citewise.documents.pdf.metadata import DOI

MARKER = re.compile(r"^\s*(?:\[(\d{1,4})\]|(\d{1,4})\.(?=\s)|(\d{1,4})\s(?=[A-Z]))\s*")
YEAR = r"(?:19|20)\d{2}[a-z]?"
ARXIV = re.compile(
    r"(?:arXiv:\s*|arxiv\.org/(?:abs|pdf)/|(?:arXiv|CoRR),?\s+abs/)"
    r"((?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)",
    re.I,
)
QUOTED = re.compile(r"[“\"](.+?)[,.]?[”\"]")
LEAD_YEAR = re.compile(rf"^(.*?)[\s,.]*\(({YEAR}|n\.d\.)\)[.,:]?\s*(.*)$", re.S)  # Smith J (2003).
DOT_YEAR = re.compile(rf"^(.*?)\.\s+({YEAR})\.\s+(.*)$", re.S)  # Authors. 2017. Title.
VANCOUVER = re.compile(r"^([^:]{3,400}?):\s+(.*)$", re.S)  # Authors: Title. Journal 2006
ANY_YEAR = re.compile(rf"(?<![\d/.])({YEAR})(?![\d])")
END = (".", "?", "!")
# patterns the parse asks for hundreds of times a document, compiled once
WORDS2 = re.compile(r"[A-Za-z]{2,}")
TRAILING_DOI = re.compile(r"\b(?:DOI|doi)\s*:?\s*$")
SENTENCE_END = re.compile(r"[.?!]\s+")
LAST_WORD = re.compile(r"(\S+)$")
ABBREVIATION = re.compile(r"[A-Z]|[A-Z][a-z]?|al|vs|eds?|pp|vol|no|St|Jr|Dr|Inc|Proc")
CAPS2 = re.compile(r"[A-Z][A-Z]?")
ET_AL = re.compile(r"\bet al\.?")
AND = re.compile(r",?\s+(?:and|&)\s+")
LIST_SEP = re.compile(r"\s*[,;]\s*")
INITIALS = re.compile(r"(?:[A-Z]\.?\s?-?){1,4}")
LETTERS2 = re.compile(r"[A-Za-z]{2}")
IN_LEAD = re.compile(r"^In\s+")
CAPS4 = re.compile(r"[A-Z]{1,4}")
RANGE_SEP = re.compile(r"\s*[-–]\s*")


class ReferenceBlock(Protocol):
    @property
    def ordinal(self) -> int: ...
    @property
    def text(self) -> str: ...


def parse_bibliography(blocks: Sequence[ReferenceBlock]) -> list[Reference]:
    """One Reference per entry from reference blocks in reading order."""
    entries: list[tuple[int, str]] = []  # (first block ordinal, text)
    numbered = sum(bool(MARKER.match(b.text) and _marker(b.text)) for b in blocks) >= 0.5 * max(
        1, len(blocks)
    )
    for block in blocks:
        text = " ".join(block.text.split())
        if not text:
            continue
        if entries and _continues(entries[-1][1], text, numbered):
            entries[-1] = (entries[-1][0], _join(entries[-1][1], text))
            continue
        if numbered and not _marker(text) and entries:
            continue  # after a numbered list: adverts, 'Cite this article as', page furniture
        entries.append((block.ordinal, text))
    out: list[Reference] = []
    for first, text in entries:
        if not _plausible(text):
            continue
        ref = parse_reference(text)
        ref.ordinal = len(out)
        ref.block = first
        out.append(ref)
    return out


def _marker(text: str) -> str | None:
    m = MARKER.match(text)
    return next((g for g in m.groups() if g), None) if m else None


def _continues(previous: str, text: str, numbered: bool) -> bool:
    """An entry broken by a column or page end: the piece after the break."""
    if numbered:
        return not _marker(text) and not previous.rstrip().endswith(END)
    # author-year: a piece with no year of its own after an entry that has none yet
    dated = ANY_YEAR.search(previous) is not None  # one scan of the entry so far
    unfinished = not previous.rstrip().endswith(END) or not dated
    return unfinished and (not dated or text[:1].islower())


def _join(left: str, right: str) -> str:
    if left.endswith("-") and right[:1].islower():
        return left[:-1] + right
    return f"{left} {right}"


def _plausible(text: str) -> bool:
    """A bibliography entry has a year (or 'n.d.'), a DOI or an arXiv ID, and some words."""
    has_id = ANY_YEAR.search(text) or "n.d." in text or _doi(text) or _arxiv(text)
    return bool(has_id) and next(islice(WORDS2.finditer(text), 2, None), None) is not None


def _doi(text: str) -> re.Match[str] | None:
    """DOI.search, which needs '10.' somewhere (a literal check is a C-speed scan)."""
    return DOI.search(text) if "10." in text else None


def _arxiv(text: str) -> re.Match[str] | None:
    """ARXIV.search: in ASCII text a match holds 'arxiv' or 'corr' in some case (the
    case-blind regex is tried at every position; other text may fold other letters)."""
    if text.isascii():
        lower = text.lower()
        if "arxiv" not in lower and "corr" not in lower:
            return None
    return ARXIV.search(text)


def parse_reference(raw: str) -> Reference:
    """Authors, title, year, venue, DOI and arXiv ID of one entry (best effort)."""
    text = " ".join(raw.split())
    marker = _marker(text)
    body = MARKER.sub("", text, count=1) if marker else text
    doi_m = _doi(body)
    doi = doi_m.group(0).rstrip(".,;:)]}'\"") if doi_m else None
    arxiv_m = _arxiv(body)
    arxiv = arxiv_m.group(1) if arxiv_m else None
    clean = DOI.sub("", body).strip() if doi_m else body.strip()
    if "doi" in clean or "DOI" in clean:  # what TRAILING_DOI needs
        clean = TRAILING_DOI.sub("", clean)
    clean = clean.strip(" .,;")
    authors_part, title, venue, year = _split(clean)
    return Reference(
        ordinal=0,
        raw=text,
        authors=split_authors(authors_part),
        title=_tidy(title) or None,
        year=int(year[:4]) if year and year[:4].isdigit() else None,
        venue=_tidy(venue) or None,
        doi=doi,
        arxiv_id=arxiv,
        marker=marker,
    )


def _split(body: str) -> tuple[str, str, str, str | None]:
    """(authors, title, venue, year) by citation style."""
    m = DOT_YEAR.match(body)
    if m and len(m.group(1)) < 600:
        title, venue = _first_sentence(m.group(3))
        return m.group(1), title, venue, m.group(2)
    m = LEAD_YEAR.match(body)
    if m and len(m.group(1)) < 400 and not QUOTED.search(m.group(1)):
        rest = m.group(3)
        q = QUOTED.match(rest.strip())
        if q:
            return m.group(1), q.group(1), rest.strip()[q.end() :], m.group(2)
        title, venue = _first_sentence(rest)
        return m.group(1), title, venue, m.group(2)
    years = ANY_YEAR.findall(body)
    year = years[-1] if years else None
    q = QUOTED.search(body)
    if q:  # IEEE: A. Author, B. Author, "Title," Venue, vol. 3, 1997.
        return body[: q.start()], q.group(1), body[q.end() :], year
    m = VANCOUVER.match(body)
    if m and len(m.group(1).split(",")) >= 1 and not ANY_YEAR.search(m.group(1)):
        title, venue = _first_sentence(m.group(2))
        return m.group(1), title, venue, year
    authors, rest = _first_sentence(body, names=True)
    title, venue = _first_sentence(rest)
    return authors, title, venue, year


def _first_sentence(text: str, names: bool = False) -> tuple[str, str]:
    """Split at the first '. ' that ends a sentence (not an initial like 'M. ' or 'et al. ')."""
    for m in SENTENCE_END.finditer(text):
        before = text[: m.start()]
        word = LAST_WORD.search(before)
        last = word.group(1) if word else ""
        if ABBREVIATION.fullmatch(last):
            continue  # an initial or abbreviation
        if names and CAPS2.fullmatch(last):
            continue
        return before, text[m.end() :]
    return text, ""


def split_authors(text: str) -> list[str]:
    """'A. Smith, B. Jones, and C. Lee' / 'Smith AB, Jones C' / 'Smith, J., & Lee, K.'."""
    text = ET_AL.sub("", text).strip(" .,;:")
    if not text:
        return []
    text = AND.sub(", ", text)
    parts = [p.strip(" .") for p in LIST_SEP.split(text) if p.strip(" .")]
    names: list[str] = []
    for part in parts:
        # 'Smith, J.' comes apart at the comma: initials join the surname before them
        if names and INITIALS.fullmatch(part) and " " not in names[-1]:
            names[-1] = f"{part.replace(' ', '')} {names[-1]}"
            continue
        names.append(part)
    return [n for n in names if LETTERS2.search(n) and len(n) <= 80][:100]


def _tidy(text: str) -> str:
    text = text.strip(" .,;:")
    text = IN_LEAD.sub("", text) if text.startswith("In ") else text
    return text.strip(' .,;:“”"')


def surname(author: str) -> str:
    """The family name in 'Waleed Ammar', 'Ammar W', 'W. Ammar', 'van Stokkum IHM'."""
    words = author.replace(".", ". ").split()
    if not words:
        return ""
    # Vancouver 'Ammar W' / 'van Stokkum IHM': initials last
    if len(words) >= 2 and CAPS4.fullmatch(words[-1]):
        return words[-2] if len(words) == 2 else " ".join(words[:-1])
    return words[-1]


# --- in-text citations ------------------------------------------------------------------

NUMERIC_CITE = re.compile(r"\[(\d{1,4}(?:\s*[-–,;]\s*\d{1,4})*)\]")
# after a surname: 'et al.', ', and Jones', ' & Lee' or a short run of words, then the year
HAS_YEAR = re.compile(YEAR)  # what CITED_YEAR needs somewhere in the text
CITED_YEAR = re.compile(rf"(?:\s+et al\.?)?(?:,?\s+(?:and|&)\s+[\w'’\-]+)?[\s,(]+\(?({YEAR})\b")


class TextBlock(Protocol):
    @property
    def ordinal(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str: ...


def link_citations(blocks: Sequence[TextBlock], refs: list[Reference]) -> list[Citation]:
    """In-text markers ('[12]', '[3-5]', 'Smith et al., 2020', 'Smith (2020)') -> entries."""
    if not refs:
        return []
    by_number = {r.marker: r for r in refs if r.marker}
    by_name: dict[str, list[Reference]] = {}
    for r in refs:
        if r.authors and r.year:
            by_name.setdefault(surname(r.authors[0]).lower(), []).append(r)
    names = sorted((n for n in by_name if len(n) >= 2), key=len, reverse=True)
    name_re = _names_pattern(names) if names else None
    seen: set[tuple[int, int, str]] = set()
    out: list[Citation] = []

    def add(block: int, ref: Reference, marker: str) -> None:
        key = (block, ref.ordinal, marker)
        if key not in seen:
            seen.add(key)
            out.append(Citation(block, ref.ordinal, marker))

    for block in blocks:
        if block.kind == "reference":
            continue
        text = block.text
        if by_number:
            for m in NUMERIC_CITE.finditer(text):
                for n in _expand(m.group(1)):
                    if str(n) in by_number:
                        add(block.ordinal, by_number[str(n)], m.group(0))
        if name_re is None or not HAS_YEAR.search(text):
            continue  # a name is cited with its year: no year, no name to look for
        for m in name_re.finditer(text):
            tail = text[m.end() : m.end() + 60]
            y = CITED_YEAR.match(tail)
            if not y:
                continue
            for ref in by_name[m.group(1).lower()]:
                if _year_label(ref) == y.group(1) or (
                    str(ref.year) == y.group(1)[:4] and not y.group(1)[4:]
                ):
                    marker = text[m.start() : m.end() + y.end()].strip(" (,")
                    add(block.ordinal, ref, marker + (")" if "(" in marker else ""))
                    break
    return out


def _names_pattern(names: list[str]) -> re.Pattern[str]:
    """The surnames as whole words, any case. The lookahead on their first letters lets the
    regex engine pass over most positions without trying each name in turn (~2x faster
    over a paper's blocks; the same matches)."""
    firsts = "".join(re.escape(c) for c in sorted({n[0] for n in names}))
    alternation = "|".join(re.escape(n) for n in names)
    return re.compile(r"\b(?=[" + firsts + r"])(" + alternation + r")\b", re.I)


def _expand(numbers: str) -> list[int]:
    """'3, 5-7' -> [3, 5, 6, 7]."""
    out: list[int] = []
    for part in LIST_SEP.split(numbers):
        bounds = RANGE_SEP.split(part)
        if len(bounds) == 2 and bounds[0].isdigit() and bounds[1].isdigit():
            lo, hi = int(bounds[0]), int(bounds[1])
            if 0 < hi - lo <= 50:
                out.extend(range(lo, hi + 1))
                continue
        out.extend(int(b) for b in bounds if b.isdigit())
    return out


def _year_label(ref: Reference) -> str:
    """The year as printed in the entry, with its letter: '2018a'."""
    m = re.search(rf"\b({ref.year}[a-z]?)\b", ref.raw) if ref.year else None
    return m.group(1) if m else str(ref.year)
