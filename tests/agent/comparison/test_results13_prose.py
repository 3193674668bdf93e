"""Main-result cells on papers the test writes (agent/comparison/aspect_readers/prose_aspects.py,
prose_headline.py): an abstract's opening sentences about what the field has achieved, before
the paper first speaks of its own work, state no finding of the paper; "we also / finally /
empirically find that Y" states Y, "we also show how ..." states none; "the achieved score"
is a participle, not the sentence's result verb."""

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


ADVERB = """# Counting Moths at Garden Lamps

## Abstract

We count moths at garden lamps of four colours over one summer. We finally observe that \
amber lamps draw far fewer moths than white ones, whatever the night's warmth.

## Results

Most moths came in the first hour after dusk.

## Conclusion

According to our counts, most moths are drawn to lamps in the first hour after dusk, which \
is when the garden is warmest.
"""

SHOWS_HOW = """# Counting Moths at Garden Lamps

## Abstract

We count moths at garden lamps of four colours over one summer. We also show how the counts \
are kept in a shared table, which makes counting easier for volunteers.

## Conclusion

Amber lamps draw far fewer moths than white ones.
"""


def test_an_adverb_between_we_and_the_finding_verb_keeps_the_finding(tmp_path: Path) -> None:
    value = _cell(tmp_path, "moths", ADVERB, "main result")
    assert value.startswith("amber lamps draw far fewer moths")


def test_we_also_show_how_states_no_finding(tmp_path: Path) -> None:
    value = _cell(tmp_path, "moths", SHOWS_HOW, "main result")
    assert "shared table" not in value


PARTICIPLE = """# Counting Moths at Garden Lamps

## Abstract

We count moths at garden lamps of four colours over one summer. We show that amber lamps \
draw far fewer moths than white ones.

## Results

Given these counts, the achieved catch of 12.5 moths per hour seems close to what light \
traps catch in woods.

## Conclusion

Lamp colour matters to moths.
"""


def test_a_participle_after_a_determiner_is_no_result_verb(tmp_path: Path) -> None:
    value = _cell(tmp_path, "moths", PARTICIPLE, "main result")
    assert "12.5" not in value
    assert value.startswith("amber lamps draw far fewer moths")
