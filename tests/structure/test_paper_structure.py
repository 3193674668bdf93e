"""read_pdf on a paper the test writes: the section tree, tables as cells, the numbered
equation, the bibliography and the citation links, all with exact expectations."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.documents.model import Document, Section, TableCell
from citewise.documents.pdf.reader import read_pdf
from citewise.documents.structure import (
    equations,
    find_equation,
    find_table,
    sections,
    tables,
    to_csv_rows,
    to_markdown,
)
from tests.structure.paper import REFERENCES, TITLE


@pytest.fixture
def doc(structured_pdf: Path) -> Document:
    return read_pdf(structured_pdf)


def test_section_tree_has_numbers_levels_and_pages(doc: Document) -> None:
    assert [(s.number, s.title, s.level, s.page) for s in sections(doc.blocks)] == [
        ("1", "Introduction", 1, 1),
        ("2", "Method", 1, 1),
        ("2.1", "Tapping", 2, 1),
        ("3", "Results", 1, 1),
        ("4", "Conclusion", 1, 2),
        (None, "References", 1, 2),
    ]
    assert isinstance(sections(doc.blocks)[0], Section)
    assert doc.title == TITLE


def test_grouped_header_table_has_spans_header_rows_and_row_labels(doc: Document) -> None:
    found = tables((b, b.data) for b in doc.blocks)
    table = find_table(found, "Table 1")
    assert table is not None and table.page == 1
    assert table.caption == "Table 1: Precision and yield by stone."
    assert (table.rows, table.cols, table.header_rows) == (4, 5, 2)
    assert table.grid() == [
        ["Probe", "Granite", "", "Marble", ""],
        ["", "prec.", "yield", "prec.", "yield"],
        ["Contact", "91.5", "712", "88.2", "640"],
        ["Laser", "94.4", "928", "90.1", "833"],
    ]
    spans = [c for c in table.cells if c.rowspan > 1 or c.colspan > 1]
    assert spans == [
        TableCell(0, 0, "Probe", rowspan=2, colspan=1, header=True),
        TableCell(0, 1, "Granite", rowspan=1, colspan=2, header=True),
        TableCell(0, 3, "Marble", rowspan=1, colspan=2, header=True),
    ]
    (block,) = [b for b in doc.blocks if b.label == "Table 1" and b.kind == "table"]
    assert block.data is not None and block.data["row_labels"] == ["Contact", "Laser"]
    # the text stays one row per line, cells joined by spaces (what QA quotes)
    assert block.text.split("\n")[2] == "Contact 91.5 712 88.2 640"


def test_ruled_table_takes_its_spans_from_the_rules(doc: Document) -> None:
    table = find_table(tables((b, b.data) for b in doc.blocks), "2")
    assert table is not None
    assert table.grid() == [
        ["Item", "Cost per block", ""],
        ["", "Bergen", "Carrara"],
        ["Probe time", "4.20", "5.10"],
        ["Saw wear", "12.80", "11.40"],
    ]
    assert TableCell(0, 0, "Item", rowspan=2, colspan=1, header=True) in table.cells
    assert TableCell(0, 1, "Cost per block", rowspan=1, colspan=2, header=True) in table.cells
    (block,) = [b for b in doc.blocks if b.label == "Table 2" and b.kind == "table"]
    assert block.data is not None and block.data["ruled"] is True


def test_text_only_table_is_found_from_its_caption(doc: Document) -> None:
    table = find_table(tables((b, b.data) for b in doc.blocks), "table 3")
    assert table is not None and table.page == 2
    assert table.grid() == [
        ["Stone", "Origin", "Use"],
        ["Granite", "Bergen quarry", "Kerbs and steps"],
        ["Marble", "Carrara hills", "Floors and statues"],
        ["Basalt", "Antrim coast", "Road gravel"],
    ]
    assert table.header_rows == 1


def test_table_exports_repeat_spanning_text_in_csv_and_fold_headers_in_markdown(
    doc: Document,
) -> None:
    table = find_table(tables((b, b.data) for b in doc.blocks), "Table 1")
    assert table is not None
    assert to_csv_rows(table)[:2] == [
        ["Probe", "Granite", "Granite", "Marble", "Marble"],
        ["Probe", "prec.", "yield", "prec.", "yield"],
    ]
    assert to_markdown(table).split("\n") == [
        "| Probe | Granite prec. | Granite yield | Marble prec. | Marble yield |",
        "|---|---|---|---|---|",
        "| Contact | 91.5 | 712 | 88.2 | 640 |",
        "| Laser | 94.4 | 928 | 90.1 | 833 |",
    ]


def test_numbered_equation_has_number_text_and_box(doc: Document) -> None:
    found = equations((b, b.data) for b in doc.blocks)
    (eq,) = [e for e in found if e.number]
    assert (eq.number, eq.page) == ("1", 1)
    assert eq.text == "E = a m u 2"  # Symbol-font letters come out as their Latin keys
    x0, y0, x1, y1 = eq.bbox
    assert 225 < x0 < 235 and x1 > 505 and 270 < y0 < y1 < 300
    for spelling in ("1", "eq1", "(1)", "Eq. (1)", "equation 1"):
        assert find_equation(found, spelling) is eq
    assert find_equation(found, "7") is None


def test_bibliography_entries_are_parsed(doc: Document) -> None:
    refs = doc.references
    assert [r.raw for r in refs] == REFERENCES
    miller, olsen, stone = refs
    assert (miller.authors, miller.year, miller.title) == (
        ["C Miller"],
        2019,
        "Saw blades and hidden cracks",
    )
    assert miller.venue == "Quarry Engineering 4:33-41"
    assert olsen.authors == ["D Olsen", "A Berg", "K Lund"]
    assert olsen.arxiv_id == "2201.01234"
    assert (stone.doi, stone.year, stone.title) == (
        "10.5555/rock.2021.9",
        2021,
        "Echoes in hard rock",
    )
    assert all(doc.blocks[r.block].kind == "reference" for r in refs if r.block is not None)


def test_in_text_citations_link_to_their_entries(doc: Document) -> None:
    by_block: dict[str, list[tuple[int, str]]] = {}
    for c in doc.citations:
        by_block.setdefault(doc.blocks[c.block].text[:20], []).append((c.reference, c.marker))
    assert by_block == {
        "Acoustic sorting of ": [
            (2, "Stone and Quarry (2021)"),
            (0, "Miller, 2019"),
            (1, "Olsen et al., 2022"),
        ],
        "Echoes sort stone we": [(2, "Stone and Quarry (2021)")],
    }
