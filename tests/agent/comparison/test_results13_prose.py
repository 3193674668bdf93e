"""Main-result cells on papers the test writes (agent/comparison/aspect_readers/prose_aspects.py,
prose_headline.py): an abstract's opening sentences about what the field has achieved, before
the paper first speaks of its own work, state no finding of the paper."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_results12_prose import _cell

BACKGROUND = """# Pruning Hedges for Nesting Wrens

## Abstract

Cutting hedges in late winter achieves much higher nesting rates for many garden birds. \
In this paper we cut hedges at three heights in forty gardens and count wren nests.

## Results

Wrens nested in 31 of the 40 gardens. Most nests were low in the hedge.

## Conclusion

We show that wrens nest far more often in hedges cut to waist height than in uncut ones.
"""

OPENS_WITH_OWN_FINDING = """# Pruning Hedges for Nesting Wrens

## Abstract

Cutting hedges to waist height achieves much higher nesting rates for wrens in our forty gardens. \
We cut hedges at three heights and counted nests over two springs.

## Results

Wrens nested in 31 of the 40 gardens.
"""


def test_the_fields_state_an_abstract_opens_with_is_no_main_result(tmp_path: Path) -> None:
    value = _cell(tmp_path, "wrens", BACKGROUND, "main result")
    assert "late winter" not in value
    assert value.startswith("wrens nest far more often")


def test_an_opening_sentence_in_the_papers_own_voice_still_counts(tmp_path: Path) -> None:
    value = _cell(tmp_path, "wrens", OPENS_WITH_OWN_FINDING, "main result")
    assert "much higher nesting rates" in value
