"""The limitations cell on Markdown papers the test writes: a plan the paper leaves for later,
said with or without the words "future work", and a shortcoming it admits about its own work
where it states no limitation otherwise; never a thank-you or another work's drawback."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

LEFT_FOR_LATER = """# Ranking Recipes by Cooking Time

## Abstract

We rank recipes by the time they take, from their ingredient lists alone.

## Method

We fit a gradient-boosted ranker on ingredient counts. Ingredient order is ignored by the \
ranker; modelling it is left for future work.

## Results

The ranker orders 71.2% of recipe pairs correctly.
"""

PLAN_WITHOUT_THE_WORDS = """# Measuring Glacier Retreat From Postcards

## Abstract

We date glacier fronts from historical postcards.

## Conclusion

Postcards date glacier fronts to within twelve years. We would like to thank the archive \
staff for their patience. We also plan to add aerial photographs from the 1950s to the \
collection.
"""

ADMITTED = """# Spotting Typos in Street Signs

## Abstract

We detect misspelled street signs in photographs.

## Related Work

Earlier sign readers cannot handle handwritten signs, as several studies report.

## Discussion

It finds 83% of misspelled signs. Our detector cannot handle signs photographed \
at night, where glare hides the letters.
"""


def test_work_left_for_later_is_a_limitation(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"recipes": LEFT_FOR_LATER})
    value = str(cells(lib, ids["recipes"], "limitations")["limitations"]["value"])
    assert "modelling it is left for future work" in value


def test_a_plan_in_the_conclusion_is_a_limitation_and_a_thank_you_is_not(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"glaciers": PLAN_WITHOUT_THE_WORDS})
    value = str(cells(lib, ids["glaciers"], "limitations")["limitations"]["value"])
    assert "aerial photographs" in value
    assert "thank" not in value


def test_a_shortcoming_the_paper_admits_fills_the_cell_not_one_of_related_work(
    tmp_path: Path,
) -> None:
    lib, ids = ingest(tmp_path, {"signs": ADMITTED})
    value = str(cells(lib, ids["signs"], "limitations")["limitations"]["value"])
    assert "at night" in value
    assert "handwritten" not in value
