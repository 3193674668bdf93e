"""Header rows of tables: from ruling, bold type, numbers and repetition across pages.

The tables are written by PyMuPDF in the test (booktabs-style rules as stroked lines,
bold header cells in Helvetica-Bold); the corpus tables are ones whose header rows were
checked by eye on crops of their regions.
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from citewise.documents.model import Block, Document
from citewise.documents.pdf.reader import read_pdf
from citewise.documents.tables.grid import Cell
from citewise.documents.tables.table_header import header_count, rules_matter
from tests.documents.conftest import CORPUS

PROSE = [
    "Samples were taken from each site over two seasons and kept cold until they were read.",
    "The terms below are used throughout the paper with the meaning the table gives them.",
    "Every reading was repeated three times and the median of the three values was kept.",
]
X = (90.0, 250.0, 380.0)  # the columns' left edges
ROW = 16.0
CENTRE = 236.0  # midway between the glossary's left edge and its longest cell's end


def _prose(page: pymupdf.Page, y: float) -> float:
    for line in PROSE:
        page.insert_text((72, y), line, fontsize=10)
        y += 13
    return y


def _table(
    page: pymupdf.Page,
    y: float,
    rows: list[list[str]],
    bold_rows: int = 0,
    rules_under: tuple[int, ...] = (),
    frame: bool = False,
    title: str = "",
) -> float:
    """Rows of cells from `y` down; rules across the table under the given rows (and
    above the first and under the last when `frame`). Returns the y under the table."""
    top = y - 11
    if frame:
        page.draw_line((84, top), (480, top), width=0.8)
    if title:  # centred over the columns, ruled off from the column heads
        width = pymupdf.get_text_length(title, fontsize=9)
        page.insert_text((CENTRE - width / 2, y), title, fontsize=9)
        page.draw_line((84, y + 4), (480, y + 4), width=0.5)
        y += ROW
    for i, row in enumerate(rows):
        for x, text in zip(X, row, strict=False):
            page.insert_text((x, y), text, fontsize=9, fontname="hebo" if i < bold_rows else "helv")
        if i in rules_under:
            page.draw_line((84, y + 4), (480, y + 4), width=0.5)
        y += ROW
    if frame:
        page.draw_line((84, y - ROW + 5), (480, y - ROW + 5), width=0.8)
    return y


GLOSSARY = [
    ["Term", "Meaning"],
    ["core", "a cylinder drilled out of a block"],
    ["seam", "a crack filled with another mineral"],
    ["grain", "the size of the crystals in the rock"],
    ["face", "the cut surface the probe touches"],
]


def _write(path: Path, draw: list[tuple[list[list[str]], dict[str, object]]]) -> Path:
    """One page per table: prose, a 'Table 1' caption, the table, more prose."""
    doc = pymupdf.open()
    for rows, style in draw:
        page = doc.new_page(width=595, height=842)
        y = _prose(page, 90)
        page.insert_text((72, y + 10), "Table 1: Terms used in this paper.", fontsize=9)
        y = _table(page, y + 34, rows, **style)  # type: ignore[arg-type]
        _prose(page, y + 20)
    doc.save(path)
    doc.close()
    return path


def _tables(doc: Document) -> list[Block]:
    return [b for b in doc.blocks if b.kind == "table"]


def _header(block: Block) -> tuple[int, list[str]]:
    assert block.data is not None
    cells = block.data["cells"]
    assert isinstance(cells, list)
    return block.data["header_rows"], [c["text"] for c in cells if c["header"]]  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("style", "header"),
    [
        ({"rules_under": (0,), "frame": True}, ["Term", "Meaning"]),  # booktabs midrule
        ({"frame": True}, []),  # ruled, but nothing sets the first row apart: all data
        ({"frame": True, "bold_rows": 1}, ["Term", "Meaning"]),  # no midrule, but bold
    ],
)
def test_text_table_header_from_rules_and_bold(
    tmp_path: Path, style: dict[str, object], header: list[str]
) -> None:
    rows = GLOSSARY if header else GLOSSARY[1:]
    doc = read_pdf(_write(tmp_path / "t.pdf", [(rows, style)]), ocr=False)
    [table] = _tables(doc)
    assert table.label == "Table 1"
    assert _header(table) == (len(header) // 2, header)
    assert table.data is not None and table.data["row_labels"][:1] == [rows[len(header) // 2][0]]


def test_a_ruled_title_row_heads_the_column_heads_and_spans_the_table(tmp_path: Path) -> None:
    style = {"title": "Terms of the field study", "rules_under": (0,), "frame": True}
    doc = read_pdf(_write(tmp_path / "t.pdf", [(GLOSSARY, style)]), ocr=False)
    [table] = _tables(doc)
    assert _header(table) == (2, ["Terms of the field study", "Term", "Meaning"])
    assert table.data is not None
    title = table.data["cells"][0]  # type: ignore[index]
    assert (title["row"], title["colspan"]) == (0, 2)


YEARS = [
    ["Item", "2019", "2018"],
    ["Revenue", "120.5", "98.1"],
    ["Costs", "80.2", "71.9"],
    ["Profit", "40.3", "26.2"],
]


@pytest.mark.parametrize(
    "style", [{"bold_rows": 1}, {"rules_under": (0,), "frame": True}], ids=["bold", "ruled"]
)
def test_year_heads_set_apart_are_header_not_data(tmp_path: Path, style: dict[str, object]) -> None:
    doc = read_pdf(_write(tmp_path / "t.pdf", [(YEARS, style)]), ocr=False)
    [table] = _tables(doc)
    assert _header(table) == (1, ["Item", "2019", "2018"])


def test_years_with_nothing_setting_them_apart_stay_data(tmp_path: Path) -> None:
    doc = read_pdf(_write(tmp_path / "t.pdf", [(YEARS, {})]), ocr=False)
    [table] = _tables(doc)
    assert _header(table)[0] == 0


def test_continued_table_repeats_its_header_or_starts_with_data(tmp_path: Path) -> None:
    more = [["vein", "a sheet of mineral across the rock"], ["joint", "a plane the rock splits on"]]
    pages = [
        (GLOSSARY, {"bold_rows": 1}),
        ([GLOSSARY[0], *more], {"bold_rows": 1}),  # the header repeated
        (more, {}),  # continued without the header: its first row is data
    ]
    doc = read_pdf(_write(tmp_path / "t.pdf", pages), ocr=False)
    tables = _tables(doc)
    assert [(t.page, t.label) for t in tables] == [(1, "Table 1"), (2, "Table 1"), (3, "Table 1")]
    assert [_header(t)[0] for t in tables] == [1, 1, 0]
    assert tables[2].data is not None and tables[2].data["row_labels"] == ["vein", "joint"]


# --- the shared corpus: header rows checked on crops of the table regions ---------------

# (file, page, label, first row's first cell) -> header rows as printed
CORPUS_HEADERS = {
    ("2020.acl-main.447.pdf", 2, "Table 1", "Corpus"): 1,  # 'Papers w/ body text' wrapped
    ("2020.acl-main.447.pdf", 4, "Table 2", "Filter"): 1,
    ("2020.acl-main.447.pdf", 5, "Table 3", "Total papers"): 0,  # ruled off, but data
    ("2020.acl-main.447.pdf", 5, "Table 4", "Statistic"): 1,
    ("2020.acl-main.447.pdf", 6, "Table 5", "Domain"): 1,
    ("2020.acl-main.447.pdf", 13, "Table 8", "Filter"): 1,
    ("MullenJSSv18i03.pdf", 10, "Table 1", "S4 classes defined by TIMP"): 2,
    ("N18-3011.pdf", 3, "Table 1", "Field"): 1,
    ("N18-3011.pdf", 4, "Table 2", "Approach"): 2,
    ("N18-3011.pdf", 5, "Table 3", "Description"): 1,
    ("example2.pdf", 4, "Table 1", "Item"): 1,
    ("example2.pdf", 5, "Table 2", "Respondent group"): 1,
    ("example2.pdf", 6, "Table 2", "4.3 Treatment protocols"): 0,  # continued, no header
    ("test6.pdf", 8, "Table 2", "Model"): 1,
    ("test6.pdf", 9, "Table 2", "Model"): 1,  # the header repeated on the next page
    ("test6.pdf", 11, "Table 3", "Original masked alignment"): 2,
}


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is absent")
def test_corpus_tables_have_the_header_rows_they_print() -> None:
    found: dict[tuple[str, int, str, str], int] = {}
    for name in sorted({key[0] for key in CORPUS_HEADERS}):
        for block in _tables(read_pdf(CORPUS / name, ocr=False)):
            assert block.data is not None
            cells = block.data["cells"]
            assert isinstance(cells, list)
            first = next((c["text"] for c in cells if c["row"] == 0 and c["text"]), "")
            key = (name, block.page, block.label or "", first)
            if key in CORPUS_HEADERS:
                found[key] = block.data["header_rows"]  # type: ignore[assignment]
    assert found == CORPUS_HEADERS


@pytest.mark.parametrize(
    ("bold", "header"),
    [
        # both bold lines are header; flat header lines fold into one row (wrapped heads)
        (2, ["Term (field word)", "Meaning (as used here)"]),
        (0, ["Term", "Meaning"]),  # no evidence either way: the first row, as before
    ],
)
def test_bordered_text_table_takes_its_bold_rows_as_header(
    tmp_path: Path, bold: int, header: list[str]
) -> None:
    """Borders around every cell say nothing about the header; the bold rows do."""
    rows = [["Term", "Meaning"], ["(field word)", "(as used here)"], *GLOSSARY[1:]]
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = _prose(page, 90)
    page.insert_text((72, y + 10), "Table 1: Terms used in this paper.", fontsize=9)
    y += 34
    for i, row in enumerate(rows):
        for x, text in zip(X, row, strict=False):
            page.insert_text((x, y), text, fontsize=9, fontname="hebo" if i < bold else "helv")
        for left, right in ((84, 240), (240, 480)):
            page.draw_rect(pymupdf.Rect(left, y - 11, right, y + 5), width=0.5)
        y += ROW
    _prose(page, y + 20)
    doc.save(tmp_path / "t.pdf")
    [table] = _tables(read_pdf(tmp_path / "t.pdf", ocr=False))
    assert _header(table) == (1, header)


def test_tables_whose_header_no_rule_can_change_are_told_apart() -> None:
    """`rules_matter` lets the reader skip a page's drawings: wherever it says no, every
    placement of rules (none read, none drawn, any subset between the rows) must give the
    same header count. Small random tables of words, years and numbers, bold or not."""
    rng = random.Random(15)
    words = ["Revenue", "Term", "2019", "FY 2020", "120.5", "(3.1)", "", "a crack"]
    skipped = varied = 0
    for _ in range(3000):
        n_rows = rng.randint(1, 5)
        rows = []
        for r in range(n_rows):
            top = 20.0 * r
            bold = rng.random() < 0.3
            boxed = rng.random() < 0.95
            rows.append(
                [
                    Cell(100.0 * c, 100.0 * c + 60, rng.choice(words),
                         (100.0 * c, top, 100.0 * c + 60, top + 10) if boxed else None, bold)
                    for c in range(rng.randint(1, 3))
                ]
            )  # fmt: skip
        between = [20.0 * r + 15 for r in range(n_rows - 1)]
        placements: list[list[float] | None] = [None]
        placements += [
            [y for k, y in enumerate(between) if mask >> k & 1] for mask in range(2 ** len(between))
        ]
        counts = {header_count(rows, rules) for rules in placements}
        if not rules_matter(rows):
            skipped += 1
            assert len(counts) == 1, rows
        else:
            varied += len(counts) > 1
    assert skipped > 600 and varied > 300  # both kinds of table are common


def test_cells_find_their_columns_alike_through_the_sorted_shortcut() -> None:
    """Columns that run left to right apart (what the coverage sweep gives) let a cell
    skip those it cannot overlap; it must land in the same columns as by the full scan,
    also when it sits in a gap, spans several or has no width."""
    from citewise.documents.tables.grid import Cell, _ends, _overlapped

    cols = [(10.0, 40.0), (55.0, 80.0), (80.0, 120.0), (150.0, 151.0), (200.0, 260.0)]
    ends = _ends(cols)
    assert ends == [40.0, 80.0, 120.0, 151.0, 260.0]
    assert _ends([(10.0, 60.0), (50.0, 90.0)]) is None  # overlapping columns: full scan
    assert _ends([(10.0, 10.0), (20.0, 30.0)]) is None  # a column without width
    edges = [0.0, 10.0, 25.0, 40.0, 47.0, 55.0, 79.0, 80.0, 81.0, 130.0, 150.5, 151.0, 230.0]
    placed = 0
    for x0 in edges:
        for x1 in [*edges, 300.0]:
            cell = Cell(x0, x1, "1.0")
            found = _overlapped(cell, cols, ends)
            assert found == _overlapped(cell, cols), (x0, x1)
            placed += len(found) > 1
    assert placed > 0  # some cells span columns
