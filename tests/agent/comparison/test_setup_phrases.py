"""Free-phrase columns (agent/comparison/aspect_readers/matrix_phrases.py) on sentences and a paper
the tests
write: the cell is a whole phrase next to the phrase's head noun, or a number in its place among
coordinated settings, and "not stated" where the paper has none."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from citewise.agent.comparison.aspect_readers.phrases.columns import (
    asks_for_number,
    phrase_findings,
)
from citewise.agent.comparison.extraction import Unit
from citewise.cli import app
from citewise.cli.testing import CliRunner

runner = CliRunner()


def values(phrase: str, *sentences: str) -> list[str]:
    units = [Unit(t, f"b-{n}", 3, "4 Model", "paragraph", n) for n, t in enumerate(sentences)]
    found = phrase_findings(phrase, units)
    assert all(f.value in f.quote for f in found)
    return [f.value for f in found]


@pytest.mark.parametrize(
    "phrase,sentence,expected",
    [
        # the whole name before the head noun, not its last words
        ("activation function",
         "Echo cells use the scaled exponential linear unit (SELU) activation function.",
         "scaled exponential linear unit (SELU) activation function"),
        # each coordinated name takes the value in its place
        ("window size",
         "For granite notes we use an embedding size and window size of 300 and 7 respectively.",
         "7"),
        # a list of values is the whole list
        ("kernel size", "The quarry encoder tries kernel sizes of 2, 4 and 6 in parallel.",
         "2, 4 and 6"),
        # "number of X" counts X, written before it
        ("number of hidden units", "Each echo layer has 384 hidden units.", "384"),
    ],
)  # fmt: skip
def test_a_free_phrase_is_answered_with_a_whole_value(phrase: str, sentence: str, expected: str
                                                      ) -> None:  # fmt: skip
    assert values(phrase, sentence) == [expected]


@pytest.mark.parametrize(
    "phrase,sentence",
    [
        # a property of the function says of what kind, not which one
        ("activation function", "Each layer is followed by a non-linear activation function."),
        # a negated link says the paper has none
        ("activation function", "With one-hot inputs the activation function is not needed."),
        # a verb after the link describes what is done, not what it is
        ("activation function", "Echo cells are plain sums, where activation functions are "
                                "removed and weights are tied."),
        # names and values that do not pair up give nothing rather than a neighbour's value
        ("window size", "The embedding size and window size are 300, 7 and 9 respectively."),
    ],
)  # fmt: skip
def test_sentences_that_name_no_value_leave_the_cell_empty(phrase: str, sentence: str) -> None:
    assert values(phrase, sentence) == []


def test_a_count_phrase_asks_for_a_number() -> None:
    assert asks_for_number("number of hidden units") and asks_for_number("beam size")
    assert not asks_for_number("loss function")


PAPER = """# Echo Networks for Granite Field Notes

## Abstract

We tag granite field notes with echo networks.

## 3 Model

The echo encoder uses the gated linear unit (GLU) activation function after each block.

## 4 Training

We train with a focal loss and a beam size of 6 for decoding.
"""


def test_a_free_phrase_column_in_the_matrix(tmp_path: Path) -> None:
    paper = tmp_path / "echo.md"
    paper.write_text(PAPER, encoding="utf-8")
    lib = tmp_path / "lib"
    assert runner.invoke(app, ["-L", str(lib), "ingest", "--no-embed", str(paper)]).exit_code == 0
    doc = json.loads(runner.invoke(app, ["-L", str(lib), "list", "--json"]).stdout)[0]["id"]
    out = tmp_path / "m.csv"
    columns = "activation function,beam size,study design"
    result = runner.invoke(app, ["-L", str(lib), "matrix", "--docs", doc, "--columns", columns,
                                 "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(out.read_text())))
    row = dict(zip(rows[0], rows[1], strict=True))
    assert row["activation function"] == "gated linear unit (GLU) activation function"
    assert row["activation function page"] == "1"
    assert "GLU" in row["activation function quote"]
    assert row["beam size"] == "6"
    assert row["study design"] == "not stated"
