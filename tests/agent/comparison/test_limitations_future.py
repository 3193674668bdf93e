"""The limitations cell reads a sentence naming future work whatever its verb, what it lists
after a colon, and never a sentence saying the paper serves others' future work
(agent/comparison/aspect_readers/prose_limitations.py); on Markdown papers the test writes."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

ANY_VERB = """# Counting Bees From Hive Audio

## Abstract

We count the bees leaving a hive from a microphone at its entrance.

## Results

The counts are within 9% of a camera's counts on 40 recordings.

## Conclusion

Hive audio is enough to count departing bees. In the future, we also consider recordings \
taken in rain, which the microphone picked up poorly.
"""

LISTED = """# Sorting Letters by Handwriting Era

## Abstract

We date handwritten letters to their decade from the shapes of their letters.

## Conclusion

The dating is right to the decade for two letters in three. Several questions remain for \
future research: letters written by more than one hand, and letters on damaged paper.
"""

SERVES_OTHERS = """# A Corpus of Harbour Radio Calls

## Abstract

We release a corpus of radio calls between ships and harbour masters.

## Method

Calls were recorded with consent that allows unspecified future research on the recordings.

## Conclusion

The corpus holds 3,100 transcribed calls. We hope that it facilitates future research on \
maritime speech.
"""


def _limitation(tmp_path: Path, name: str, text: str) -> str:
    lib, ids = ingest(tmp_path, {name: text})
    return str(cells(lib, ids[name], "limitations")["limitations"]["value"])


def test_future_work_without_a_verb_of_planning_is_a_limitation(tmp_path: Path) -> None:
    assert "recordings taken in rain" in _limitation(tmp_path, "bees", ANY_VERB)


def test_what_a_future_work_sentence_lists_after_its_colon_is_the_value(tmp_path: Path) -> None:
    value = _limitation(tmp_path, "letters", LISTED)
    assert value.startswith("letters written by more than one hand")


def test_work_the_paper_serves_is_no_limitation(tmp_path: Path) -> None:
    assert _limitation(tmp_path, "harbour", SERVES_OTHERS) == "not stated"
