"""Method cells where a proposal in general words gives way to a statement of the means (ninth
session, second round; method_statements.py):

- a statement whose data or analysis word only modifies a general head ("a set of speech
  analysis tools") states a means and takes over from the proposal before it; one that heads
  its phrase ("an analysis of its errors") does not;
- a proposal in general words outside the abstract, elaborated nowhere in its section, gives
  way to the abstract's statement of the means; with no such statement in the abstract it stays.
"""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

SUBMISSION = """# A System for the Bird Song Challenge

## Abstract

Field recordings hold many bird songs. In this work, we describe our entry for the 2021 bird \
song challenge of the regional ornithology workshop. We describe a set of audio analysis \
systems built on spectrogram features and a gradient boosted ranker. Our systems ranked first.

## Recordings

We used 300 hours of recordings from six forests.
"""

ANALYSIS = """# A System for the Bird Song Challenge

## Abstract

Field recordings hold many bird songs. In this work, we describe our entry for the 2021 bird \
song challenge of the regional ornithology workshop. We also report an analysis of the errors \
our entry made on rare species. Our systems ranked first.

## Recordings

We used 300 hours of recordings from six forests.
"""

ABSTRACT_MEANS = """# Reading Tide Tables Across Formats

## Abstract

Tide tables come in printed and tabular formats. We use table parsing as sequence labeling \
as a shared framework to learn across printed and tabular tide tables. Results on four harbours \
are strong.

## Introduction

Earlier readers of tide tables treat each format on its own, with separate grammars and \
separate rerankers (Smith, 2001). These readers are complex and slow. Instead, we propose a \
very simple framework to learn across printed and tabular tide tables.

## Harbours

We collected tables from four harbours.
"""

NO_ABSTRACT_MEANS = ABSTRACT_MEANS.replace(
    "We use table parsing as sequence labeling as a shared framework to learn across printed "
    "and tabular tide tables.",
    "Reading them is slow.",
)


def _method(tmp_path: Path, paper: str) -> str:
    lib, ids = ingest(tmp_path, {"p": paper})
    return str(cells(lib, ids["p"], "method")["method"]["value"])


def test_an_analysis_word_before_a_general_head_states_a_means(tmp_path: Path) -> None:
    value = _method(tmp_path, SUBMISSION)
    assert "audio analysis systems" in value, value


def test_an_analysis_heading_its_phrase_does_not_take_over(tmp_path: Path) -> None:
    value = _method(tmp_path, ANALYSIS)
    assert "errors" not in value and "entry" in value, value


def test_an_unelaborated_proposal_gives_way_to_the_abstracts_means(tmp_path: Path) -> None:
    value = _method(tmp_path, ABSTRACT_MEANS)
    assert "sequence labeling" in value, value


def test_without_a_means_in_the_abstract_the_proposal_stays(tmp_path: Path) -> None:
    value = _method(tmp_path, NO_ABSTRACT_MEANS)
    assert "very simple framework" in value, value
