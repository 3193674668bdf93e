"""The limitations cell reads work a paper says remains to be done without the words "future
work" ("more trials are needed", "it would benefit from further investigation"), never a
contribution offered "for further research", and ends a plan before "e.g."
(agent/comparison/aspect_readers/prose_limitations.py); on Markdown papers the test writes."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

NEEDED = """# Predicting Ferry Delays From Harbour Webcams

## Abstract

We predict the delay of ferries from images of the harbour taken every minute.

## Results

The predicted delays are within four minutes of the real ones on 300 crossings.

## Conclusion

Webcam images are enough to predict most delays. More experiments in winter are needed to tell \
whether ice on the lens spoils the images.
"""

INVESTIGATION = """# Ranking Bakery Reviews by Freshness

## Abstract

We rank the reviews of bakeries by how recently the reviewer visited.

## Discussion

The ranking keeps the order of the visits for four reviews in five. Reviews written in \
dialect could benefit from further investigation, since the tagger reads them poorly.
"""

OFFERED = """# A Corpus of Choir Rehearsal Recordings

## Abstract

We record forty choir rehearsals and transcribe the conductor's instructions.

## Conclusion

The corpus holds 1,200 instructions with their timing. We release the recordings for \
further research on how conductors speak.
"""

EXAMPLES = """# Counting Lighthouse Flashes at Night

## Abstract

We count the flashes of lighthouses in night videos taken from passing ships.

## Conclusion

The counts are exact on nine videos in ten. In future work we plan to add videos taken in \
fog, e.g. from the northern coast, where flashes blur into the glow.
"""


def _limitation(tmp_path: Path, name: str, text: str) -> str:
    lib, ids = ingest(tmp_path, {name: text})
    return str(cells(lib, ids[name], "limitations")["limitations"]["value"])


def test_work_said_to_be_needed_is_a_limitation(tmp_path: Path) -> None:
    assert "More experiments in winter are needed" in _limitation(tmp_path, "ferry", NEEDED)


def test_what_would_benefit_from_further_investigation_is_a_limitation(tmp_path: Path) -> None:
    value = _limitation(tmp_path, "bakery", INVESTIGATION)
    assert "written in dialect" in value


def test_data_released_for_further_research_is_no_limitation(tmp_path: Path) -> None:
    assert _limitation(tmp_path, "choir", OFFERED) == "not stated"


def test_a_plan_ends_before_its_examples(tmp_path: Path) -> None:
    value = _limitation(tmp_path, "lighthouse", EXAMPLES)
    assert value.endswith("add videos taken in fog")


LATE_PLAN = """# Dating Pottery Shards From Photos

## Abstract

We date pottery shards to their century from photos of their glaze.

## Conclusion

The dates are right for two shards in three. Dating shards without glaze could be possible, \
for example by reading the clay's colour under a lamp, but we leave this to future work as \
the museum's collection holds few of them.
"""


def test_a_plan_said_late_in_its_sentence_is_its_own_clause(tmp_path: Path) -> None:
    value = _limitation(tmp_path, "pottery", LATE_PLAN)
    assert value.startswith("we leave this to future work")
