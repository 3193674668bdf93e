"""Main-result and limitations cells on papers the test writes: plans said "in future" or as
an extension of the work, shortcomings the paper sees in its results, the closing section's
plan over one named in passing, a limitation's main clause, and the finding a sentence
reports after "and show that" (agent/comparison/aspect_readers/prose_limitations.py,
prose_headline.py, prose_aspects.py)."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cell_value as _cell

IN_FUTURE = """# Reading Tide Gauges From Photographs

## Abstract

We read the water level from photographs of harbour tide gauges.

## Results

The readings are within 2 cm of the gauge's log on 300 photographs.

## Conclusion

Photographs are enough to read a tide gauge. In future, we will read gauges photographed \
at night under harbour lights.
"""

EXTENSION = """# Dating Church Bells by Their Inscriptions

## Abstract

We date church bells to their decade from the lettering of their inscriptions.

## Results

The dating is right to the decade for 70% of 120 bells.

## Conclusion

Lettering dates a bell well. One potential extension of this work would be to add the \
bell's measured pitch to the lettering.
"""

SERVES_AS_REFERENCE = """# Transcribing Sea Shanties

## Abstract

We transcribe recordings of sea shanties sung by harbour choirs.

## Results

The word error rate is 41.2% on 60 recordings.

## Conclusion

Singing is harder to transcribe than speech, and these error rates could serve as a reference \
for future work on sung folk music.
"""

SEEN_IN_RESULTS = """# Counting Ferries From Radar Echoes

## Abstract

We count the ferries crossing a strait from the echoes of a shore radar.

## Results

The counts match the harbour log on 28 of 30 days. On stormy days we see a drop in accuracy \
of about 12 points, as waves return echoes of their own.

## Conclusion

Shore radar counts ferries reliably in calm weather.
"""

CLOSING_PLAN = """# Naming Streets From Old Maps

## Abstract

We read street names from scanned nineteenth-century city maps.

## Discussion

We trained the older reader on modern maps only and leave the transfer of its weights to old \
maps for future work.

## Results

The reader names 81.5% of the streets on 40 map sheets.

## Conclusion

Old maps can be read without hand labels. In the future we plan to read the house numbers \
printed along the streets as well.
"""

MAIN_CLAUSE = """# Tagging Fish Species in Market Receipts

## Abstract

We tag the fish species named on handwritten market receipts.

## Results

The tagger names the species of 91.2% of the receipt lines.

## Discussion

However, while our tagger reads the receipts of the three largest markets of the coast \
well, its accuracy on the receipts of the small village markets is insufficient.
"""

CONCESSION_HOLDS_IT = """# Tagging Bird Calls in Garden Recordings

## Abstract

We tag the bird species heard in recordings made in gardens.

## Results

The tagger names the species of 88.4% of the calls.

## Discussion

Although more recordings from city gardens would be needed in future work to be sure, our \
tagger seems to handle the calls of garden birds across the whole range of recorded seasons.
"""

REPORTED_FINDING = """# Parsing Recipes Into Steps

## Abstract

We introduce a corpus of cooking recipes, and show that our step parser outperforms a \
sentence splitter on the recipes of every cuisine.

## Conclusion

Recipes can be parsed into steps.
"""


def test_a_plan_said_in_future_without_the_article_is_a_limitation(tmp_path: Path) -> None:
    value = _cell(tmp_path, "tide", IN_FUTURE, "limitations")
    assert "read gauges photographed at night" in value


def test_a_potential_extension_of_this_work_is_a_limitation(tmp_path: Path) -> None:
    value = _cell(tmp_path, "bells", EXTENSION, "limitations")
    assert "measured pitch" in value


def test_results_serving_as_a_reference_for_future_work_plan_nothing(tmp_path: Path) -> None:
    value = _cell(tmp_path, "shanties", SERVES_AS_REFERENCE, "limitations")
    assert "reference" not in value


def test_a_drop_the_paper_sees_in_its_results_is_a_limitation(tmp_path: Path) -> None:
    value = _cell(tmp_path, "ferries", SEEN_IN_RESULTS, "limitations")
    assert "drop in accuracy" in value


def test_the_closing_sections_plan_outranks_one_named_in_passing(tmp_path: Path) -> None:
    value = _cell(tmp_path, "streets", CLOSING_PLAN, "limitations")
    assert "house numbers" in value


def test_a_long_limitation_starts_at_its_main_clause(tmp_path: Path) -> None:
    value = _cell(tmp_path, "fish", MAIN_CLAUSE, "limitations")
    assert value.startswith("its accuracy on the receipts")
    assert "insufficient" in value


def test_a_concession_naming_the_work_left_is_kept(tmp_path: Path) -> None:
    value = _cell(tmp_path, "birds", CONCESSION_HOLDS_IT, "limitations")
    assert "more recordings from city gardens" in value


def test_the_finding_after_and_show_that_is_the_main_result(tmp_path: Path) -> None:
    value = _cell(tmp_path, "recipes", REPORTED_FINDING, "main result")
    assert value.startswith("our step parser outperforms")
