"""Where a paper was published, read off the paper: venue, volume, issue, pages, arXiv ID;
BibTeX types and fields follow."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citewise.api import Library
from citewise.documents import read_document
from citewise.documents.pdf.metadata import find_publication
from citewise.sources.bibliography.export import library_records, to_bibtex
from tests.conftest import CORPUS, shared_cases
from tests.pdfs import PAPER_SECTIONS


def test_proceedings_banner_gives_booktitle_and_pages() -> None:
    pub = find_publication(
        "Proceedings of the 12th Workshop on Rock Acoustics, pages 101–109\n"
        "Bergen, Norway, May 3, 2023. ©2023 Association for Rock Acoustics\nSorting Granite"
    )
    assert pub.kind == "paper-conference" and pub.pages == "101-109"
    assert pub.venue == "Proceedings of the 12th Workshop on Rock Acoustics"


def test_journal_masthead_gives_journal_volume_issue_pages() -> None:
    pub = find_publication(
        "Journal of Quarry Engineering\nMarch 2021, Volume 7, Issue 2, pp. 45-67\nSorting Granite"
    )
    assert (pub.venue, pub.kind) == ("Journal of Quarry Engineering", "article-journal")
    assert (pub.volume, pub.issue, pub.pages) == ("7", "2", "45-67")


def test_running_footers_give_the_journal() -> None:
    bmc = find_publication("Sorting Granite", "Quarry et al. Granite Research 2019, 12:44\n")
    assert (bmc.venue, bmc.volume, bmc.pages) == ("Granite Research", "12", "44")
    peerj = find_publication("x", "Stone et al. (2018), Rock Sci. Lett., DOI 10.1/abc\n2/9")
    assert peerj.venue == "Rock Sci. Lett" and peerj.kind == "article-journal"


def test_arxiv_id_and_nothing_invented() -> None:
    assert find_publication("arXiv:2101.00027v2 [cs.CL] 1 Jan 2021").arxiv_id == "2101.00027"
    nothing = find_publication("Sorting Granite\nAda Quarry\nAbstract\nWe sort 12 blocks.")
    assert nothing.venue is None and nothing.csl() == {}
    # A name cut short by a line break is dropped, its type and pages kept.
    cut = find_publication("Proceedings of the\nAnnual Meeting (Volume 1), pages 5-9")
    assert cut.venue is None and cut.kind == "paper-conference" and cut.pages == "5-9"


def _journal_paper(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 40), "Journal of Quarry Engineering", fontsize=9, fontname="helv")
    page.insert_text((72, 52), "Volume 7, Issue 2, pp. 45-67", fontsize=9, fontname="helv")
    page.insert_text((72, 64), "doi:10.5555/jqe.2021.7.45", fontsize=9, fontname="helv")
    page.insert_text(
        (72, 100), "Sorting Granite with Acoustic Probes", fontsize=18, fontname="hebo"
    )
    page.insert_text((72, 122), "Ada Quarry and Ben Stone", fontsize=11, fontname="helv")
    y = 160.0
    for heading, paragraphs in PAPER_SECTIONS:
        page.insert_text((72, y), heading, fontsize=12, fontname="hebo")
        y += 18
        for text in paragraphs:
            spare = page.insert_textbox(
                pymupdf.Rect(72, y, 523, y + 200), text, fontsize=10, fontname="helv"
            )
            y += 200 - spare + 10
    doc.save(path)
    return path


def test_a_journal_pdf_exports_as_article_with_its_fields(tmp_path: Path) -> None:
    pdf = _journal_paper(tmp_path / "jqe.pdf")
    doc = read_document(pdf)
    assert doc.venue == "Journal of Quarry Engineering"
    assert doc.extra == {
        "type": "article-journal",
        "container-title": "Journal of Quarry Engineering",
        "volume": "7",
        "issue": "2",
        "page": "45-67",
    }
    with Library(tmp_path / "library", embeddings=False) as lib:
        assert not lib.ingest([pdf]).failed
        bibtex = to_bibtex(library_records(lib.store))
    assert bibtex.startswith("@article{")
    for field in (
        "journal = {Journal of Quarry Engineering}",
        "volume = {7}",
        "number = {2}",
        "pages = {45--67}",
        "doi = {10.5555/jqe.2021.7.45}",
    ):
        assert field in bibtex, field


# The fields each corpus paper prints (on page 1 or in its running heads and feet).
CORPUS_FIELDS = {
    "2020.acl-main.447.pdf": ("inproceedings", {"booktitle", "pages", "year"}),
    "N18-3011.pdf": ("inproceedings", {"booktitle", "pages", "year"}),
    "MullenJSSv18i03.pdf": ("article", {"journal", "volume", "number", "year"}),
    "example2.pdf": ("article", {"journal", "volume", "pages", "year"}),
    "test1.pdf": ("article", {"journal", "volume", "pages", "year", "doi"}),
    "test2.pdf": ("article", {"journal", "volume", "pages", "year", "doi"}),
    "test6.pdf": ("article", {"journal", "year", "doi"}),
}
PRESENT = [name for name in CORPUS_FIELDS if (CORPUS / name).is_file()]


@pytest.fixture(scope="module")
def corpus_bibtex(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    library = tmp_path_factory.mktemp("corpus") / "library"
    with Library(library, embeddings=False) as lib:
        lib.ingest([CORPUS / name for name in PRESENT])
        records = library_records(lib.store)
        paths = {d.id: d.path for d in lib.store.documents()}
    entries = {}
    for record in records:
        entries[Path(paths[record.key]).name] = to_bibtex([record])
    return entries


@pytest.mark.parametrize("name", shared_cases(PRESENT, "shared corpus absent"))
def test_corpus_bibtex_has_the_fields_the_paper_prints(
    name: str, corpus_bibtex: dict[str, str]
) -> None:
    entry_type, fields = CORPUS_FIELDS[name]
    entry = corpus_bibtex[name]
    assert entry.startswith(f"@{entry_type}{{"), entry[:40]
    present = {line.split("=")[0].strip() for line in entry.splitlines()[1:-1]}
    assert fields <= present, fields - present
