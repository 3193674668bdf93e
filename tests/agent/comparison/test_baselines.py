"""The `baselines` column names what a paper's own experiments compare against, from the
paper's own statements, and "not stated" where it names nothing or only cites others'
comparisons (agent/comparison/aspect_readers/baselines.py); on Markdown papers the test writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.agent.comparison.aspects import AspectError, normalise_aspect
from tests.agent.comparison.test_matrix_cells import cells, ingest

LISTED = """# Tagging Bird Calls by Species

## Abstract

We tag recorded bird calls with the species that made them.

## Experiments

We compare our tagger with two baselines: Brill-Lite and a majority-species guesser. \
Our tagger is right on 81.2% of the calls.
"""

AS_OURS = """# Reading Meter Dials From Photographs

## Abstract

We read the digits of gas meters from phone photographs.

## Setup

We train a plain GRU digit reader as our baseline. The proposed reader adds a dial locator \
in front of it.
"""

HEADED = """# Predicting Ferry Delays

## Abstract

We predict how late a ferry will arrive from the weather and the harbour traffic.

## Baselines

ShoalNet is a convolutional model over the weather maps of the last six hours.

## Results

Our predictor is within four minutes of the arrival time on 70% of the crossings.
"""

RELATED_ONLY = """# Spotting Potholes From Dashcam Video

## Abstract

We spot potholes in dashcam video of city streets.

## Related Work

Earlier detectors used RoadEye as a baseline and compared against CrackFinder on highway \
footage.

## Results

Our detector finds 88% of the potholes marked by the city's inspectors.
"""

GENERIC = """# Summarising Council Minutes

## Abstract

We summarise the minutes of town council meetings.

## Results

We compare our summariser with the previous methods and it is better on all three towns. \
We also compare it to the annotation task given to the clerks.
"""


def _baselines(tmp_path: Path, name: str, text: str) -> dict[str, object]:
    lib, ids = ingest(tmp_path, {name: text})
    return cells(lib, ids[name], "baselines")["baselines"]


def test_a_list_of_baselines_after_its_colon_is_the_value(tmp_path: Path) -> None:
    cell = _baselines(tmp_path, "birds", LISTED)
    value = str(cell["value"])
    assert "Brill-Lite" in value and "majority-species guesser" in value
    assert cell["page"] == 1 and value in str(cell["quote"])


def test_what_the_paper_takes_as_its_baseline_is_named(tmp_path: Path) -> None:
    assert _baselines(tmp_path, "meters", AS_OURS)["value"] == "a plain GRU digit reader"


def test_a_sentence_under_a_baselines_heading_names_the_system_it_opens_with(
    tmp_path: Path,
) -> None:
    assert _baselines(tmp_path, "ferries", HEADED)["value"] == "ShoalNet"


def test_systems_only_cited_in_related_work_are_not_the_papers_baselines(
    tmp_path: Path,
) -> None:
    assert _baselines(tmp_path, "potholes", RELATED_ONLY)["value"] == "not stated"


def test_a_comparison_naming_no_system_leaves_the_cell_not_stated(tmp_path: Path) -> None:
    assert _baselines(tmp_path, "minutes", GENERIC)["value"] == "not stated"


@pytest.mark.parametrize(
    "written",
    ["baselines", "Baseline", "baseline models", "Baseline Methods", "baseline systems",
     "compared methods", "compared  systems"],
)  # fmt: skip
def test_the_ways_a_user_writes_the_column_reach_the_preset(written: str) -> None:
    assert normalise_aspect(written) == "baselines"


def test_a_single_word_misspelling_the_preset_is_refused_with_it_named() -> None:
    with pytest.raises(AspectError) as err:
        normalise_aspect("baselnies")
    assert "did you mean 'baselines'?" in err.value.hint
