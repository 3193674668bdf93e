"""Joining a table's listed works with a section's text: "For the papers that adopted the
Self-Refine strategy in Table 2, how many of them are not mentioned in Section 3.4?".

Surveys list works in a table, one per row named by its citation ("Reflexion (Shinn et
al., 2023)"), and discuss them in sections that cite them the same way ("Shinn et al.
(2023)"). The rows are those of the named table whose cell holds the value the question
names ("Self-Refine"); a row is mentioned in the section when the section's text cites
its first author and year, or names its method. Pure functions; None means "not such a
question" (or a table, value or section that cannot be found).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.cells import TableView, label_score, words
from citewise.documents.grid import is_numeric
from citewise.regex import lazy
from citewise.store.library import StoredBlock

_QUESTION = lazy(
    r"\bhow many of (?:them|these|those|the (?:papers|works|methods|studies))\b"
    r" (?:are|were|is) (?P<neg>not )?(?:mentioned|cited|discussed|covered) in\b"
    r"(?P<where>[^?]*)",
    re.IGNORECASE,
)
_QUOTED = lazy(r"[\"“”']([^\"“”']{3,60})[\"“”']")
_SECTION = lazy(r"\bsection\s+(\d+(?:\.\d+)*)\b", re.IGNORECASE)
_CITED = lazy(r"\(\s*([A-Z][\w'-]+)(?: et al\.?| and [A-Z][\w'-]+)?,\s*((?:19|20)\d\d)[a-z]?\)")
_AUTHOR_YEAR = lazy(r"^([A-Z][\w'-]+)(?: et al\.?| and [A-Z][\w'-]+)? \(((?:19|20)\d\d)[a-z]?\)")
FULL = 1.0


@dataclass
class Mentions:
    """The rows counted and the section they were looked for in."""

    count: int
    total: int
    value: str  # the cell value that picked the rows ("Self-Refine")
    section: str  # the section's heading
    counted: list[int]  # body rows counted
    quotes: list[StoredBlock]  # the section's blocks that cite the mentioned rows


def asked(text: str) -> tuple[bool, str] | None:
    """(counting rows NOT mentioned, the words naming the section), if such a question."""
    found = _QUESTION.search(text)
    return (bool(found.group("neg")), found.group("where")) if found else None


def section_blocks(where: str, blocks: list[StoredBlock]) -> tuple[str, list[StoredBlock]]:
    """The heading the question names ("Section 3.4", a quoted "Self-Correction") and the
    text blocks under it (its subsections included, floats left out); ("", []) when none
    or several match."""
    found_number = _SECTION.search(where)
    found_name = _QUOTED.search(where)
    number = found_number.group(1) if found_number else None
    quoted = found_name.group(1).strip().lower() if found_name else None
    headings: set[str] = set()
    for b in blocks:
        for part in b.section_path.split(" > ") if b.section_path else []:
            name = part.rstrip(". ")
            if name.split(" ")[0] == number or name.lower() == quoted:
                headings.add(part)
    if len(headings) != 1:
        return "", []
    heading = headings.pop()
    # tables and figures float: where they land in the reading order is not the section's text
    under = [
        b
        for b in blocks
        if heading in b.section_path.split(" > ") and b.kind not in ("heading", "table", "caption")
    ]
    return heading, under


def picked_rows(text: str, view: TableView) -> tuple[str, list[int]] | None:
    """The body rows whose cell holds the one value the question names in full."""
    asked_words = set(words(text))
    values: dict[tuple[int, str], list[int]] = {}
    for i, row in enumerate(view.rows):
        for k, cell in enumerate(row[1:], start=1):
            if cell and not is_numeric(cell):
                values.setdefault((k, cell), []).append(i)
    named = [
        (len(words(v)), k, v)
        for (k, v) in values
        if label_score(v, asked_words) >= FULL and len(values[(k, v)]) < len(view.rows)
    ]
    if not named:
        return None
    named.sort(reverse=True)
    if len(named) > 1 and named[1][0] == named[0][0] and named[1][2] != named[0][2]:
        return None  # two values named as fully: which rows is unclear
    _, k, value = named[0]
    return value, values[(k, value)]


def _mentioned(name: str, section_text: str) -> bool:
    """The section cites the row's work (first author and year) or names its method."""
    cited = _CITED.search(name) or _AUTHOR_YEAR.search(name)
    if cited:
        author, year = cited.group(1), cited.group(2)
        if re.search(rf"\b{re.escape(author)}\b[^()]{{0,40}}?\(?{year}", section_text):
            return True
    method = name.split("(")[0].strip()
    return len(method) >= 3 and bool(re.search(rf"\b{re.escape(method)}\b", section_text))


def count_mentions(text: str, view: TableView, blocks: list[StoredBlock]) -> Mentions | None:
    """How many of the rows the question picks are (not) cited in the section it names."""
    question = asked(text)
    if question is None:
        return None
    negated, where = question
    picked = picked_rows(text, view)
    heading, under = section_blocks(where, blocks)
    if picked is None or not under:
        return None
    value, rows = picked
    section_text = " ".join(b.text for b in under)
    mentioned = [i for i in rows if _mentioned(view.rows[i][0], section_text)]
    counted = [i for i in rows if (i in mentioned) != negated]
    citing = [b for b in under if any(_mentioned(view.rows[i][0], b.text) for i in mentioned)]
    return Mentions(len(counted), len(rows), value, heading, counted, citing)


# --- which of two sections cites more --------------------------------------------------

_MORE = lazy(
    r"\bdoes (?P<a>section \d+(?:\.\d+)*|[\"“'][^\"”']+[\"”']) (?:section )?cites? "
    r"(?P<cmp>more|fewer|less) (?:papers|works|references|studies|citations) than "
    r"(?P<b>section \d+(?:\.\d+)*|[\"“'][^\"”']+[\"”'])",
    re.IGNORECASE,
)
# "(Madaan et al., 2023; Shinn et al., 2023b)", "Shinn et al. (2023)", "[12, 14]"
_AUTHOR_CITE = lazy(
    r"\b([A-Z][\w'-]+)(?: et al\.?| and [A-Z][\w'-]+)?,?\s*\(?((?:19|20)\d\d[a-z]?)\b"
)
_NUMBER_CITE = lazy(r"\[(\d+(?:\s*[,–-]\s*\d+)*)\]")


def citations_in(text: str) -> set[str]:
    """The distinct works a text cites: author-year pairs, else bracketed numbers."""
    found = {f"{a} {y}" for a, y in _AUTHOR_CITE.findall(text)}
    for group in _NUMBER_CITE.findall(text):
        found |= {f"[{n.strip()}]" for n in re.split(r"[,–-]", group)}
    return found


@dataclass
class CitationCount:
    answer: bool  # the yes/no the question asks for
    sections: tuple[str, str]
    counts: tuple[int, int]
    quotes: list[StoredBlock]


def compare_citations(text: str, blocks: list[StoredBlock]) -> CitationCount | None:
    """ "Does Section 3.3 cite more papers than Section 3.1?": distinct works cited in each
    section's text (its subsections included)."""
    found = _MORE.search(text)
    if not found:
        return None
    a_heading, a_blocks = section_blocks(found.group("a"), blocks)
    b_heading, b_blocks = section_blocks(found.group("b"), blocks)
    if not a_blocks or not b_blocks or a_heading == b_heading:
        return None
    a = citations_in(" ".join(x.text for x in a_blocks))
    b = citations_in(" ".join(x.text for x in b_blocks))
    if not a and not b:
        return None
    more = found.group("cmp").lower() == "more"
    answer = len(a) > len(b) if more else len(a) < len(b)
    return CitationCount(answer, (a_heading, b_heading), (len(a), len(b)), a_blocks + b_blocks)
