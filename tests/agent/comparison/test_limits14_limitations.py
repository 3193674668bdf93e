"""Limitations cells on papers the test writes (agent/comparison/aspect_readers/
prose_limitations.py and prose_aspects.py), third round: work left in words the plan reader
did not take ("X remains an avenue for future work" outside the closing sections, "Further
experiments will include ...") and a first-person plan that cites the work it compares to;
a plural "avenues for further research" announcing a list, and a cited work's drawback, stay
out."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cell_value as _cell

AVENUE = """# Smaller Spell Checkers by Pruning

## Abstract

We shrink a neural spell checker by pruning its weights and its vocabulary.

## Method

The checker is pruned layer by layer and retrained after each step.

## Results

Pruning half of the weights costs less than one point of accuracy.

## Other Observations

We also tried sharing weights between layers, which gave similar accuracy. Combining such \
sharing with pruning to shrink the checker further remains an avenue for future work.

## Conclusion

Pruned checkers run twice as fast on phones.
"""

AVENUES_ANNOUNCED = """# Smaller Spell Checkers by Pruning

## Abstract

We shrink a neural spell checker by pruning its weights and its vocabulary.

## Method

The checker is pruned layer by layer and retrained after each step.

## Results

Pruning half of the weights costs less than one point of accuracy.

## Questions Left Open

We see two main avenues for further research.

## Conclusion

Pruned checkers run twice as fast on phones.
"""

FURTHER_EXPERIMENTS = """# Detecting Lameness in Dairy Cows from Gait Videos

## Abstract

We detect lameness in dairy cows from short videos of their gait.

## Method

A pose tracker follows each leg and a classifier scores the stride.

## Conclusion

The classifier finds most lame cows a week before the farmer does. Further experiments will \
include herds of other breeds and videos filmed at night.
"""

PLAN_CITING = """# Grading Essays with Reader Profiles

## Abstract

We grade student essays with a network that also reads a profile of the teacher.

## Method

The essay and the profile are encoded and joined before the grading layer.

## Conclusion

Profiles improve grading on every course. We plan to compare our grader to the profile \
networks of [4], after replacing its last layer by a deeper one.
"""

CITED_DRAWBACK = """# Grading Essays with Reader Profiles

## Abstract

We grade student essays with a network that also reads a profile of the teacher.

## Method

The essay and the profile are encoded and joined before the grading layer.

## Conclusion

Profiles improve grading on every course. The grader of [4] cannot handle essays longer \
than a page.
"""


def test_an_avenue_for_future_work_is_a_plan_outside_the_closing_sections(
    tmp_path: Path,
) -> None:
    value = _cell(tmp_path, "avenue", AVENUE, "limitations")
    assert "remains an avenue for future work" in value, value


def test_avenues_announcing_a_list_are_no_plan(tmp_path: Path) -> None:
    value = _cell(tmp_path, "avenues", AVENUES_ANNOUNCED, "limitations")
    assert "avenues" not in value, value


def test_further_experiments_will_include_is_a_plan(tmp_path: Path) -> None:
    value = _cell(tmp_path, "cows", FURTHER_EXPERIMENTS, "limitations")
    assert value.startswith("Further experiments will include herds of other breeds"), value


def test_a_first_person_plan_citing_the_work_it_compares_to_is_the_papers(
    tmp_path: Path,
) -> None:
    value = _cell(tmp_path, "essays", PLAN_CITING, "limitations")
    assert value.startswith("compare our grader to the profile networks"), value


def test_a_cited_works_drawback_stays_out(tmp_path: Path) -> None:
    value = _cell(tmp_path, "essays2", CITED_DRAWBACK, "limitations")
    assert "cannot handle" not in value, value
