"""The paper's own name for its method (agent/comparison/aspect_readers/method_name.py) on papers
the tests
write: a coined acronym the paper defines wins over a baseline it cites, a name before the
title's colon counts, generic abbreviations and task names do not, and the method cell states
the method with its name."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.comparison.aspect_readers.method_name import coined, method_name
from citewise.agent.comparison.extraction import Unit
from tests.agent.comparison.test_matrix_cells import cells, ingest


def _units(*sentences: str, section: str = "Introduction") -> list[Unit]:
    return [Unit(s, f"b{n}", 1, section, "paragraph", n) for n, s in enumerate(sentences)]


def test_a_coined_acronym_wins_over_a_cited_baselines_name() -> None:
    units = _units(
        "Ice cover on lakes is measured by hand.",
        "GlacierNet (Berg and Olsen, 2019) reads ice cover from satellite images.",
        "We propose Lake Ice Segmenter (LISeg), a network that labels each pixel as ice or water.",
        "Like GlacierNet [4], earlier systems ignore cloud shadows.",
        "LISeg is trained on 300 labelled scenes.",
        "LISeg beats GlacierNet [4] by 6 points of accuracy.",
        "GlacierNet [4] misses thin ice.",
    )
    found = method_name(units, "Reading Lake Ice From Orbit")
    assert found is not None
    assert found.name == "LISeg"
    assert found.long_form == "Lake Ice Segmenter (LISeg)"


def test_a_name_before_the_titles_colon_is_the_method() -> None:
    units = _units(
        "Counting birds in drone photographs is slow.",
        "FLOCKR counts nests from density maps.",
        "On the test colonies FLOCKR is within 4% of a manual count.",
    )
    found = method_name(units, "FLOCKR: Counting Seabirds From Drone Photographs")
    assert found is not None and found.name == "FLOCKR"


def test_generic_abbreviations_and_task_names_are_not_a_method() -> None:
    units = _units(
        "Named entity recognition (NER) finds names of people and places.",
        "We propose a CNN, which reads characters.",
        "Our NER system is evaluated on two NER datasets.",
        "The CNN is small.",
    )
    assert method_name(units, "Reading Names in Old Newspapers") is None


def test_a_word_in_capitals_is_not_a_coined_name() -> None:
    units = _units(
        "We call this split TRAIN, which holds most questions.",
        "We train on TRAIN and test on the rest.",
        "TRAIN has 9,000 questions.",
    )
    assert method_name(units, "Asking Better Questions") is None
    assert coined("H-CNN") and coined("S2ORC") and coined("BiDAF")
    assert not coined("Model") and not coined("A")


PAPER = """# Reading Tide Gauges From Scanned Charts

## Abstract

Historic tide records survive only as paper charts. We present a new approach to turn scanned \
charts into hourly water levels.

## Introduction

Earlier work traced curves by hand. We call our system TideTrace, a curve tracer guided by a \
digit recogniser that reads the chart's grid and its pen line together. TideTrace needs no \
manual clicks.

## Experiments

TideTrace reads 95 charts of the Brest archive within 2 cm of the printed levels.
"""


def test_the_method_cell_states_the_method_with_its_name(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"tides": PAPER})
    cell = cells(lib, ids["tides"], "method")["method"]
    assert str(cell["value"]).startswith("TideTrace, a curve tracer guided by a digit recogniser")


def test_a_long_form_the_paper_calls_its_model_gives_the_acronym_and_its_words() -> None:
    units = _units(
        "Our proposed network, which is called a Zero-Shot Tide Reader model (ZTR), reads gauges.",
        "ZTR is our model for charts no one labelled.",
        "ZTR reads 95 charts.",
        "An LSTM (Hochreiter and Schmidhuber, 1997) is the baseline.",
    )
    found = method_name(units, "Reading Tide Gauges")
    assert found is not None and found.name == "ZTR"
    assert found.long_form == "Zero-Shot Tide Reader model (ZTR)"


def test_a_dataset_the_library_knows_is_not_the_method_unless_the_paper_proposes_it() -> None:
    units = _units(
        "Our collection (TideSet) holds 95 charts.",
        "Our collection (TideSet) comes from the Brest archive.",
        "TideSet is split by decade.",
    )
    assert method_name(units, "Reading Tide Gauges") is not None  # named as the paper's own
    assert method_name(units, "Reading Tide Gauges", excluded={"TideSet"}) is None
    proposed = _units("We propose TideSet, a model that reads charts.", "TideSet reads 95 charts.")
    found = method_name(proposed, "Reading Tide Gauges", excluded={"TideSet"})
    assert found is not None and found.name == "TideSet"


def test_a_weak_cue_naming_the_method_does_not_hide_the_names_statement(tmp_path: Path) -> None:
    paper = """# TideTrace: Reading Tide Gauges From Scanned Charts

## Abstract

We propose a simple tracer that can turn scanned tide charts into hourly levels. We test the \
idea by building a tracer, TideTrace, which follows the pen line with a digit recogniser.

## Experiments

TideTrace reads 95 charts of the Brest archive within 2 cm of the printed levels.
"""
    lib, ids = ingest(tmp_path, {"tides": paper})
    cell = cells(lib, ids["tides"], "method")["method"]
    assert str(cell["value"]).startswith("TideTrace, which follows the pen line")
