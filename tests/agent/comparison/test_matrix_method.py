"""The method cell on Markdown papers the test writes: the method a paper says it uses or
will present, not a study design named in passing."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

USES = """# Counting Seabirds From Drone Photographs

## Abstract

Seabird colonies are hard to count from the ground.

## Introduction

Counting nesting birds matters for conservation. To this end, we perform a case study on \
gannet colonies of the North Sea, a setting where nests are densely packed. We use a simple \
method based on density maps to count birds in overlapping drone photographs.
"""

WILL_PRESENT = """# Authoring Rules in Plain English

## Abstract

Knowledge engineers are scarce. In this proposal, I will present RULEPEN, a system that turns \
restricted English sentences into logic rules.
"""


def test_the_method_a_paper_says_it_uses_fills_the_cell(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"birds": USES})
    value = str(cells(lib, ids["birds"], "method")["method"]["value"])
    assert value.startswith("a simple method based on density maps")


def test_a_system_the_author_will_present_is_the_method(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"rules": WILL_PRESENT})
    value = str(cells(lib, ids["rules"], "method")["method"]["value"])
    assert value.startswith("RULEPEN, a system")


MEANS_ONLY = """# Reading Tide Gauges From Scanned Charts

## Abstract

Historic tide records survive as paper charts. We combine a curve tracer with a digit \
recogniser to turn scanned charts into hourly water levels.

## Setup

We use the Adam optimiser with a learning rate of 0.001.
"""


def test_the_means_an_abstract_names_is_the_method_and_a_setup_choice_is_not(
    tmp_path: Path,
) -> None:
    lib, ids = ingest(tmp_path, {"tides": MEANS_ONLY})
    value = str(cells(lib, ids["tides"], "method")["method"]["value"])
    assert value.startswith("combine a curve tracer with a digit recogniser")  # the verb says how
    assert "Adam" not in value
