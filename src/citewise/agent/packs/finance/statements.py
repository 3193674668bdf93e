"""Financial statements in a long filing: which pages hold the balance sheet, the income
statement and the cash flow statement, their fiscal-period columns and scale, and their
line items ("Purchases of property, plant and equipment (1,577) (1,373)").

Statement pages are read as lines, whatever block kind the reader gave each line (tables
split, rows read as paragraphs): a line is a label followed by one figure per period.
Also which filing a question is about (company and fiscal year in its file name or title).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from citewise.agent.numeric.numbers import parse_number, scale_of
from citewise.regex import lazy
from citewise.store.sqlite.library import StoredBlock, StoredDocument

# Statement kinds and how their titles read, compacted to letters ("Cash Flow s" too).
KINDS = {
    "cash flow": ("statementsofcashflow", "statementofcashflow", "cashflowsstatement"),
    "balance sheet": (
        "balancesheet",
        "statementsoffinancialposition",
        "statementoffinancialposition",
        "statementsofcondition",
    ),
    "income": (
        "statementsofincome",
        "statementofincome",
        "statementsofoperations",
        "statementofoperations",
        "statementsofearnings",
        "statementofearnings",
        "incomestatement",
        "statementsofprofitandloss",
    ),
}
# How questions name each statement.
ASKED_KINDS = {
    "cash flow": re.compile(r"cash ?flows?", re.I),
    "balance sheet": re.compile(r"balance sheet|financial position|statement of condition", re.I),
    "income": re.compile(
        r"income statement|statements? of (income|operations|earnings)|p&l|profit and loss", re.I
    ),
}
_YEAR = lazy(r"(?<![\d,.])((?:19|20)\d\d)(?![\d,])")
_VALUE = lazy(r"^\$?\(?\$?\d[\d,]*(?:\.\d+)?\)?%?$|^[—–-]$")
_TRAILING_DOTS = lazy(r"(\s*\.){2,}\s*$")
_LEADER_DOTS = lazy(r"\s*\.{2,}\s*")
_SUMMARY = lazy(
    r"\b(selected|key|summary|highlights|quarterly|analysis|discussion)\b|"
    r"\b(?:earnings|operations|income|sheets?|flows?|financial) data\b",
    re.I,
)
TITLE_BLOCKS = 6  # a statement's title is among the first blocks of its page
TITLE_LENGTH = 150
HEADER_LINES = 40


@dataclass
class LineItem:
    """One line of a statement: its label and its figures by fiscal year, as printed."""

    label: str
    figures: dict[str, str]  # "2018" -> "(1,577)"
    block: StoredBlock
    quote: str  # the line, verbatim
    page_kind: str
    title: str
    scale: float

    def value(self, year: str) -> float | None:
        printed = self.figures.get(year)
        if printed is None:
            return None
        if printed in "—–-":
            return 0.0
        return parse_number(printed)


@dataclass
class StatementPage:
    page: int
    kind: str  # "cash flow" | "balance sheet" | "income" | ""
    title: str
    years: list[str]
    scale: float
    items: list[LineItem] = field(default_factory=list)

    @property
    def summary(self) -> bool:
        """Selected or key data drawn from a statement (five years, "... Data"), or its
        analysis ("Analysis of the Consolidated Statements of Income", whose lines print
        changes beside the periods), not the statement itself: its figures may be restated,
        rounded differently or not the period's."""
        return len(self.years) > 3 or bool(_SUMMARY.search(self.title))


def compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def page_kind(title_text: str) -> str:
    squeezed = compact(title_text).replace("offbalancesheet", "")
    if "comprehensiveincome" in squeezed and "statementsofincome" not in squeezed:
        squeezed = squeezed.replace("comprehensiveincome", "")
    for kind, marks in KINDS.items():
        if any(m in squeezed for m in marks):
            return kind
    return ""


def period_years(line: str) -> list[str]:
    """The fiscal years a header line names in order ("January 28, 2017 January 30, 2016"),
    when it names two or more and states no other figures than day numbers."""
    years = _YEAR.findall(line)
    if len(years) < 2 or len(set(years)) != len(years):
        return []
    rest = _YEAR.sub(" ", line)
    others = [
        t
        for t in re.findall(r"\d[\d,.]*", rest)
        if not (t.rstrip(",").isdigit() and int(t.rstrip(",")) <= 31)
    ]
    return years if not others else []


def split_line(line: str) -> tuple[str, list[str]]:
    """A statement line as its label and its trailing figures ("$ 5,363 $ 4,869" -> two)."""
    tokens = line.split()
    figures: list[str] = []
    while tokens and (_VALUE.match(tokens[-1]) or tokens[-1] == "$"):
        if len(tokens) > 1 and tokens[-2].lower().lstrip("(") in ("note", "notes"):
            break  # "(Note 8)" names a note, it is not a figure
        token = tokens.pop()
        if token != "$":
            figures.append(token.strip("$"))
    label = " ".join(tokens)
    if label.endswith("."):  # (the patterns are tried only where they can match)
        label = _TRAILING_DOTS.sub("", label)
    label = label.strip(" .$:")
    if ".." in label:
        label = _LEADER_DOTS.sub(" ", label)
    return label, figures[::-1]


def _segments(
    lines: list[tuple[StoredBlock, str]], width: int
) -> list[tuple[StoredBlock, str, str, list[str]]]:
    """(block, text, label, figures) per line item; a line the reader merged from several
    rows ("Income before taxes 623 1,216 1,503 Provision for taxes (111) (256) (437)") is
    split when every piece has one figure per column."""
    out: list[tuple[StoredBlock, str, str, list[str]]] = []
    for block, line in lines:
        pieces = _pieces(line)
        if len(pieces) >= 2:
            split = [split_line(p) for p in pieces]
            counts = [len(figures) for _, figures in split]
            # the last piece may be a label that continues on the next line
            if all(c == width for c in counts[:-1]) and counts[-1] in (0, width):
                out += [(block, p, *sp) for p, sp in zip(pieces, split, strict=True)]
                continue
        out.append((block, line, *split_line(line)))
    return out


def _pieces(line: str) -> list[str]:
    """The line cut after each run of figures that words follow."""
    tokens = line.split()
    marks = [token == "$" or bool(_VALUE.match(token)) for token in tokens]
    if all(marks[len(marks) - sum(marks) :]):
        return [" ".join(tokens)] if tokens else []  # figures only at the end: one piece
    pieces: list[list[str]] = [[]]
    for i, token in enumerate(tokens):
        pieces[-1].append(token)
        if marks[i] and i + 1 < len(tokens) and not marks[i + 1]:  # a figure, then a word
            noted = i > 0 and tokens[i - 1].lower().lstrip("(") in ("note", "notes")
            if not noted:
                pieces.append([])
    return [" ".join(p) for p in pieces if p]


def read_pages(blocks: list[StoredBlock]) -> list[StatementPage]:
    """Every page of a document with its statement kind, period columns and line items."""
    by_page: dict[int, list[StoredBlock]] = {}
    for block in blocks:
        if block.trusted:
            by_page.setdefault(block.page, []).append(block)
    pages: list[StatementPage] = []
    untimed: list[tuple[StatementPage, list[tuple[StoredBlock, str]]]] = []
    previous: StatementPage | None = None
    for number in sorted(by_page):
        page, lines = _read_page(number, by_page[number], previous)
        if page.items:
            pages.append(page)
            previous = page
        elif page.kind and not page.years:
            untimed.append((page, lines))
    for page, lines in untimed:
        _assume_years(page, lines, pages)
        if page.items:
            pages.append(page)
    return sorted(pages, key=lambda p: p.page)


def _assume_years(
    page: StatementPage, lines: list[tuple[StoredBlock, str]], dated: list[StatementPage]
) -> None:
    """A statement page whose column header was lost (an image, a dropped line): its
    columns are the document's latest fiscal year and the ones before, in the order the
    document's other statements print their years (newest first in most filings)."""
    width = Counter(len(split_line(ln)[1]) for _, ln in lines).most_common(1)[0][0]
    years = [[int(y) for y in p.years] for p in dated if p.kind and len(p.years) >= 2]
    if width < 2 or not years:
        return
    latest = Counter(max(ys) for ys in years).most_common(1)[0][0]
    newest_first = sum(ys[0] > ys[-1] for ys in years) >= len(years) / 2
    run = [str(latest - k) for k in range(width)]
    page.years = run if newest_first else run[::-1]
    _add_items(page, lines)


def _title(blocks: list[StoredBlock]) -> str:
    """The page's statement title: a short line near its top that names a statement."""
    # the page's own lines first: a section path may be carried over from the page before
    lines = [ln for b in blocks[:TITLE_BLOCKS] for ln in b.text.splitlines()[:3]]
    lines += [b.section_path for b in blocks[:TITLE_BLOCKS]]
    return next(
        (ln for ln in lines if len(ln) <= TITLE_LENGTH and page_kind(ln) and _titled(ln)), ""
    )


def _header_years(lines: list[tuple[StoredBlock, str]]) -> list[str]:
    """Years of the column header: one line naming them all, else the years of the lines
    above the first line item, in order ("August 29," / "August 30, 2021" / "2020 ASSETS")."""
    for _, line in lines[:HEADER_LINES]:
        if years := period_years(line):
            return years
    found: list[str] = []
    for _, line in lines[:HEADER_LINES]:
        _, figures = split_line(line)
        if any(not _dated(f) for f in figures):
            break  # the first line with an amount: the header is above it
        found += [y for y in _YEAR.findall(line) if y not in found]
    return found if len(found) >= 2 else []


def _dated(figure: str) -> bool:
    """A year or a day of the month, as column headers print them ("29,", "2021")."""
    bare = figure.rstrip(",")
    return bool(_YEAR.fullmatch(bare)) or (bare.isdigit() and int(bare) <= 31)


def _titled(line: str) -> bool:
    """A title, not a sentence: most of its longer words are capitalized."""
    bare = re.sub(r"\([^)]*\)?", " ", line)  # "(amounts in millions, ...)" is not title
    long = [w for w in re.findall(r"[A-Za-z]+", bare) if len(w) > 3]
    return bool(long) and sum(w[0].isupper() for w in long) >= 0.6 * len(long)


def _read_page(
    number: int, blocks: list[StoredBlock], previous: StatementPage | None
) -> tuple[StatementPage, list[tuple[StoredBlock, str]]]:
    title = _title(blocks)
    kind = page_kind(title)
    lines = [(b, ln) for b in blocks for ln in b.text.splitlines() if ln.strip()]
    years = _header_years(lines)
    head = " ".join(ln for _, ln in lines[:HEADER_LINES])
    scale = scale_of(head)
    if not years and previous is not None and previous.page == number - 1 and not title:
        years, kind, title = previous.years, previous.kind, previous.title
        scale = scale if scale != 1.0 else previous.scale
    page = StatementPage(number, kind, title, years, scale)
    if years:
        _add_items(page, lines)
    return page, lines


def _add_items(page: StatementPage, lines: list[tuple[StoredBlock, str]]) -> None:
    """Line items: a label and one figure per year; a figure line with no label is the
    total of the section its header opened ("Revenues" ... "5,162,082 12,899,672")."""
    section = ""
    for block, line, label, figures in _segments(lines, len(page.years)):
        words = re.search(r"[A-Za-z]{3}", label)
        if words and not figures:
            section = label
            continue
        if len(figures) < len(page.years) or (len(figures) > len(page.years) and not page.kind):
            continue  # outside a statement, extra columns (changes, shares) are ambiguous
        if not words:
            if not section or label:
                continue
            label = f"Total {section.lower()}"
        figures = figures[-len(page.years) :]
        if all(_dated(f) for f in figures):
            continue  # a column header repeated, not a line item
        by_year = dict(zip(page.years, figures, strict=True))
        page.items.append(
            LineItem(label, by_year, block, line.strip(), page.kind, page.title, page.scale)
        )  # the quote is verbatim: a piece of the block's text


# --- which filing -----------------------------------------------------------------------

_FORM_WORDS = {"10k", "10q", "8k", "annual", "report", "form", "inc", "corp", "the"}


def filing_names(doc: StoredDocument) -> tuple[list[str], list[str]]:
    """(company name keys, years) of a filing from its file name ("3M_2018_10K.pdf")."""
    stem = re.split(r"[\\/]", doc.path)[-1].rsplit(".", 1)[0]
    parts = [p for p in re.split(r"[_\-\s]+", stem) if p]
    years = [p for p in parts if re.fullmatch(r"(19|20)\d\d", p)]
    names = [compact(p) for p in parts if p not in years and compact(p) not in _FORM_WORDS]
    return [n for n in names if n], years


def question_years(question: str) -> list[int]:
    """Fiscal years a question names: "FY2018", "fiscal 2019", "2020" (in order, unique)."""
    found = re.findall(r"(?:\bFY\s?|\bfiscal (?:year )?)?((?:19|20)\d\d)\b", question, re.I)
    return list(dict.fromkeys(int(y) for y in found))
