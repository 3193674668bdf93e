"""Limitations cells on papers the test writes (agent/comparison/aspect_readers/
prose_limitations.py): an open problem a paper states ("room for improvement", "still an open
problem", "more ... are needed"), results offered to future research that are no limitation, a
limitations section's sentence admitting a difficulty over one saying "only", a cited work's
drawback named by "this method", and the limitation cue's wider forms."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.comparison.aspect_readers.prose_limitations import (
    about_cited,
    limitation_words,
    stating_weight,
)
from citewise.agent.comparison.extraction import Unit
from tests.agent.comparison.test_matrix_cells import cell_value as _cell

ROOM_LEFT = """# Counting Seals on Ice Floes From Drone Images

## Abstract

We count harbour seals on ice floes from drone images with a detector trained on 900 images.

## Method

Each image is split into tiles and the detector marks every seal in a tile.

## Conclusion

Counts agree with the rangers' counts on most floes. We trained the detector on three winters \
of drone images and counted every floe of the fourth, showing that there is still ample room \
for improvement in separating seals lying close together.
"""

OPEN_PROBLEM = """# Reading Meter Dials From Phone Photos

## Abstract

We read the dials of gas meters from photos that customers take with their phones.

## Method

A network finds each dial and a second one reads its pointer.

## Conclusion

The reader is right on 93% of 4,000 photos. Thus, it is still an open problem to read dials \
photographed at a steep angle.
"""

MORE_NEEDED = """# Tagging Bird Songs in Park Recordings

## Abstract

We tag the species singing in recordings made in city parks.

## Method

A classifier labels each two-second window of a recording.

## Conclusion

We conclude that more elaborate approaches are required to separate birds singing at once.
"""

SERVES_FUTURE = """# Timing Ferry Crossings From Harbour Logs

## Abstract

We time ferry crossings from the logs of two harbours.

## Method

Departures and arrivals are matched by the ferry's name.

## Conclusion

However, given the difficult logs of the smaller harbour, the times here may serve as good \
references for future work on ferry schedules.
"""

SECTION_ONLY_FIRST = """# Finding Cracks in Bridge Photos

## Abstract

We find cracks in photos of concrete bridges.

## Method

A segmentation network marks the pixels of each crack.

## Limitations

We showed in the method section an example of only three photos where the network marks \
every crack. For photos taken in rain, our network may have a difficulty in telling cracks \
from wet stains.
"""

CITED_METHOD = """# Splitting Compound Words for Translation

## Abstract

We split compound words before translating German into English.

## Earlier Splitting

In the work of BIBREF3, rare words are split into pieces from a fixed set. Frequent words stay \
whole. The main limitation of this method is the absence of any morpheme boundary.

## Method

Our splitter cuts a compound where a dictionary finds both of its parts.

## Conclusion

Our splitter improves translation of compounds. In the future we plan to learn the dictionary \
from parallel text.
"""

WIDER_CUE = """# Coding Death Certificates With a Dictionary

## Abstract

We code the causes written on death certificates with a dictionary of medical terms.

## Method

Each term of a certificate is looked up in the dictionary.

## Discussion

A limitation of the proposed tool that lowered recall was the missing detection of terms \
whose adjective stands apart.
"""


def test_room_for_improvement_the_paper_states_is_a_limitation(tmp_path: Path) -> None:
    value = _cell(tmp_path, "seals", ROOM_LEFT, "limitations")
    assert "room for improvement" in value
    assert value.startswith("showing that")  # the late clause that holds it


def test_an_open_problem_stated_in_the_conclusion_is_a_limitation(tmp_path: Path) -> None:
    value = _cell(tmp_path, "meters", OPEN_PROBLEM, "limitations")
    assert "open problem to read dials" in value


def test_more_of_anything_required_is_work_said_to_remain(tmp_path: Path) -> None:
    value = _cell(tmp_path, "birds", MORE_NEEDED, "limitations")
    assert "more elaborate approaches are required" in value


def test_results_offered_as_references_for_future_work_are_none(tmp_path: Path) -> None:
    value = _cell(tmp_path, "ferries", SERVES_FUTURE, "limitations")
    assert "references" not in value and "difficult" not in value


def test_a_limitations_section_prefers_the_admitted_difficulty(tmp_path: Path) -> None:
    value = _cell(tmp_path, "bridges", SECTION_ONLY_FIRST, "limitations")
    assert "difficulty in telling cracks" in value


def test_a_cited_methods_limitation_is_not_the_papers(tmp_path: Path) -> None:
    value = _cell(tmp_path, "compounds", CITED_METHOD, "limitations")
    assert "morpheme boundary" not in value
    assert "learn the dictionary" in value


def test_a_limitation_of_the_tool_with_a_relative_clause_is_read(tmp_path: Path) -> None:
    value = _cell(tmp_path, "certificates", WIDER_CUE, "limitations")
    assert value.startswith("the missing detection of terms")


def test_a_bare_negator_or_only_weighs_nothing() -> None:
    assert stating_weight("We showed an example of only three photos.") == 0.0
    assert stating_weight("We are not able to check every photo.") > 0.0
    assert "only" in limitation_words("weak_admissions")


def _unit(n: int, text: str, block: str) -> Unit:
    return Unit(text, block, 1, "Background", "paragraph", n)


def test_about_cited_needs_a_citation_before_and_no_first_person_between() -> None:
    units = [
        _unit(0, "Rare words are split into pieces BIBREF2.", "b1"),
        _unit(1, "This method ignores morpheme boundaries.", "b1"),
        _unit(2, "We split at morpheme boundaries.", "b2"),
        _unit(3, "This method is slow on long compounds.", "b2"),
    ]
    assert about_cited(units) == {1}
