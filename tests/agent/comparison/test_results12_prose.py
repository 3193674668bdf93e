"""Main-result cells on papers the test writes (agent/comparison/aspect_readers/prose_aspects.py,
prose_headline.py): a finding whose subject is said once before the paper's first verb ("we
compare X and find that Y") where a paper sums up, not where it reports details; a finding
after "results on ... (e.g., ...) show that, for example," and a summed-up finding whose
measured number stands past the point where the cell is cut; a finding stated with a
comparative of size or ease or a word of likeness ("similar", "simpler", "as powerful as");
where a paper sums up no finding, its claim that its resource is the first of its kind."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.comparison.matrix import extractor_files
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


ABBREVIATION = """# Counting Bats at Cave Mouths

## Abstract

We count bats leaving caves at dusk with thermal cameras. Experiments at 12 caves (e.g., \
limestone and sandstone caves) show that, for example, camera counts are within 4.5% of \
the counts of trained observers at every cave.

## Results

Bats left the caves over 40 minutes. The cameras were placed 15 m from each mouth.
"""

NUMBER_PAST_CUT = """# Counting Bats at Cave Mouths

## Abstract

We count bats leaving caves at dusk with thermal cameras placed at each cave mouth. \
Experiments show that counting the bats leaving each of the twelve caves with two thermal \
cameras instead of one camera reduces the counting error of the whole colony by 3.5%.

## Results

Our results show that the cameras counted 2.5% more bats than the observers at the largest \
cave.
"""


def test_an_abbreviation_before_the_cue_verb_ends_no_clause(tmp_path: Path) -> None:
    value = _cell(tmp_path, "bats", ABBREVIATION, "main result")
    assert "camera counts are within 4.5%" in value


def test_a_summed_up_number_past_the_cut_outranks_a_finding_without_one(tmp_path: Path) -> None:
    value = _cell(tmp_path, "bats", NUMBER_PAST_CUT, "main result")
    assert "3.5%" in value and "2.5%" not in value


LIKENESS = """# Reading Tide Gauges From Photographs

## Abstract

We read the water level from photographs of tide gauges taken by volunteers.

## Method

Each photograph is matched to the gauge's scale by its markings.

## Conclusion

Our results against the harbour's sensors show that the levels read from photographs are \
similar to the sensors' levels.
"""


def test_a_finding_of_likeness_is_a_main_result(tmp_path: Path) -> None:
    value = _cell(tmp_path, "tides", LIKENESS, "main result")
    assert "similar to the sensors' levels" in value


def test_the_matrix_cache_version_reads_the_main_result_word_list() -> None:
    assert "prose_results.txt" in {p.name for p in extractor_files()}


NOVELTY = """# A Corpus of Ferry Announcements in Faroese

## Abstract

We introduce FerryTalk, the first corpus of spoken ferry announcements in Faroese. It holds \
the announcements of six ferries recorded over one summer, transcribed by two native speakers.

## Transcription

Two speakers transcribed each announcement and a third settled where they differed.

## Conclusion

The corpus can be used to build speech recognisers for Faroese.
"""

FIRST_STEP = """# A Corpus of Ferry Announcements in Faroese

## Abstract

We record the spoken ferry announcements of six ferries over one summer and transcribe them.

## Conclusion

Our recordings are a first step towards building speech recognition systems for Faroese.
"""


def test_a_resource_claimed_the_first_of_its_kind_is_the_main_result(tmp_path: Path) -> None:
    value = _cell(tmp_path, "ferries", NOVELTY, "main result")
    assert "the first corpus of spoken ferry announcements" in value


def test_a_first_step_claims_no_novelty(tmp_path: Path) -> None:
    assert _cell(tmp_path, "ferries", FIRST_STEP, "main result") == "not stated"
