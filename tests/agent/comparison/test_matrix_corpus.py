"""`citewise matrix --all` over the shared corpus: mostly filled, every value in its
quote, the XLSX and CSV readable by openpyxl / csv / pandas, reruns served from the cache."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from citewise.cli import app
from citewise.cli.testing import CliRunner
from tests.conftest import corpus_library as ingested_corpus

runner = CliRunner()
COLUMNS = ["task", "method", "datasets", "metrics", "main result", "limitations"]
CELLS = 8 * len(COLUMNS)  # eight papers


@pytest.fixture(scope="module")
def corpus_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested_corpus(tmp_path_factory, "matrix")


def matrix(lib: Path, out: Path, *extra: str) -> dict:
    result = runner.invoke(app, ["-L", str(lib), "matrix", "--all", "--out", str(out), "--json",
                                 *extra])  # fmt: skip
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_matrix_over_the_corpus_is_filled_and_quoted(corpus_library: Path, tmp_path: Path) -> None:
    summary = matrix(corpus_library, tmp_path / "m.json")  # its speed: benchmarks/matrix_all.py
    assert summary["rows"] == 8 and summary["computed"] == CELLS
    assert summary["fill_rate"] >= 0.60
    data = json.loads((tmp_path / "m.json").read_text())
    for row in data["rows"]:
        for column in COLUMNS:
            cell = row["cells"][column]
            if cell["stated"]:
                assert cell["value"].removesuffix("…") in cell["quote"], (row["document"], column)
                assert isinstance(cell["page"], int) and cell["page"] >= 1
            else:
                assert cell["value"] == "not stated" and cell["quote"] is None


def test_csv_and_xlsx_open_and_agree(corpus_library: Path, tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")  # the [matrix] extra writes .xlsx
    matrix(corpus_library, tmp_path / "m.csv")
    rerun = matrix(corpus_library, tmp_path / "m.xlsx")
    assert rerun["computed"] == 0 and rerun["cached"] == CELLS  # the rerun computes nothing
    with (tmp_path / "m.csv").open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    expected = ["document", "title", "year"]
    for c in COLUMNS:
        expected += [c, f"{c} page", f"{c} quote"]
    assert rows[0] == expected and len(rows) == 9
    for row in rows[1:]:
        for k in range(len(COLUMNS)):
            value, page, quote = row[3 + 3 * k : 6 + 3 * k]
            assert value == "not stated" or (value.removesuffix("…") in quote and page.isdigit())
    sheet = openpyxl.load_workbook(tmp_path / "m.xlsx").active
    values = [[c.value for c in r] for r in sheet.iter_rows()]
    assert values[0] == expected
    linked = 0
    for r in sheet.iter_rows(min_row=2):
        for k in range(len(COLUMNS)):
            cell = r[3 + 3 * k]
            if cell.value != "not stated":
                assert cell.hyperlink is not None
                assert cell.hyperlink.target.startswith("file://")
                assert f"#page={r[4 + 3 * k].value}" in cell.hyperlink.target
                assert cell.comment is not None
                assert cell.value.removesuffix("…") in cell.comment.text
                linked += 1
    assert linked >= 24
    pandas = pytest.importorskip("pandas")  # not in the dev extra; checked when present
    frame = pandas.read_csv(tmp_path / "m.csv")
    assert list(frame.columns) == expected and len(frame) == 8


def test_a_new_column_computes_only_that_column(corpus_library: Path, tmp_path: Path) -> None:
    matrix(corpus_library, tmp_path / "a.json")
    summary = matrix(corpus_library, tmp_path / "b.json", "--columns",
                     ",".join([*COLUMNS, "code availability"]))  # fmt: skip
    assert summary["computed"] == 8 and summary["cached"] == CELLS
