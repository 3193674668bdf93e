"""Main-result cells on papers the test writes: a finding summed up as "this paper has shown
that ...", a finding whose claim word stands past the point where the cell is cut
(agent/comparison/aspect_readers/prose_aspects.py); a limitations value cut to a fragment of
a few words is no limitation."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cell_value as _cell

HAS_SHOWN = """# Counting Cranes From Weather Radar

## Abstract

We count migrating cranes from the echoes of a weather radar.

## Method

Echoes are grouped into flocks by their speed and heading.

## Conclusion

This paper has shown that radar counts of migrating cranes are accurate.
"""

CLAIM_PAST_THE_CUT = """# Sorting Museum Letters by Hand

## Abstract

We sort a museum's letters by sender with a tool that suggests senders from the handwriting.
The results show that the tool needs fewer hours of the archivists' time for each box of \
letters than sorting the boxes without it and gives reasonably accurate senders within a \
small delay per letter.

## Method

The tool compares each letter's handwriting with letters of known senders.
"""

FRAGMENT = """# Timing Bus Arrivals From Stop Cameras

## Abstract

We time bus arrivals from the cameras at bus stops.

## Results and Discussion

In these experiments we aim to show two things. Arrival times are within 20 seconds of the \
drivers' logs for 90% of 2,000 arrivals.

## Conclusion

Stop cameras time bus arrivals well.
"""


def test_a_finding_the_paper_has_shown_is_the_main_result(tmp_path: Path) -> None:
    value = _cell(tmp_path, "cranes", HAS_SHOWN, "main result")
    assert "radar counts of migrating cranes are accurate" in value


def test_a_claim_word_past_the_cut_still_claims_a_finding(tmp_path: Path) -> None:
    value = _cell(tmp_path, "letters", CLAIM_PAST_THE_CUT, "main result")
    assert value.startswith("the tool needs fewer hours")


def test_a_limitation_cut_to_a_few_words_is_none(tmp_path: Path) -> None:
    value = _cell(tmp_path, "buses", FRAGMENT, "limitations")
    assert "two things" not in value
