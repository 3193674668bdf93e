"""Main-result cells on papers the test writes (agent/comparison/aspect_readers/prose_aspects.py,
prose_headline.py): a finding's clause that ends at a colon runs on through the statement the
colon opens ("our guess is confirmed: X"; "it improves on both sets: the gains are 2.4 and
0.9"), and a colon that opens only a label ("(recall: 0.7") leaves the clause as it was."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.comparison.aspect_readers.prose_headline import past_colon
from tests.agent.comparison.test_matrix_cells import cell_value as _cell

ANNOUNCED = """# Bell Ringing and Sleep in Village Houses

## Abstract

We record the sleep of sixty villagers over two winters while the church bells ring at \
night or stay silent.

## Results

Most villagers woke once a night.

## Conclusion

We find that our guess is confirmed: villagers within earshot of the bells sleep no less than \
those beyond it, whatever the season.
"""

WITH_NUMBERS = """# Sorting Parcels by Postcode Shape

## Abstract

We sort parcels by the shape of their handwritten postcodes in two depots. Experiments show \
that the sorter makes clear improvements over hand sorting: the gains are 2.4 and 0.9 points \
of accuracy in the small and the large depot.

## Results

Most parcels carried printed labels.
"""


def test_a_findings_clause_runs_on_through_what_its_colon_announces(tmp_path: Path) -> None:
    value = _cell(tmp_path, "bells", ANNOUNCED, "main result")
    assert value.startswith("our guess is confirmed: villagers within earshot")


def test_a_colon_that_opens_the_numbers_brings_them_into_the_cell(tmp_path: Path) -> None:
    value = _cell(tmp_path, "parcels", WITH_NUMBERS, "main result")
    assert "clear improvements over hand sorting: the gains are 2.4 and 0.9" in value


def test_a_colon_before_a_label_or_a_short_tail_ends_the_clause() -> None:
    text = "Our tagger reaches an F-score of 0.79 (recall: 0.75, precision: 0.83)."
    end = text.index(":")
    assert past_colon(text, end) == end  # "0.75, precision" is a label's value
    text = "It helps the most in two cases: rare words and long words."
    end = text.index(":")
    assert text[: past_colon(text, end)].endswith("rare words and long words")
    text = "This is known as rutherford-xue 2015:NAACL in the literature."
    end = text.index(":")
    assert past_colon(text, end) == end  # no space after it: a citation key's colon
