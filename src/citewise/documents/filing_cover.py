"""Who filed a filing, and for which year: read from its cover page, not its file name.

An SEC filing's cover says what it is ("FORM 10-K", "ANNUAL REPORT PURSUANT TO SECTION 13"),
who filed it (the name printed above "(Exact name of registrant as specified in its
charter)") and for which period ("For the fiscal year ended December 31, 2018"). A user's
copy may be called "10k.pdf" or "download (3).pdf", and its title may come out as
"FORM 10-K"; the cover still says all three. When the cover prints no registrant line (the
name is a logo), the first corporate name on the first pages ("General Mills, Inc. was
incorporated in Delaware") stands in. Pure functions over the text of the first pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

COVER_PAGES = 5  # the cover, its continuation, the index and the opening of Item 1

# the form on a line of its own ("FORM 10-K"), not a sentence that names one
_FORM = re.compile(r"^\s*form\s+(10-k|10-q|8-k|20-f|40-f|10-kt|10-k405)(?:/a)?\s*$", re.I | re.M)
_ANNUAL = re.compile(r"annual report pursuant to section 13", re.I)
_QUARTERLY = re.compile(r"quarterly report pursuant to section 13", re.I)
_SEC = re.compile(r"securities and exchange commission", re.I)
_REGISTRANT = re.compile(r"\(?\s*exact name of (?:the )?registrant", re.I)
_DATE = r"([A-Za-z]{3,9}\.?\s+\d{1,2}\s*,\s*((?:19|20)\d\d))"
_PERIOD = re.compile(
    rf"for the (?:fiscal year|year|quarterly period|quarter|period) ended\s*:?\s*{_DATE}", re.I
)
_REPORT_DATE = re.compile(rf"date of report[^:]*:\s*{_DATE}", re.I)
_RULE = re.compile(r"_{3,}")
_FILE_NUMBER = re.compile(r"^.*commission file (?:number|no\.?)\s*:?\s*[\d-]+\.?\s*", re.I)
_SUFFIX = (
    r"(?i:Inc\.?|Incorporated|Corporation|Corp\.|Company|Co\.|plc|Ltd\.?|Limited|N\.V\.|S\.A\."
    r"|AG|SE|LLC|L\.P\.)(?!\s+(?i:by)\b)"  # "DOCUMENTS INCORPORATED BY REFERENCE": no name
)
_WORD = r"[A-Z0-9][\w.&'’-]*"
_CORPORATE_NAME = re.compile(
    rf"(?<![\w“\"])((?:The\s+|THE\s+)?{_WORD}(?:\s+{_WORD}){{0,4}}?,?\s+{_SUFFIX})(?![\w”\"])"
)
# Other companies a cover names: the exchanges the stock trades on.
_NOT_REGISTRANT = re.compile(r"exchange|stock market|nasdaq", re.I)


@dataclass(frozen=True)
class FilingCover:
    """What a filing's cover page says about it."""

    form: str  # "10-K", "10-Q", "8-K", ... ("annual report" when only the check box says)
    registrant: str  # as printed: "THE BOEING COMPANY", "NIKE, Inc."
    fiscal_year: int | None  # the year the period it covers ends in
    period_end: str  # "December 31, 2018" ("" when the cover gives none)

    @property
    def title(self) -> str:
        """A title a user recognises: "THE BOEING COMPANY — Form 10-K, fiscal year 2018"."""
        form = self.form if self.form == "annual report" else f"Form {self.form}"
        year = f", fiscal year {self.fiscal_year}" if self.fiscal_year else ""
        return f"{self.registrant} — {form}{year}"


def read_cover(pages: list[tuple[int, str]]) -> FilingCover | None:
    """The cover of a filing from (page, text) of its first pages' blocks in reading order;
    None when they are no SEC filing's cover (no form named, or no registrant found)."""
    lines = [
        (page, line.strip())
        for page, text in pages
        if page <= COVER_PAGES
        for line in text.splitlines()
        if line.strip()
    ]
    first = "\n".join(line for page, line in lines if page <= 2)
    form = _form(first)
    if not form:
        return None
    registrant = registrant_line(lines) or first_corporate_name(lines)
    if not registrant:
        return None
    period = _PERIOD.search(first) or _REPORT_DATE.search(first)
    return FilingCover(
        form,
        registrant,
        int(period.group(2)) if period else None,
        re.sub(r"\s+", " ", period.group(1)) if period else "",
    )


def cover_form(pages: list[tuple[int, str]]) -> str:
    """The form the first two pages name ("10-K"), "" when they are no filing's cover."""
    return _form("\n".join(text for page, text in pages if page <= 2))


def _form(text: str) -> str:
    """The form the cover names, when it reads as a cover (the SEC, a form line)."""
    found = _FORM.search(text)
    if found and _SEC.search(text):
        return found.group(1).upper()
    if _ANNUAL.search(text):
        return "10-K" if _SEC.search(text) else "annual report"
    if _QUARTERLY.search(text) and _SEC.search(text):
        return "10-Q"
    return ""


def registrant_line(lines: list[tuple[int, str]]) -> str:
    """The name printed on the line of, or the line above, "(Exact name of registrant as
    specified in its charter)"."""
    for i, (page, line) in enumerate(lines):
        found = _REGISTRANT.search(line)
        if not found or page > 2:
            continue
        before = clean_name(line[: found.start()])
        if before:
            return before
        for _, above in reversed(lines[max(0, i - 3) : i]):
            name = clean_name(above)
            if name:
                return name
    return ""


def clean_name(text: str) -> str:
    """A registrant's name from the text a cover prints it in; "" when it is none."""
    text = _RULE.split(text)[-1] if _RULE.search(text) else text
    text = _FILE_NUMBER.sub("", text)
    text = re.sub(r"\s+([.,])", r"\1", text).strip(" \t,;:()")
    letters = sum(c.isalpha() for c in text)
    if letters < 2 or len(text) > 80 or len(text.split()) > 8:
        return ""
    if re.search(r"\b(?:registrant|commission|pursuant|transition|fiscal|or)\b", text, re.I):
        return ""
    return text


def first_corporate_name(lines: list[tuple[int, str]]) -> str:
    """The first company name with a corporate suffix ("3M COMPANY", "General Mills, Inc.")
    on the first pages that is not a stock exchange's."""
    for _, line in lines:
        for found in _CORPORATE_NAME.finditer(line):
            name = re.sub(r"\s+", " ", found.group(1))
            if not _NOT_REGISTRANT.search(name):
                return name
    return ""
