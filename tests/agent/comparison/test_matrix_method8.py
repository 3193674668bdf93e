"""Method and main-result cells in forms counted over the QASPER pool (eighth session;
agent/comparison/aspect_readers/abstract_parts.py, method_statements.py, prose_headline.py):

- a structured abstract's heading ("Methods:", "Results.") is read where a paper opens; the
  same words heading a later paragraph ("Methods: the first baseline ...") are not the method;
- "results have shown that ..." states a finding as "results show that ..." does;
- a proposal of an architecture in general words gives way to the sentence stating its means;
- a main result that points at the sections around it or at a numbered reference of the
  converter is no finding;
- what a paper reports ("we present our results") and a task it proposes ("we propose the task
  of ...") are not its method.
"""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

RUN_IN_METHODS = """# Pricing Used Bicycles From Their Listings

## Abstract

Second-hand bicycles are hard to price. We propose a listing reader that encodes the text \
of an advert with a recurrent network and the photo with a small vision model.

## Introduction

Buyers and sellers rarely agree on a price.

## Adverts

We gathered 9,000 adverts from two classified sites over one year.

## Setup

Prices were taken from the final sale.

Methods: The first baseline is the asking price, which ignores the advert and returns the \
price the seller asked for.

The second baseline is the median price of the same frame size.

## Results

The listing reader is closer to the sale price than both baselines.
"""

STRUCTURED = """# Walking Aids After Hip Surgery

## Abstract

Objectives: To learn which walking aid patients keep using after hip surgery.

Methods: A prospective survey of 210 patients followed for six months after discharge.

Results: Patients kept frames longer than sticks.

## Background

Hip surgery is common among older adults.
"""


def test_a_run_in_methods_heading_after_the_opening_is_not_the_method(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"bikes": RUN_IN_METHODS})
    value = str(cells(lib, ids["bikes"], "method")["method"]["value"])
    assert "baseline" not in value
    assert value.startswith("a listing reader")


def test_a_structured_abstract_heading_still_gives_the_method(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"hips": STRUCTURED})
    value = str(cells(lib, ids["hips"], "method")["method"]["value"])
    assert value.startswith("A prospective survey of 210 patients")


HAVE_SHOWN = """# Grading Honey by Its Colour

## Abstract

Honey is graded by eye at most markets. We photograph jars under a fixed lamp and map the \
colour to the grade a panel gives.

## Conclusion

Experiments on four harvests have shown that the photographed colour predicts the panel's \
grade better than the market inspectors do.
"""


def test_results_that_have_shown_a_finding(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"honey": HAVE_SHOWN})
    value = str(cells(lib, ids["honey"], "main result")["main result"]["value"])
    assert value.startswith("the photographed colour predicts the panel's grade better")


ARCHITECTURE = """# Reading Gas Meters From Phone Photos

## Abstract

Utilities still read many meters by hand. We propose a neural network architecture for \
reading meter dials from photos. We combine a corner detector that straightens the dial \
with a digit recogniser trained on synthetic dials.

## Photos

We collected 5,000 photos from field staff.
"""


def test_an_architecture_in_general_words_gives_way_to_its_means(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"meters": ARCHITECTURE})
    value = str(cells(lib, ids["meters"], "method")["method"]["value"])
    assert value.startswith("combine a corner detector that straightens the dial")


FOLLOWING_SECTIONS = """# A Simulator of Crowded Railway Platforms

## Abstract

Platform crowding is hard to study on real stations. We build a simulator in which \
passengers board and alight as timetables say. We show in the following sections that the \
simulator offers a larger and more varied testbed than earlier platform models.

## Passengers

Each passenger walks to the nearest door.
"""


def test_a_finding_shown_in_the_following_sections_is_a_pointer(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"platform": FOLLOWING_SECTIONS})
    value = str(cells(lib, ids["platform"], "main result")["main result"]["value"])
    assert "following sections" not in value


PROPOSED_TASK = """# Summarising Tenancy Agreements in Plain Words

## Abstract

Tenants seldom read their agreements. We propose the task of summarising tenancy \
agreements in plain words for the tenant. We train a sequence-to-sequence summariser on \
clauses paired with plain rewrites written by housing advisers.

## Agreements

We collected 800 agreements from two letting agents.
"""

REPORTED = """# Summarising Tenancy Agreements in Plain Words

## Abstract

Tenants seldom read their agreements. We present some of our measured results over three \
summarisers. We train a sequence-to-sequence summariser on clauses paired with plain \
rewrites written by housing advisers.

## Agreements

We collected 800 agreements from two letting agents.
"""


def test_a_task_the_paper_proposes_is_not_its_method(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"tenancy": PROPOSED_TASK})
    value = str(cells(lib, ids["tenancy"], "method")["method"]["value"])
    assert "task of summarising" not in value
    assert "sequence-to-sequence summariser" in value


def test_results_the_paper_reports_are_not_its_method(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"tenancy": REPORTED})
    value = str(cells(lib, ids["tenancy"], "method")["method"]["value"])
    assert "measured results" not in value
    assert "sequence-to-sequence summariser" in value


def test_a_numbered_reference_without_its_word_is_a_pointer() -> None:
    from citewise.agent.comparison.aspect_readers.prose_headline import points_at

    said = "the refined sampler in algorithm SECREF12 lowers the error further"
    assert points_at("main result", said)
    assert not points_at("main result", "the refined sampler lowers the error by 4.1%")
    assert not points_at("method", said)  # a method may name where it is detailed


CITED_DESIGN = """# Dialect Words in Market Songs

## Abstract

Market songs keep old dialect words alive.

## Introduction

Folklore research has long carried out a qualitative analysis of street cries [4]. Market \
songs have rarely been collected.
"""

OWN_DESIGN = """# Dialect Words in Market Songs

## Abstract

Market songs keep old dialect words alive.

## Introduction

A qualitative analysis of 120 recorded market songs was carried out with two singers. \
Market songs have rarely been collected.
"""


def test_a_study_design_named_beside_a_citation_is_not_the_method(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"cited": CITED_DESIGN, "own": OWN_DESIGN})
    assert cells(lib, ids["cited"], "method")["method"]["stated"] is False
    own = str(cells(lib, ids["own"], "method")["method"]["value"])
    assert own.startswith("A qualitative analysis of 120 recorded market songs")


def test_the_design_rank_names_the_study_design_cue() -> None:
    from citewise.agent.comparison.aspect_readers.method_statements import DESIGN_RANK
    from citewise.agent.comparison.aspect_readers.prose_aspects import PROSE_CUES

    assert PROSE_CUES["method"][DESIGN_RANK].search("we ran a cross-sectional study of clinics")
    assert not PROSE_CUES["method"][DESIGN_RANK].search("we propose a parser")
