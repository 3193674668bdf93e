"""A shortcoming a paper admits where it reports its results, without a limitation cue, fills
the limitations cell when the clause names the paper's own work; a baseline's weakness, an
ablated variant's and a problem the work remedies do not (on Markdown papers the test writes)."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

OWN = """# Parsing Recipe Steps Into Actions

## Abstract

We parse cooking instructions into sequences of actions on ingredients.

## Results

Our parser recovers 78% of the actions in the test recipes. However, our parser performs \
poorly on steps that refer back to an earlier bowl, which it attaches to the newest one.
"""

OTHERS = """# Parsing Recipe Steps Into Actions

## Abstract

We parse cooking instructions into sequences of actions on ingredients.

## Baselines

A keyword tagger is the first baseline we compare with; this model cannot link actions \
across steps.

## Results

The keyword tagger performs worse than our parser on every recipe. Without the bowl \
tracker, our parser fails to link half of the steps. The dropout we add to avoid \
overfitting keeps training stable.
"""


def _limitation(tmp_path: Path, name: str, text: str) -> str:
    lib, ids = ingest(tmp_path, {name: text})
    return str(cells(lib, ids[name], "limitations")["limitations"]["value"])


def test_a_shortcoming_of_the_papers_own_work_in_its_results_is_a_limitation(
    tmp_path: Path,
) -> None:
    assert "performs poorly on steps that refer back" in _limitation(tmp_path, "own", OWN)


def test_a_baselines_an_ablations_or_a_remedied_weakness_is_no_limitation(
    tmp_path: Path,
) -> None:
    assert _limitation(tmp_path, "others", OTHERS) == "not stated"


SETTING = """# Rating Hotel Reviews From Their Titles

## Abstract

We predict a review's star rating from its title alone.

## Data

Each title is limited to the first twelve words of the review.

## Results

Titles alone predict the rating within one star for 81% of the reviews.
"""

OWN_LIMIT = """# Rating Hotel Reviews From Their Titles

## Abstract

We predict a review's star rating from its title alone.

## Results

Titles alone predict the rating within one star for 81% of the reviews. For Greek reviews \
we are limited by the size of the sentiment lexicon we translated.
"""


def test_a_setting_limited_to_a_size_is_no_limitation(tmp_path: Path) -> None:
    assert _limitation(tmp_path, "setting", SETTING) == "not stated"


def test_limited_by_said_of_the_papers_own_work_is_a_limitation(tmp_path: Path) -> None:
    assert "size of the sentiment lexicon" in _limitation(tmp_path, "own", OWN_LIMIT)
