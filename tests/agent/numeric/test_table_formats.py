"""The same table written in each format a library reads (HTML, Markdown, CSV, Word, PDF)
answers the same questions: a cell, a change, a percentage change, an average, a share of
one row in another, a difference of rows, the larger year, a count of years over a figure;
figures "in thousands", a loss printed in parentheses, and a year the table does not have
(no figure of another year is given for it). A PDF page with two tables answers from the one
the question means. Every computed sentence is re-derived from the cells it cites."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pymupdf
import pytest

from citewise.agent.ask.answer import Answer
from citewise.agent.numeric.numeric_check import numeric_problems
from citewise.api import Library

SCALE = "(in thousands)"
ROWS = [
    (SCALE, "2019", "2018"),
    ("Net sales", "12,400", "10,000"),
    ("Cost of sales", "(7,440)", "(6,200)"),
    ("Research and development", "1,250", "1,000"),
    ("Net loss", "(300)", "(450)"),
]
STAFF = [("Employees", "2019", "2018"), ("Engineers", "120", "100"), ("Sales staff", "80", "90")]
INTRO = (
    "Harbor Tools makes hand tools for boat yards. Net sales grew by 24% over the year, "
    "as yards restocked. Its results of the year were as follows:"
)
# .docx needs the [docx] extra (python-docx), which `make test` does not install: its cases skip.
HAS_DOCX = importlib.util.find_spec("docx") is not None
NO_DOCX = pytest.mark.skipif(not HAS_DOCX, reason="the [docx] extra (python-docx) is not installed")


def kinds(*names: str) -> list[object]:
    """The formats as test parameters, the .docx one skipped without python-docx."""
    return [pytest.param(n, marks=NO_DOCX) if n == "docx" else n for n in names]


FORMATS = kinds("html", "md", "csv", "docx", "pdf")


def _html(path: Path) -> None:
    rows = "".join(
        "<tr>"
        + "".join(f"<t{'h' if i == 0 else 'd'}>{c}</t{'h' if i == 0 else 'd'}>" for c in row)
        + "</tr>"  # fmt: skip
        for i, row in enumerate(ROWS)
    )
    path.write_text(f"<html><body><h1>Harbor Tools</h1><p>{INTRO}</p><table>{rows}</table>"
                    "</body></html>")  # fmt: skip


def _markdown(path: Path) -> None:
    lines = [f"| {' | '.join(ROWS[0])} |", "|---|---|---|"]
    lines += [f"| {' | '.join(row)} |" for row in ROWS[1:]]
    path.write_text(f"# Harbor Tools\n\n{INTRO}\n\n" + "\n".join(lines) + "\n")


def _csv(path: Path) -> None:
    header = [f"Item {SCALE}", "2019", "2018"]
    body = [[f'"{c}"' if "," in c else c for c in row] for row in ROWS[1:]]
    path.write_text("\n".join(",".join(r) for r in [header, *body]) + "\n")


def _docx(path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_heading("Harbor Tools", level=1)
    document.add_paragraph(INTRO)
    table = document.add_table(rows=len(ROWS), cols=3)
    for i, row in enumerate(ROWS):
        for k, text in enumerate(row):
            table.cell(i, k).text = text
    document.save(str(path))


def _pdf_table(page: pymupdf.Page, y: float, rows: list[tuple[str, ...]]) -> float:
    for row in rows:
        for x, text in zip((72, 330, 420), row, strict=True):
            page.insert_text((x, y), text, fontsize=9)
        y += 12
    return y


def _pdf(path: Path) -> None:
    """One page, two tables: the results and, under a heading, the staff counts."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 70), "Harbor Tools", fontsize=16, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 90, 523, 130), INTRO, fontsize=10)
    y = _pdf_table(page, 150, ROWS)
    page.insert_text((72, y + 30), "Staff", fontsize=12, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, y + 40, 523, y + 70),
                        "The people employed at the end of each year.", fontsize=10)  # fmt: skip
    _pdf_table(page, y + 90, STAFF)
    doc.save(path)
    doc.close()


WRITERS = {"html": _html, "md": _markdown, "csv": _csv, "docx": _docx, "pdf": _pdf}


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("table_formats")
    paths = []
    for kind, write in WRITERS.items():
        if kind == "docx" and not HAS_DOCX:
            continue
        path = folder / f"harbor_{kind}.{kind}"
        write(path)
        paths.append(path)
    lib = Library(folder / "lib", embeddings=False)
    report = lib.ingest(paths)
    assert report.failed == []
    return lib


def _ask(library: Library, kind: str, question: str) -> Answer:
    doc = next(d.id for d in library.store.documents() if Path(d.path).suffix == f".{kind}")
    return library.ask(question, (doc,))


def _says(answer: Answer, figure: str, kind: str | None = None) -> None:
    assert not answer.refused, answer.answer
    assert figure in answer.answer, answer.answer
    assert numeric_problems(answer) == []  # every cell in its quote, every result re-derived
    if kind is not None:  # a computed one may be followed by the text's statement of it
        assert answer.sentences[0].kind == kind, answer.answer
        assert [s.kind for s in answer.sentences[1:]] in ([], ["quote"]), answer.answer


@pytest.mark.parametrize("kind", FORMATS)
def test_a_cell_is_read_by_its_row_and_year_with_the_scale(library: Library, kind: str) -> None:
    answer = _ask(library, kind, "What were net sales in 2018?")
    _says(answer, "10,000", "cell")
    assert "thousands" in answer.answer


@pytest.mark.parametrize("kind", FORMATS)
def test_change_and_percentage_change_run_from_the_earlier_year(
    library: Library, kind: str
) -> None:
    grew = _ask(library, kind, "By how much did research and development grow from 2018 to 2019?")
    _says(grew, "250", "computed")
    rate = _ask(library, kind, "What was the percentage increase in net sales from 2018 to 2019?")
    _says(rate, "24.00%", "computed")


@pytest.mark.parametrize("kind", FORMATS)
def test_a_loss_in_parentheses_is_a_negative_figure(library: Library, kind: str) -> None:
    answer = _ask(library, kind, "What was the change in the net loss between 2018 and 2019?")
    _says(answer, "= 150", "computed")  # -300 - (-450): the loss narrowed


@pytest.mark.parametrize("kind", FORMATS)
def test_average_share_and_difference_of_rows(library: Library, kind: str) -> None:
    mean = _ask(library, kind, "What was the average research and development over 2018 and 2019?")
    _says(mean, "1,125", "computed")
    share = _ask(
        library, kind, "What was research and development as a percentage of net sales in 2019?"
    )
    _says(share, "10.08%", "computed")
    gap = _ask(
        library, kind, "How much higher were net sales than research and development in 2019?"
    )
    _says(gap, "11,150", "computed")


@pytest.mark.parametrize("kind", FORMATS)
def test_the_larger_year_and_a_count_of_years(library: Library, kind: str) -> None:
    larger = _ask(library, kind, "In which year was research and development larger?")
    _says(larger, "2019")
    assert larger.answer.startswith("2019")
    count = _ask(library, kind, "How many years did net sales exceed 11,000?")
    _says(count, "1")
    assert count.answer.startswith("1 ")


@pytest.mark.parametrize("kind", FORMATS)
def test_a_year_the_table_lacks_gets_no_figure_of_another_year(library: Library, kind: str) -> None:
    answer = _ask(library, kind, "What were net sales in 2016?")
    assert answer.refused or not any(f in answer.answer for f in ("12,400", "10,000")), (
        answer.answer
    )


def test_of_two_tables_on_one_page_the_one_named_answers(library: Library) -> None:
    answer = _ask(library, "pdf", "What was the change in engineers from 2018 to 2019?")
    _says(answer, "= 20", "computed")
    (sentence,) = answer.sentences
    assert all(o["value"] in ("120", "100") for o in sentence.operands or [])
    sales = _ask(library, "pdf", "What was the change in sales staff from 2018 to 2019?")
    _says(sales, "-10", "computed")


@pytest.mark.parametrize("kind", kinds("html", "md", "docx", "pdf"))
def test_the_texts_own_rounded_statement_of_a_result_is_quoted_after_it(
    library: Library, kind: str
) -> None:
    answer = _ask(library, kind, "What was the percentage growth in net sales from 2018 to 2019?")
    _says(answer, "24.00%")
    computed, said = answer.sentences
    assert computed.kind == "computed" and said.kind == "quote"
    assert "grew by 24%" in said.text
    quotes = {e.id: e.quote for e in answer.evidence}
    assert said.text in quotes[said.citations[0]]


def test_which_years_a_table_covers_is_not_what_it_shows(library: Library) -> None:
    answer = _ask(library, "html", "Which years does the table provide figures for?")
    assert not answer.refused, answer.answer
    assert answer.answer.startswith("2019 and 2018"), answer.answer


@pytest.mark.parametrize("kind", kinds("html", "md", "docx", "pdf"))
def test_what_a_table_shows_is_the_sentence_introducing_it(library: Library, kind: str) -> None:
    answer = _ask(library, kind, "What does the table show?")
    assert not answer.refused, answer.answer
    assert answer.answer == "Its results of the year were as follows:", answer.answer
