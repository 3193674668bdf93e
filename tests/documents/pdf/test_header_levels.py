"""A results table whose systems sit in columns under their base model ("Quartz" over
"Standard", "CoT", "Mason"), with the "Dataset" header set between the two header lines:
the header is read as two levels, a spanning cell repeated over the columns it spans."""

from __future__ import annotations

from pathlib import Path

from citewise.documents.pdf.reader import read_pdf
from citewise.documents.structure import find_table, tables, to_csv_rows

LEFT = 72.0
GROUPS = ["Quartz (qz-7b, frozen)", "Basalt (bs-13b, frozen)"]
METHODS = ["Standard", "CoT", "Mason"]
ROWS = [  # dataset, Quartz: Standard CoT Ours, Basalt: Standard CoT Ours
    ("SlabQA", "40.1", "55.2", "61.0", "50.3", "72.4", "70.1"),
    ("ChiselNLI", "33.0", "41.8", "52.9", "45.5", "50.0", "58.8"),
    ("QuarryFacts", "61.2", "60.0", "59.4", "66.6", "68.1", "75.0"),
    ("GraniteLogic", "20.5", "28.7", "35.1", "30.2", "33.3", "44.4"),
]


def write_results(path: Path) -> Path:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((LEFT, 80), "Reasoning over Quarry Records", fontsize=18, fontname="hebo")
    page.insert_textbox(
        pymupdf.Rect(LEFT, 100, 523, 150),
        "We report the accuracy of three prompting methods under both base models in Table 2.",
        fontsize=10,
    )
    y = 170.0
    page.insert_text((LEFT, y), "Table 2: Accuracy on four reasoning datasets.", fontsize=9)
    y += 20
    xs = [160 + 55 * k for k in range(6)]
    page.insert_text((LEFT, y + 5), "Dataset", fontsize=9)  # between the two header lines
    for g, name in enumerate(GROUPS):
        page.insert_text((xs[3 * g] + 20, y), name, fontsize=9)  # centred over its three
    y += 11
    for k in range(6):
        page.insert_text((xs[k], y), METHODS[k % 3], fontsize=9)
    y += 14
    for row in ROWS:
        page.insert_text((LEFT, y), row[0], fontsize=9)
        for k, value in enumerate(row[1:]):
            page.insert_text((xs[k], y), value, fontsize=9)
        y += 12
    doc.save(path)
    doc.close()
    return path


def test_a_header_cell_between_two_header_lines_keeps_both_levels(tmp_path: Path) -> None:
    path = write_results(tmp_path / "results.pdf")
    table = find_table(tables((b, b.data) for b in read_pdf(path).blocks), "Table 2")
    assert table is not None and table.header_rows == 2
    grid = to_csv_rows(table)  # a spanning header repeated over the columns it spans
    assert grid[0][0] == "Dataset" and grid[0][1:] == [GROUPS[0]] * 3 + [GROUPS[1]] * 3
    assert grid[1][1:] == METHODS * 2
    assert grid[2] == list(ROWS[0])
