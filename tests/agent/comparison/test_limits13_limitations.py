"""Limitations cells on papers the test writes (agent/comparison/aspect_readers/
prose_limitations.py), second round: work a paper says remains to be done ("it remains to be
seen whether ...", "the question ... remains unanswered", "it remains to investigate ..."),
also outside the closing sections; a gap the method section goes on to fill stays out."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cell_value as _cell

REMAINS_TO_BE_SEEN = """# Sorting Parcels by Address Photos

## Abstract

We sort parcels by reading the address printed on each one from a photo taken on the belt.

## Method

A detector finds the address block and a reader turns it into a postcode.

## Conclusion

Sorting errors fall by a third on the test belt. The catch, however, is that the best \
crop size and reader (printed or handwritten) appear to differ from depot to depot, and so it \
remains to be seen whether a single reader can serve every depot of the network.
"""

REMAINS_UNANSWERED = """# Where to Place Rain Gauges in Hill Farms

## Abstract

We place rain gauges on hill farms so that their readings predict runoff into the streams.

## Method

Gauges are placed on a grid and a regression predicts the runoff of each stream.

## Results

Runoff is predicted within ten percent on most streams.

## Discussion

### Which slopes matter?

The question of which slopes matter most remains unanswered, since each farm gives a \
different best placement.
"""

GAP_FILLED = """# Ranking Hiking Trails by Photos

## Abstract

We rank hiking trails by the photos walkers post of them.

## Method

A scorer rates each photo. Although rating photos is simple, there remains a critical \
challenge to rank trails with few photos, since most trails have only one or two. We \
therefore pool the photos of trails that meet.

## Conclusion

Rankings agree with the walkers' own rankings on most trails.
"""


def test_it_remains_to_be_seen_is_work_left_in_the_conclusion(tmp_path: Path) -> None:
    value = _cell(tmp_path, "parcels", REMAINS_TO_BE_SEEN, "limitations")
    assert value.startswith("it remains to be seen whether a single reader"), value


def test_a_question_remaining_unanswered_is_read_where_results_are_discussed(
    tmp_path: Path,
) -> None:
    value = _cell(tmp_path, "gauges", REMAINS_UNANSWERED, "limitations")
    assert "remains unanswered" in value, value


def test_a_challenge_the_method_goes_on_to_meet_is_no_limitation(tmp_path: Path) -> None:
    value = _cell(tmp_path, "trails", GAP_FILLED, "limitations")
    assert "critical challenge" not in value, value


COMPARED_NOT_ABLE = """# Spotting Potholes in Dashcam Video

## Abstract

We spot potholes in dashcam video with a detector trained on frames from city buses.

## Method

The detector marks each pothole in a frame and a tracker joins marks across frames.

## Results

Our detector finds 88% of the potholes the inspectors logged. In contrast, features learned \
by the colour-threshold method are not able to carry over to wet roads, giving fewer hits than \
a random guess.

## Conclusion

The detector finds most potholes the inspectors logged on the bus routes.
"""

OWN_NOT_ABLE = """# Spotting Potholes in Dashcam Video at Night

## Abstract

We spot potholes in night-time dashcam video with a detector trained on frames from city buses.

## Method

The detector marks each pothole in a frame and a tracker joins marks across frames.

## Results

The detector finds 81% of the potholes the inspectors logged. On wet roads, however, our \
detector is not able to tell puddles from potholes, and half of its hits are puddles.

## Conclusion

The detector finds most potholes the inspectors logged at night.
"""


def test_a_compared_method_not_able_to_is_not_the_papers(tmp_path: Path) -> None:
    value = _cell(tmp_path, "potholes", COMPARED_NOT_ABLE, "limitations")
    assert "carry over" not in value, value


def test_the_papers_own_work_not_able_to_stays(tmp_path: Path) -> None:
    value = _cell(tmp_path, "night", OWN_NOT_ABLE, "limitations")
    assert value.startswith("not able to tell puddles from potholes"), value
