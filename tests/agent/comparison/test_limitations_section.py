"""A "Limitations" section's cell is the sentence that admits a shortcoming, not the one that
sets the scene or announces what the section analyses, and a limitations heading under a
compared system's heading is that system's (agent/comparison/aspect_readers/prose_limitations.py);
on Markdown papers the test writes."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

SCENE_FIRST = """# Estimating Rainfall From Phone Barometers

## Abstract

We estimate hourly rainfall from the barometers of phones carried in a city.

## Results

The estimates are within 2 mm of the rain gauges for 80% of hours.

## Limitations

In this study we pooled readings from four phone models. Their barometers drift with \
temperature, which adds a bias we could not remove.
"""

ANNOUNCED = """# Tagging Birdsong Recordings by Species

## Abstract

We tag birdsong recordings with the species singing.

## Results

The tagger names the right species for 77% of the recordings.

## Limitations and Strengths

To reveal the limitations and strengths of the tagger, we study how it handles recordings \
of several birds singing at once.
"""

BASELINE_HEADING = """# Reading Tide Tables From Scanned Almanacs

## Abstract

We read the tide tables of scanned almanacs into structured records.

## Baselines

### The Template Reader

A template reader copies cells at fixed positions.

#### Its limitation

It misreads every almanac whose layout shifts by a column.

## Results

Our reader recovers 96% of the table cells.
"""


def _limitation(tmp_path: Path, name: str, text: str) -> str:
    lib, ids = ingest(tmp_path, {name: text})
    return str(cells(lib, ids[name], "limitations")["limitations"]["value"])


def test_the_sentence_admitting_the_shortcoming_is_the_cell(tmp_path: Path) -> None:
    value = _limitation(tmp_path, "rain", SCENE_FIRST)
    assert value.startswith("Their barometers drift with temperature")


def test_a_sentence_announcing_the_analysis_is_no_limitation(tmp_path: Path) -> None:
    assert _limitation(tmp_path, "birds", ANNOUNCED) == "not stated"


def test_a_compared_systems_limitation_heading_is_not_the_papers(tmp_path: Path) -> None:
    assert _limitation(tmp_path, "tides", BASELINE_HEADING) == "not stated"


REMEDIED = """# Recommending Walking Routes From Step Counts

## Abstract

We recommend walking routes to people from the step counts their phones record.

## The Proposed Framework

Earlier recommenders learn routes from the routes people walked before. One drawback of this \
approach is that it cannot recommend a route nobody has walked yet. It also ignores the \
slope of the streets. To address these shortcomings, we add the street map and its \
elevations to the recommender's input.

## Results

Walkers followed 64% of the recommended routes to their end.
"""


def test_a_drawback_the_paper_goes_on_to_remedy_is_no_limitation(tmp_path: Path) -> None:
    assert _limitation(tmp_path, "walks", REMEDIED) == "not stated"


COMPARED = """# Translating Menus With Dish Photos

## Abstract

We translate restaurant menus with the help of photos of the dishes.

## Discussion

The photos fix 40% of the dish names a text-only translator gets wrong. The vanilla \
translator suffers from literal renderings of dish names such as "ants climbing a tree".
"""


def test_a_compared_systems_drawback_is_not_the_papers(tmp_path: Path) -> None:
    assert "literal renderings" not in _limitation(tmp_path, "menus", COMPARED)
