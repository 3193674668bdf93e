"""`citewise setup DOC --json|--yaml` and `citewise matrix` on papers the test writes."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pymupdf
import pytest
import yaml

from citewise.cli import app
from citewise.cli.testing import CliRunner
from tests.agent.comparison.test_compare import ADAMW
from tests.pdfs import write_paper

runner = CliRunner()


@pytest.fixture
def library(tmp_path: Path) -> tuple[Path, str]:
    lib = tmp_path / "lib"
    pdf = write_paper(tmp_path / "adamw.pdf", "Echo Transformers for Granite", ADAMW)
    assert runner.invoke(app, ["-L", str(lib), "ingest", "--no-embed", str(pdf)]).exit_code == 0
    listed = json.loads(runner.invoke(app, ["-L", str(lib), "list", "--json"]).stdout)
    return lib, listed[0]["id"]


def test_setup_json_and_yaml_agree_and_cite(library: tuple[Path, str]) -> None:
    lib, doc = library
    as_json = json.loads(runner.invoke(app, ["-L", str(lib), "setup", doc, "--json"]).stdout)
    as_yaml = yaml.safe_load(runner.invoke(app, ["-L", str(lib), "setup", doc, "--yaml"]).stdout)
    assert as_json == as_yaml
    aspects = as_json["aspects"]
    values = {a: [v["value"] for v in item["values"]] for a, item in aspects.items()}
    assert values["optimizer"] == ["AdamW"]
    assert values["learning rate"] == ["3e-4"]
    assert values["schedule"] == ["cosine decay"]
    assert values["gradient clipping"] == ["1.0"]
    assert values["warmup"] == ["2,000"]
    assert aspects["batch size"] == {"stated": False, "values": []}
    for item in aspects.values():
        for v in item["values"]:
            assert v["value"] in v["quote"] and v["page"] == 1


def test_setup_table_prints_not_stated(library: tuple[Path, str]) -> None:
    lib, doc = library
    out = runner.invoke(app, ["-L", str(lib), "setup", doc]).stdout
    assert "AdamW" in out and "not stated" in out


def test_matrix_writes_markdown_and_csv_and_refuses_other_files(
    library: tuple[Path, str], tmp_path: Path
) -> None:
    lib, doc = library
    columns = "optimizer,gradient clipping,weight decay"
    md, table = tmp_path / "m.md", tmp_path / "m.csv"
    for out in (md, table):
        result = runner.invoke(app, ["-L", str(lib), "matrix", "--docs", doc, "--columns",
                                     columns, "--out", str(out)])  # fmt: skip
        assert result.exit_code == 0, result.output
    assert f"| {doc} | Echo Transformers for Granite |" in md.read_text()
    rows = list(csv.reader(io.StringIO(table.read_text())))
    assert rows[0][3:] == ["optimizer", "optimizer page", "optimizer quote",
                           "gradient clipping", "gradient clipping page", "gradient clipping quote",
                           "weight decay", "weight decay page", "weight decay quote"]  # fmt: skip
    assert rows[1][3:5] == ["AdamW", "1"] and rows[1][9:] == ["not stated", "", ""]
    bad = runner.invoke(app, ["-L", str(lib), "matrix", "--out", str(tmp_path / "m.pdf")])
    assert bad.exit_code == 1 and "UNSUPPORTED_FORMAT" in str(bad.exception)
    both = runner.invoke(app, ["-L", str(lib), "matrix", "--all", "--docs", doc, "--out",
                               str(md)])  # fmt: skip
    assert both.exit_code == 2


HYPERPARAMETERS = [
    ("Optimizer", "AdamW"),
    ("Learning rate", "2e-5"),
    ("Batch size", "16"),
    ("Warmup steps", "500"),
    ("Weight decay", "0.01"),
    ("Epochs", "3"),
]


def write_hyperparameter_table(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "Ringing Granite with Transformers", fontsize=18, fontname="hebo")
    page.insert_text((72, 100), "Ada Quarry", fontsize=11, fontname="helv")
    page.insert_text((72, 130), "A Hyperparameters", fontsize=12, fontname="hebo")
    page.insert_text((72, 150), "Table 4 lists the settings of every run.", fontsize=10)
    page.insert_text((72, 175), "Table 4: Hyperparameters of the echo transformer.", fontsize=9)
    y = 195.0
    for name, value in [("Hyperparameter", "Value"), *HYPERPARAMETERS]:
        page.insert_text((72, y), name, fontsize=9)
        page.insert_text((220, y), value, fontsize=9)
        y += 13
    doc.save(path)
    doc.close()
    return path


def test_setup_reads_a_hyperparameter_table_row_by_row(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    pdf = write_hyperparameter_table(tmp_path / "table.pdf")
    assert runner.invoke(app, ["-L", str(lib), "ingest", "--no-embed", str(pdf)]).exit_code == 0
    doc = json.loads(runner.invoke(app, ["-L", str(lib), "list", "--json"]).stdout)[0]["id"]
    aspects = json.loads(runner.invoke(app, ["-L", str(lib), "setup", doc, "--json"]).stdout)[
        "aspects"
    ]
    got = {a: [v["value"] for v in item["values"]] for a, item in aspects.items() if item["stated"]}
    assert got == {
        "optimizer": ["AdamW"],
        "learning rate": ["2e-5"],
        "batch size": ["16"],
        "warmup": ["500"],
        "weight decay": ["0.01"],
        "epochs": ["3"],
    }
    assert aspects["learning rate"]["values"][0]["quote"] == "Learning rate 2e-5"


def test_bracketed_text_in_quotes_prints_as_written(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    sections = [("2 Setup", ["We train with the AdamW optimizer [/b] as in [8] and [bold]."])]
    pdf = write_paper(tmp_path / "brackets.pdf", "Brackets in Granite Papers", sections)
    assert runner.invoke(app, ["-L", str(lib), "ingest", "--no-embed", str(pdf)]).exit_code == 0
    doc = json.loads(runner.invoke(app, ["-L", str(lib), "list", "--json"]).stdout)[0]["id"]
    result = runner.invoke(app, ["-L", str(lib), "setup", doc])
    assert result.exit_code == 0, result.output
    assert "[/b]" in result.stdout and "[8]" in result.stdout
