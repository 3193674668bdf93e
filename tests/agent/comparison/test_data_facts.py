"""The columns a user types: one word is a free phrase unless it misspells a preset; the
paper's own data size and languages, on Markdown papers the test writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.agent.comparison.aspects import AspectError, normalise_aspect
from citewise.cli import app
from citewise.cli.testing import CliRunner
from tests.agent.comparison.test_matrix_cells import cells, ingest

runner = CliRunner()

REVIEWS = (
    "# Sarcasm in Product Reviews\n\n## Abstract\n\n"
    "We study sarcasm detection in customer reviews written in Portuguese and Catalan.\n\n"
    "## Data\n\n"
    "Our corpus consists of 18,250 annotated reviews gathered from two shopping sites. "
    "Three annotators labelled every review, and Portuguese reviews outnumber Catalan ones.\n\n"
    "We randomly sampled 40 reviews from the corpus to check the labels by hand.\n\n"
    "## Results\n\n"
    "The classifier reaches 81% accuracy on the Portuguese part and 77% on the Catalan part.\n"
)
NO_FACTS = (
    "# Tide Gauges From Harbour Webcams\n\n## Method\n\n"
    "We propose a recurrent estimator that reads water levels from webcam footage.\n"
)


@pytest.mark.parametrize("word", ["annotators", "Vocabulary", "speed"])
def test_a_single_word_is_a_column_of_its_own(word: str) -> None:
    assert normalise_aspect(word) == word.lower()


@pytest.mark.parametrize(
    ("typo", "meant"), [("metircs", "metrics"), ("datset", "datasets"), ("optimzer", "optimizer")]
)
def test_a_word_a_typo_away_from_a_preset_is_refused_naming_it(typo: str, meant: str) -> None:
    with pytest.raises(AspectError) as err:
        normalise_aspect(typo)
    assert err.value.code == "UNKNOWN_ASPECT" and f"did you mean '{meant}'?" in err.value.hint


@pytest.mark.parametrize(
    ("written", "column"),
    [("Dataset size", "dataset size"), ("size of the corpus", "dataset size"),
     ("number of examples", "dataset size"), ("languages studied", "languages"),
     ("Language", "languages"), ("methods", "method")],
)  # fmt: skip
def test_the_ways_a_user_writes_the_data_columns_reach_them(written: str, column: str) -> None:
    assert normalise_aspect(written) == column


def test_the_cli_names_the_preset_a_typo_misses(tmp_path: Path) -> None:
    lib, _ = ingest(tmp_path, {"gauges": NO_FACTS})
    bad = runner.invoke(app, ["-L", str(lib), "matrix", "--columns", "limitatons", "--out", "x"])
    assert bad.exit_code != 0 and "did you mean 'limitations'?" in str(bad.exception)


def test_size_and_languages_are_the_papers_own_data(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"reviews": REVIEWS, "gauges": NO_FACTS})
    got = cells(lib, ids["reviews"], "dataset size,languages studied,annotators")
    size, languages = got["dataset size"], got["languages"]
    assert size["value"] == "18,250 annotated reviews" and "consists of" in str(size["quote"])
    assert languages["value"] == "Portuguese and Catalan"
    assert got["annotators"]["stated"] in (True, False)  # a one-word column is answered
    none = cells(lib, ids["gauges"], "dataset size,languages")
    assert not none["dataset size"]["stated"] and not none["languages"]["stated"]


TRAVELLERS = (
    "# Booking Dialogues\n\n## Introduction\n\n"
    "A trip planned by an Italian, say, takes a dozen turns to book.\n\n## Data\n\n"
    "We collected 2,400 booking dialogues in Dutch from a travel agency's chat logs.\n"
)


def test_a_person_named_by_a_languages_word_is_no_language(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"travel": TRAVELLERS})
    assert cells(lib, ids["travel"], "languages")["languages"]["value"] == "Dutch"
