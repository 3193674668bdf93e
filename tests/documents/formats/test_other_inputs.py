"""Notebooks, CSV/TSV and HTML: blocks, locations, schema inference and bad-input errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.documents import read_document
from citewise.errors import BadDocumentError

NOTEBOOK = {
    "nbformat": 4,
    "nbformat_minor": 5,
    "metadata": {"authors": [{"name": "Ada Quarry"}]},
    "cells": [
        {"cell_type": "markdown", "metadata": {},
         "source": ["# Echo analysis\n", "\n", "We load taps."]},
        {
            "cell_type": "code",
            "execution_count": 1,
            "metadata": {},
            "source": ["import statistics\n", "taps = [0.81, 0.77, 0.79]\n",
                       "statistics.mean(taps)"],
            "outputs": [
                {"output_type": "execute_result", "execution_count": 1, "metadata": {},
                 "data": {"text/plain": ["0.79"]}},
            ],
        },
        {"cell_type": "markdown", "metadata": {}, "source": "## Wet blocks"},
        {
            "cell_type": "code",
            "execution_count": 2,
            "metadata": {},
            "source": "print('wet accuracy', 78.0)",
            "outputs": [
                {"output_type": "stream", "name": "stdout", "text": ["wet accuracy 78.0\n"]},
                {"output_type": "error", "ename": "ValueError", "evalue": "no rain data",
                 "traceback": ["\u001b[0;31mValueError\u001b[0m: no rain data"]},
            ],
        },
    ],
}  # fmt: skip


def test_notebook_cells_become_blocks_located_by_cell(tmp_path: Path) -> None:
    path = tmp_path / "echo.ipynb"
    path.write_text(json.dumps(NOTEBOOK))
    doc = read_document(path)
    assert (doc.kind, doc.title, doc.authors, doc.pages) == (
        "notebook",
        "Echo analysis",
        ["Ada Quarry"],
        4,
    )
    got = [(b.kind, b.page, b.label, b.text, b.section_path) for b in doc.blocks]
    assert got == [
        ("heading", 1, "Cell 1", "Echo analysis", "Echo analysis"),
        ("paragraph", 1, "Cell 1", "We load taps.", "Echo analysis"),
        (
            "code",
            2,
            "Cell 2",
            "import statistics\ntaps = [0.81, 0.77, 0.79]\nstatistics.mean(taps)",
            "Echo analysis",
        ),
        ("cell", 2, "Cell 2", "0.79", "Echo analysis"),
        ("heading", 3, "Cell 3", "Wet blocks", "Echo analysis > Wet blocks"),
        ("code", 4, "Cell 4", "print('wet accuracy', 78.0)", "Echo analysis > Wet blocks"),
        ("cell", 4, "Cell 4", "wet accuracy 78.0", "Echo analysis > Wet blocks"),
        ("cell", 4, "Cell 4", "ValueError: no rain data", "Echo analysis > Wet blocks"),
    ]
    assert doc.blocks[3].data == {
        "cell": 1,
        "cell_type": "code",
        "output": 0,
        "output_type": "execute_result",
    }
    assert doc.blocks[2].data == {"cell": 1, "cell_type": "code", "execution_count": 1}


def test_notebook_with_invalid_json_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.ipynb"
    path.write_text('{"cells": [ {"cell_type": "code", "source": "x = 1"\n')
    with pytest.raises(BadDocumentError) as err:
        read_document(path)
    assert "invalid notebook JSON" in err.value.message and "line 2" in err.value.message
    path.write_text('{"worksheets": []}')
    with pytest.raises(BadDocumentError, match="not a Jupyter notebook"):
        read_document(path)


@pytest.mark.parametrize(
    "cell",
    [
        {"cell_type": "code", "source": "x", "outputs": 5},
        {
            "cell_type": "code",
            "source": "x",
            "outputs": [{"output_type": "display_data", "data": [1]}],
        },
    ],
)
def test_a_cell_of_the_wrong_shape_is_a_bad_document_not_an_internal_error(
    tmp_path: Path, cell: dict[str, object]
) -> None:
    path = tmp_path / "odd.ipynb"
    path.write_text(json.dumps({"cells": [cell]}))
    with pytest.raises(BadDocumentError, match="malformed notebook"):
        read_document(path)


CSV = """sample,mass_g,wet,collected,site
G-01,812.5,false,2023-04-02,Bergen
G-02,790,true,2023-04-03,Bergen
G-03,NA,false,2023-05-11,Carrara
G-04,845.25,,2023-06-30,Carrara
"""


def test_csv_gets_a_schema_block_and_searchable_rows(tmp_path: Path) -> None:
    path = tmp_path / "granite_samples.csv"
    path.write_text(CSV)
    doc = read_document(path)
    assert doc.kind == "table" and doc.title == "granite samples"
    schema, rows = doc.blocks
    assert schema.label == "Schema"
    assert schema.text == (
        "granite_samples.csv: 4 rows, 5 columns. "
        "sample (text, 4 distinct: G-01, G-02, G-03, G-04); "
        "mass_g (number, 790 to 845.25, 25% missing); "
        "wet (boolean, 2 distinct: false, true, 25% missing); "
        "collected (date, 2023-04-02 to 2023-06-30); "
        "site (text, 2 distinct: Bergen, Carrara)."
    )
    assert schema.data is not None
    columns = schema.data["columns"]
    assert isinstance(columns, list) and columns[1]["type"] == "number"
    assert (rows.kind, rows.label) == ("table", "Rows 1-4")
    assert rows.text.split("\n")[:2] == [
        "sample mass_g wet collected site",
        "G-01 812.5 false 2023-04-02 Bergen",
    ]


def test_tsv_splits_on_tabs_and_rows_come_in_chunks(tmp_path: Path) -> None:
    path = tmp_path / "taps.tsv"
    lines = ["tap\techo"] + [f"{i}\t{i * 0.5}" for i in range(1, 31)]
    path.write_text("\n".join(lines) + "\n")
    doc = read_document(path)
    assert [b.label for b in doc.blocks] == ["Schema", "Rows 1-25", "Rows 26-30"]
    assert "tap (integer, 1 to 30)" in doc.blocks[0].text
    assert doc.blocks[2].text.split("\n")[1] == "26 13.0"


def test_csv_with_mixed_encodings_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "mixed.csv"
    path.write_bytes("site,name\n1,Zürich\n".encode() + "2,Zürich\n".encode("latin-1"))
    with pytest.raises(BadDocumentError) as err:
        read_document(path)
    assert err.value.message == "mixed text encodings: line 2 is UTF-8 but line 3 is not"
    # one legacy encoding throughout is fine
    path.write_bytes("site,name\n1,Zürich\n".encode("latin-1"))
    assert "Zürich" in read_document(path).blocks[1].text


HTML = """<!doctype html><html><head><title>Granite notes</title>
<style>p { color: red }</style></head><body>
<nav><a href="/">Home</a></nav>
<h1>Granite</h1><p>Granite rings when   struck.</p>
<h2>Uses</h2><ul><li>Kerbs</li><li>Steps</li></ul>
<table><tr><th>Site</th><th>Mass</th></tr><tr><td>Bergen</td><td>812.5</td></tr></table>
<pre>tap(block)
listen()</pre>
<script>alert("x")</script><footer>© 2024</footer>
</body></html>"""


def test_html_headings_paragraphs_lists_tables_and_code(tmp_path: Path) -> None:
    path = tmp_path / "notes.html"
    path.write_text(HTML)
    doc = read_document(path)
    assert doc.title == "Granite notes" and doc.kind == "html"
    assert [(b.kind, b.text, b.section_path) for b in doc.blocks] == [
        ("heading", "Granite", "Granite"),
        ("paragraph", "Granite rings when struck.", "Granite"),
        ("heading", "Uses", "Granite > Uses"),
        ("list", "Kerbs", "Granite > Uses"),
        ("list", "Steps", "Granite > Uses"),
        ("table", "Site Mass\nBergen 812.5", "Granite > Uses"),
        ("code", "tap(block)\nlisten()", "Granite > Uses"),
    ]
    table = doc.blocks[5].data
    assert table is not None and table["rows"] == [["Site", "Mass"], ["Bergen", "812.5"]]
    assert (table["n_rows"], table["n_cols"], table["header_rows"]) == (2, 2, 1)
    assert table["row_labels"] == ["Bergen"]
