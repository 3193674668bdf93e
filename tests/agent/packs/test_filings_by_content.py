"""A filing is known by its cover, not its file name (agent/packs/finance/filings.py): a made-up
company's
10-Ks saved as "download (3).pdf" and "10k.pdf" are asked about by the company's name and
fiscal year; a cover whose name is a logo is known by the corporate name inside; a paper
is no filing. Then real FinanceBench filings copied to neutral names (skips when ../shared
is absent): each is known as its gold questions' company and year."""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest
import yaml

from citewise.agent.packs.finance.filing_answer import filing_computation
from citewise.agent.packs.finance.filing_scope import filing_scope, written_names
from citewise.agent.packs.finance.filings import filings_of, pick_filing
from citewise.api import Library
from tests.agent.tables_pdf import LEFT, _heading, _para, _table
from tests.conftest import SHARED

FINANCEBENCH = SHARED / "qa" / "external" / "financebench"
XS = [LEFT, 360, 440]


def _cover(page: pymupdf.Page, year: int, name: str | None) -> None:
    lines = ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "Washington, D.C. 20549",
             "FORM 10-K", "[X] ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES "
             "EXCHANGE ACT OF 1934", f"For the fiscal year ended June 30, {year}",
             "Commission file number 1-40817"]  # fmt: skip
    if name:
        lines += [name, "(Exact name of registrant as specified in its charter)"]
    lines += ["Common Stock, $0.01 par value  The Nasdaq Stock Market LLC"]
    for i, line in enumerate(lines):
        page.insert_text((LEFT, 70 + 22 * i), line, fontsize=10)


def write_filing(path: Path, year: int, income: list[tuple[str, str, str]], logo: bool) -> Path:
    """A 10-K of Halvorsen Tidewater Corporation: the cover (its name printed, or left to a
    logo), Item 1 which calls the company "Halvorsen", the income statement."""
    doc = pymupdf.open()
    _cover(doc.new_page(width=595, height=842), year, None if logo else
           "HALVORSEN TIDEWATER CORPORATION")  # fmt: skip
    page = doc.new_page(width=595, height=842)
    y = _heading(page, 80, "Item 1. Business")
    y = _para(page, y, "Halvorsen Tidewater Corporation was incorporated in Delaware in 1971. "
                       "Halvorsen builds harbour tugs. Halvorsen sells them to port "
                       "authorities in Norway and Chile.")  # fmt: skip
    page = doc.new_page(width=595, height=842)
    y = _heading(page, 80, "Consolidated Statements of Income")
    page.insert_text((LEFT, y), "Years ended June 30 (in millions)", fontsize=9)
    _table(page, y + 14, "", [("(Millions)", str(year), str(year - 1)), *income], XS)
    doc.save(path)
    doc.close()
    return path


def write_paper(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = _heading(page, 80, "Reading Annual Reports with Dense Retrieval")
    _para(page, y, "Form 10-K filings of Halvorsen Tidewater Corporation and others are long. "
                   "We study the fiscal year ended June 30, 2021.")  # fmt: skip
    doc.save(path)
    doc.close()
    return path


INCOME_2021 = [("Net sales", "4,210", "3,980"), ("Net income", "612", "577")]
INCOME_2019 = [("Net sales", "3,702", "3,455"), ("Net income", "498", "431")]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("filings-by-content")
    files = [write_filing(folder / "download (3).pdf", 2021, INCOME_2021, logo=False),
             write_filing(folder / "10k.pdf", 2019, INCOME_2019, logo=True),
             write_paper(folder / "paper.pdf")]  # fmt: skip
    library = Library(folder / "library", embeddings=False)
    assert library.ingest(files).failed == []
    return library


def _path(library: Library, doc_id: str) -> str:
    return Path(library.store.document(doc_id).path).name  # type: ignore[union-attr]


def test_filings_are_known_by_their_covers_and_a_paper_is_none(library: Library) -> None:
    filings = {Path(f.document.path).name: f for f in filings_of(library.store)}
    assert sorted(filings) == ["10k.pdf", "download (3).pdf"]
    assert filings["download (3).pdf"].years == (2021,) and filings["10k.pdf"].years == (2019,)
    for filing in filings.values():
        assert filing.company == "halvorsentidewater"
        assert "halvorsen" in filing.names  # the filing calls itself so
    cover = filings["download (3).pdf"].cover
    assert cover is not None
    assert cover.title == "HALVORSEN TIDEWATER CORPORATION — Form 10-K, fiscal year 2021"


def test_a_question_naming_the_company_and_year_is_asked_of_that_filing(
    library: Library,
) -> None:
    filings = filings_of(library.store)
    for question, name in [("What were Halvorsen's net sales in fiscal 2019?", "10k.pdf"),
                           ("What was Halvorsen Tidewater's FY2021 net income?",
                            "download (3).pdf")]:  # fmt: skip
        (choice,) = filing_scope(question, filings)
        assert _path(library, choice.document) == name
        picked = pick_filing(question, written_names(question), filings)
        assert picked is not None and Path(picked.document.path).name == name
    assert filing_scope("How do tugs work in Chile?", filings) == []


def test_a_figure_asked_by_company_and_year_comes_from_that_filing(library: Library) -> None:
    for income, year, name in [(INCOME_2021, 2021, "download (3).pdf"),
                               (INCOME_2019, 2019, "10k.pdf")]:  # fmt: skip
        question = f"What was Halvorsen's FY{year} net profit margin?"
        found = filing_computation(question, library.store)
        assert isinstance(found, tuple), found
        computation, blocks = found
        figures = {label: float(now.replace(",", "")) for label, now, _ in income}
        assert round(computation.result, 1) == round(
            figures["Net income"] / figures["Net sales"] * 100, 1
        )
        assert {_path(library, b.document_id) for b in blocks.values()} == {name}


def _gold(name: str) -> list[dict[str, object]]:
    items = yaml.safe_load((FINANCEBENCH / "qa.yaml").read_text(encoding="utf-8"))
    return [i for i in items if i["doc"] == name]


@pytest.mark.skipif(not (FINANCEBENCH / "corpus").is_dir(), reason="../shared absent")
def test_real_filings_under_neutral_names_are_known_by_their_covers(tmp_path: Path) -> None:
    # a logo cover (General Mills, two years), a name with the corporate word (Adobe
    # Systems Incorporated), a cover with no registrant line (3M)
    originals = ["GENERALMILLS_2019_10K.pdf", "GENERALMILLS_2022_10K.pdf",
                 "ADOBE_2015_10K.pdf", "3M_2018_10K.pdf"]  # fmt: skip
    renamed = {}
    for i, name in enumerate(originals):
        renamed[f"filing{i + 1:02d}.pdf"] = name
        shutil.copy(FINANCEBENCH / "corpus" / name, tmp_path / f"filing{i + 1:02d}.pdf")
    library = Library(tmp_path / "library", embeddings=False)
    assert library.ingest(sorted(tmp_path.glob("*.pdf"))).failed == []
    filings = filings_of(library.store)
    assert len(filings) == len(originals)
    for filing in filings:
        original = renamed[Path(filing.document.path).name]
        assert str(filing.years[0]) in original  # the year the original name gives
    for name in originals:
        for item in _gold(name):
            question = str(item["question"])
            picked = pick_filing(question, written_names(question), filings)
            assert picked is not None, question
            assert renamed[Path(picked.document.path).name] == name
