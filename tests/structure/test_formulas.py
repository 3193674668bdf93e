"""Section-numbered equations ("(3.2)", "(A.1)"): detected, found by every accepted
spelling; a missing ID is FORMULA_NOT_FOUND naming the valid ones, a malformed one
INVALID_EQ_ID naming the accepted forms. The paper is written by the test."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from citewise.cli import app
from citewise.cli.testing import CliRunner
from citewise.documents.math.formulas import parse_equation_id, variables
from citewise.errors import InvalidEquationIdError

runner = CliRunner()


def _equation(page: pymupdf.Page, y: float, lhs: str, rhs: str, number: str) -> None:
    page.insert_text((230, y), lhs, fontsize=10, fontname="helv")
    page.insert_text((245, y), rhs, fontsize=10, fontname="symb")
    page.insert_text((505, y), number, fontsize=10, fontname="helv")


def write_numbered_paper(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "Tapping Models for Stone", fontsize=20, fontname="hebo")
    page.insert_text((72, 104), "Ada Quarry", fontsize=11, fontname="helv")
    page.insert_text((72, 140), "3 Model", fontsize=12, fontname="hebo")
    page.insert_text((72, 160), "3.2 Echo energy", fontsize=11, fontname="hebo")
    page.insert_text((72, 180), "The energy of the echo grows with the mass of the block:",
                     fontsize=10, fontname="helv")  # fmt: skip
    _equation(page, 205, "E", "= a m u", "(3.2)")
    page.insert_text((72, 230), "where m is the mass and u the speed of the echo.",
                     fontsize=10, fontname="helv")  # fmt: skip
    page.insert_text((72, 270), "A Derivations", fontsize=12, fontname="hebo")
    page.insert_text((72, 290), "The damping of a wet block follows from the energy balance:",
                     fontsize=10, fontname="helv")  # fmt: skip
    _equation(page, 315, "D", "= b E", "(A.1)")
    page.insert_text((72, 340), "Wet blocks damp the echo by a constant factor.",
                     fontsize=10, fontname="helv")  # fmt: skip
    doc.save(path)
    doc.close()
    return path


@pytest.fixture
def library(tmp_path: Path) -> tuple[Path, str]:
    lib = tmp_path / "lib"
    pdf = write_numbered_paper(tmp_path / "numbered.pdf")
    result = runner.invoke(app, ["-L", str(lib), "ingest", "--no-embed", str(pdf)])
    assert result.exit_code == 0, result.output
    listed = json.loads(runner.invoke(app, ["-L", str(lib), "list", "--json"]).stdout)
    return lib, listed[0]["id"]


@pytest.mark.parametrize("spelling", ["3.2", "eq3.2", "(3.2)", "Eq. (3.2)", "equation 3.2"])
def test_section_numbered_equation_is_found(library: tuple[Path, str], spelling: str) -> None:
    lib, doc = library
    result = runner.invoke(app, ["-L", str(lib), "formula", doc, spelling, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["number"], data["page"], data["text"]) == ("3.2", 1, "E = a m u")
    assert data["section"].endswith("3.2 Echo energy")
    assert data["before"] == "The energy of the echo grows with the mass of the block:"
    assert data["after"].startswith("where m is the mass")
    assert data["variables"] == ["E", "a", "m", "u"]


@pytest.mark.parametrize("spelling", ["A.1", "eqA.1", "(A.1)"])
def test_appendix_equation_is_found(library: tuple[Path, str], spelling: str) -> None:
    lib, doc = library
    result = runner.invoke(app, ["-L", str(lib), "formula", doc, spelling, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["number"] == "A.1"


def test_missing_equation_is_formula_not_found_listing_the_valid(
    library: tuple[Path, str],
) -> None:
    lib, doc = library
    for missing in ("eq3.3", "2", "(B.1)"):
        result = runner.invoke(app, ["-L", str(lib), "formula", doc, missing])
        assert result.exit_code == 3
        assert "FORMULA_NOT_FOUND" in result.stderr and "numbered: 3.2, A.1" in result.stderr


@pytest.mark.parametrize("bad", ["eq3-2", "3..2", "eq", "x7", "(3.2", "3.2.1"])
def test_malformed_id_is_invalid_eq_id_with_the_accepted_forms(
    library: tuple[Path, str], bad: str
) -> None:
    lib, doc = library
    result = runner.invoke(app, ["-L", str(lib), "formula", doc, bad])
    assert result.exit_code == 1
    assert "INVALID_EQ_ID" in result.stderr and "accepted forms: 3, 3a, 3.2, A.1" in result.stderr


def test_eq3_2_is_never_read_as_equation_2() -> None:
    assert parse_equation_id("eq3.2") == "3.2"
    assert parse_equation_id("Eq. (12a)") == "12a"
    with pytest.raises(InvalidEquationIdError):
        parse_equation_id("eq3-2")


def test_variables_of_unicode_math() -> None:
    assert variables("E = αmυ²") == ["E", "α", "m", "υ"]
    assert variables("θ(t) = θ + α1 exp(−α2 t)") == ["θ", "t", "α1", "α2"]
