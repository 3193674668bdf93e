"""Main-result cells on papers the test writes (agent/comparison/aspect_readers/prose_aspects.py,
prose_headline.py): a finding whose subject is said once before the paper's first verb ("we
compare X and find that Y") where a paper sums up, not where it reports details."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cell_value as _cell

SAID_ONCE = """# Ringing Owls in Winter Woods

## Abstract

We study the winter roosts of tawny owls in two woods.

## Results

Most roosts were in ivy. We weighed the pellets below each roost.

## Conclusion

We ringed owls in two woods over three winters, and found that ringed owls return to \
the same roost far more often than unringed ones.
"""

DETAIL = """# Ringing Owls in Winter Woods

## Abstract

We study the winter roosts of tawny owls in two woods and ring them where they roost.

## Results

We weighed the pellets below each roost and found that they are of mass 12.4 and 14.1 grams \
in the two woods.

## Conclusion

Ringing owls at their roosts is possible in winter.
"""


def test_a_finding_after_the_papers_first_verb_is_the_main_result(tmp_path: Path) -> None:
    value = _cell(tmp_path, "owls", SAID_ONCE, "main result")
    assert value.startswith("ringed owls return to the same roost far more often")


def test_a_detail_reported_so_in_a_results_section_is_not(tmp_path: Path) -> None:
    value = _cell(tmp_path, "owls", DETAIL, "main result")
    assert "12.4" not in value
