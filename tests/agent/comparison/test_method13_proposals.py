"""Method cells read from proposals the cue missed and set aside (eleventh session;
method_statements.py): "we devised a pipeline ...", "we attempt to develop a ..." propose the
method; "we propose two metrics to measure ..." proposes the evaluation's measures, not it.
"""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

DEVISED = """# Sorting Donated Books

## Abstract

Libraries receive more donated books than their staff can sort. To lighten the sorting, we \
devised a shelving pipeline combined with barcode scanners and a small classifier. We compared \
three different classifiers on a week of donations. Sorting took half as long as before.

## Donations

We logged 4,000 donated books at two libraries.
"""

ATTEMPT = """# Guessing Garden Soil from Photographs

## Abstract

Gardeners rarely know what soil they have. From a photograph and its location we can learn a \
great deal about a garden. Using the colour of the soil and the plants around it, we attempt to \
develop a soil profile for a garden based only on photographs of its beds. The profiles help \
nurseries suggest plants.

## Photographs

We gathered 900 photographs from allotment societies.
"""

MEASURES = """# Faster Ferry Timetables

## Abstract

Ferry timetables are rebuilt by hand each season, and nobody measures how good they are. We \
propose two new metrics to measure passenger waiting time and crew idle time. We then build a \
timetable solver on integer programming with tide windows as constraints. The solver halves \
the planning time.

## Ports

We use the timetables of six ports.
"""

ONE_MEASURE = """# Scoring Crossword Clues

## Abstract

Setters of crosswords have no way to compare how hard their clues are. We propose a new \
metric for the difficulty of a crossword clue that counts the readings a solver must reject. \
It agrees with solvers' ratings on 300 clues.

## Clues

We collected 300 clues from three newspapers.
"""


def _method(tmp_path: Path, paper: str) -> str:
    lib, ids = ingest(tmp_path, {"p": paper})
    return str(cells(lib, ids["p"], "method")["method"]["value"])


def test_a_devised_pipeline_is_the_method_not_the_classifiers_compared(tmp_path: Path) -> None:
    value = _method(tmp_path, DEVISED)
    assert "shelving pipeline" in value, value


def test_what_the_authors_attempt_to_develop_is_the_method(tmp_path: Path) -> None:
    value = _method(tmp_path, ATTEMPT)
    assert "soil profile for a garden" in value, value


def test_metrics_proposed_beside_the_method_do_not_take_its_cell(tmp_path: Path) -> None:
    value = _method(tmp_path, MEASURES)
    assert "timetable solver" in value, value
    assert "metrics" not in value, value


def test_a_single_new_metric_a_paper_proposes_stays_its_method(tmp_path: Path) -> None:
    value = _method(tmp_path, ONE_MEASURE)
    assert "metric for the difficulty" in value, value
