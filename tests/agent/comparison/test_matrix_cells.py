"""Matrix and compare cells on Markdown papers the test writes: whole phrases (never cut
mid-word), the paper's own statements before others', limitations from their section."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.agent.comparison.aspect_readers.matrix_cells import (
    MAX_CELL,
    in_sections,
    shorten,
    whole_phrase,
)
from citewise.agent.comparison.aspects import qualified
from citewise.agent.comparison.extraction import ELLIPSIS, Finding
from citewise.cli import app
from citewise.cli.testing import CliRunner

runner = CliRunner()

LONG_METHOD = (
    "# Tide Gauges From Harbour Webcams\n\n## Abstract\n\n"
    "We propose a lightweight recurrent estimator that reads water levels from harbour "
    "webcam footage recorded during storm surges and calibrates itself against nearby "
    "tide gauges without any manual annotation of the frames.\n"
)


def ingest(tmp_path: Path, papers: dict[str, str]) -> tuple[Path, dict[str, str]]:
    lib = tmp_path / "lib"
    files = []
    for name, text in papers.items():
        path = tmp_path / f"{name}.md"
        path.write_text(text)
        files.append(str(path))
    result = runner.invoke(app, ["-L", str(lib), "ingest", "--no-embed", *files])
    assert result.exit_code == 0, result.output
    listed = json.loads(runner.invoke(app, ["-L", str(lib), "list", "--json"]).stdout)
    return lib, {Path(d["path"]).stem: d["id"] for d in listed}


def cells(lib: Path, doc: str, columns: str) -> dict[str, dict[str, object]]:
    out = lib.parent / "m.json"
    result = runner.invoke(
        app, ["-L", str(lib), "matrix", "--docs", doc, "--columns", columns, "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    row = json.loads(out.read_text())["rows"][0]
    return dict(row["cells"])


def cell_value(tmp_path: Path, name: str, text: str, column: str) -> str:
    """The value of one column's cell of one paper the test writes."""
    lib, ids = ingest(tmp_path, {name: text})
    return str(cells(lib, ids[name], column)[column]["value"])


def test_a_long_clause_is_cut_at_a_word_with_an_ellipsis(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"webcam": LONG_METHOD})
    method = cells(lib, ids["webcam"], "method")["method"]
    value = str(method["value"])
    assert value.endswith(ELLIPSIS) and len(value) <= MAX_CELL + 1
    body = value.removesuffix(ELLIPSIS)
    quote = str(method["quote"])
    assert body in quote
    after = quote[quote.find(body) + len(body)]
    assert not after.isalnum()  # the cut falls between words
    assert body.split()[-1] not in {"and", "of", "the", "from", "without"}


def test_a_span_that_stops_inside_a_word_is_completed() -> None:
    quote = "Patients entered a cardiac rehabilitation programme after discharge."
    cut_mid_word = Finding("method", "a cardiac reh", quote, 1, "b1", "Methods", 1.0)
    cell = whole_phrase(cut_mid_word)
    assert cell.value == "a cardiac rehabilitation" and not cell.cut


def test_a_short_value_is_left_whole() -> None:
    assert shorten("heart failure outcomes") == ("heart failure outcomes", False)
    long = "word " * 40
    short, was_cut = shorten(long.strip())
    assert was_cut and len(short) <= MAX_CELL and not short.endswith(" ")


@pytest.mark.parametrize("limit", [30, 60])
def test_shorten_prefers_a_clause_boundary(limit: int) -> None:
    text = "a sensor array mounted on buoys, calibrated each night against satellite altimetry"
    short, was_cut = shorten(text, limit)
    assert was_cut and text.startswith(short)
    assert short == "a sensor array mounted on buoys" or len(short) <= limit


KELP = """# Counting Kelp Stipes From Drone Imagery

## Abstract

We present a density regression network that counts kelp stipes in drone images of rocky reefs.

## Related Work

Earlier work proposes a texture tracker that follows single kelp fronds across frames.
Sonar transects are limited to shallow reefs with calm water (Ito and Sato, 2015).
Diver surveys achieve an agreement of 91.5% between observers [4].

## Method

Our tiling step suffers from visible seams between neighbouring image tiles.

## Results

Our results show that the network counts stipes within 8.2% of diver counts.

## Limitations

All annotations come from a single stretch of coastline surveyed in one season.
"""

ONLY_OTHERS = """# Notes on Reef Survey Practice

## Introduction

Reef surveys matter for fisheries.

## Related Work

Prior studies propose a diver census protocol that counts urchins along fixed transects.
Their results show that towed cameras miss small urchins (Smith et al., 2019).
"""


def test_related_work_never_fills_a_cell(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"kelp": KELP, "notes": ONLY_OTHERS})
    columns = "method,main result,limitations"
    for doc in ids.values():
        for column, cell in cells(lib, doc, columns).items():
            if cell["stated"]:
                quote = str(cell["quote"])
                assert "Earlier work" not in quote and "Sonar" not in quote, column
                assert "Diver surveys" not in quote and "towed cameras" not in quote, column
    notes = cells(lib, ids["notes"], columns)
    assert not notes["method"]["stated"] and not notes["main result"]["stated"]


def test_a_limitations_section_wins_over_a_drawback_named_elsewhere(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"kelp": KELP})
    got = cells(lib, ids["kelp"], "limitations,main result")
    assert "single stretch of coastline" in str(got["limitations"]["value"])
    assert "8.2%" in str(got["main result"]["value"])


ABBREVIATED = """# Ranking Tide Tables With Small Encoders

## Training

We fine-tune the encoder on tide-table pairs (LR: 2e-5, warmup of 500 steps).

## Ablation

A second run trains the ranking head alone with lr=3e-4 and no warmup.
"""


def test_abbreviated_learning_rates_are_read_exactly(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"tides": ABBREVIATED})
    result = runner.invoke(app, ["-L", str(lib), "setup", ids["tides"], "--json"])
    assert result.exit_code == 0, result.output
    rates = json.loads(result.stdout)["aspects"]["learning rate"]["values"]
    assert [v["value"] for v in rates] == ["2e-5", "3e-4"]
    assert all(v["value"] in v["quote"] for v in rates)


STUDY = """# Seagrass Loss Along Estuaries

## Methods

The study design was a paired before-after survey of twelve estuaries.
The loss function is a focal loss weighted by class frequency.

## Related Work

In earlier surveys the study design is a single census (Park et al., 2018).
"""

NO_DESIGN = """# Reading Tide Gauges

## Methods

We read tide gauges from webcam frames with a small convolutional network.
"""


def test_a_free_phrase_column_is_answered_per_paper(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"study": STUDY, "gauges": NO_DESIGN})
    got = cells(lib, ids["study"], "study design,loss function")
    assert got["study design"]["value"] == "a paired before-after survey of twelve estuaries"
    assert got["loss function"]["value"] == "a focal loss weighted by class frequency"
    assert got["study design"]["page"] == 1
    none = cells(lib, ids["gauges"], "study design")
    assert none["study design"] == {**none["study design"], "stated": False, "quote": None}
    bad = runner.invoke(app, ["-L", str(lib), "matrix", "--columns", "optimzer", "--out", "x.json"])
    assert bad.exit_code != 0 and "UNKNOWN_ASPECT" in str(bad.exception)


def test_a_rerun_with_one_new_column_computes_only_that_column(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"kelp": KELP, "study": STUDY, "notes": ONLY_OTHERS})
    out = tmp_path / "m.json"

    def run(columns: str) -> dict[str, object]:
        args = ["-L", str(lib), "matrix", "--all", "--columns", columns, "--out", str(out)]
        result = runner.invoke(app, [*args, "--json"])
        assert result.exit_code == 0, result.output
        return dict(json.loads(result.stdout))

    first = run("task,method,limitations")
    assert (first["computed"], first["cached"]) == (9, 0)
    again = run("task,method,limitations,study design")
    assert (again["computed"], again["cached"]) == (3, 9)  # one new cell per paper
    assert run("task,method,limitations,study design")["computed"] == 0


def test_a_cell_never_opens_or_closes_half_a_bracket() -> None:
    quote = "We report Mean Absolute Error (MAE) and Root Mean Square Error (RMSE) per fold."
    f = Finding("metrics", "MAE) and Root Mean Square Error (RMSE", quote, 1, "b", "4", 1.0)
    assert whole_phrase(f).value == "Mean Absolute Error (MAE) and Root Mean Square Error (RMSE)"


def test_a_metric_keeps_the_qualifier_it_is_named_with() -> None:
    quote = "The detector reaches an average precision of 91.2% on the held-out photographs."
    f = Finding("metrics", "precision", quote, 1, "b", "4 Results", 2.0)
    assert qualified(f).value == "average precision"


@pytest.mark.parametrize(
    ("heading", "named"),
    [
        ("5 Limitations", True),
        ("IV. Limitations", True),
        ("2.3 Shortcomings > Data", True),
        ("Limitations", True),
        ("Implementation", False),
        ("VI Weaknesses", True),
        ("Lessons", False),
    ],
)
def test_a_heading_is_read_without_its_numbering_only(heading: str, named: bool) -> None:
    # the numbering a heading opens with ("5", "2.3", "IV.") is left out, never the first
    # letters of its first word ("Implementation" is not "mplementation")
    assert in_sections(heading, "limitation_sections") is named


def test_a_value_also_found_inside_an_earlier_word_is_read_where_it_stands_alone() -> None:
    quote = "The network has two encoder layers and a softmax output."
    count = Finding("layers", "two", quote, 1, "b1", "Model", 1.0)
    assert whole_phrase(count).value == "two"
    assert "two" in "network"  # the first place of the value is inside a word
