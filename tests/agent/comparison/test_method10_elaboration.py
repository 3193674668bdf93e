"""Method cells that state how a method works (ninth session; method_statements.py,
prose_aspects.py, matrix_cells.py):

- an unnamed proposal gives way to the next sentence of its paragraph when that sentence says
  it elaborates it ("In more detail, ...", "In the first stage, ...", "These include ...");
  a named proposal, a proposal of data, or a following sentence without such an opening stays;
- a means statement keeps its verb ("cast the task as ..."), and its object, not the verb, is
  what decides whether it states the means;
- a cut before a bracketed acronym keeps the acronym with the words it abbreviates;
- a proposal of a bare noun phrase ("we introduce two new measures."), a means verb whose
  object stood before it ("the photos we use in ...") and one in a condition ("as soon as we
  apply ...") state no method.
"""

from __future__ import annotations

from pathlib import Path

from citewise.agent.comparison.aspect_readers.matrix_cells import shorten
from tests.agent.comparison.test_matrix_cells import cells, ingest

IN_MORE_DETAIL = """# Counting Birds on Power Lines

## Abstract

Utilities want to know how many birds rest on their lines. We present a system for counting \
birds on power lines from drone footage. In more detail, each frame is first split into tiles \
by a line detector, then the birds of each tile are counted by a density regressor.

## Footage

We recorded 40 hours of footage over two summers.
"""

STAGES = """# Two Passes Over Noisy Receipts

## Abstract

Scanned receipts are hard to read. This paper proposes a two-stage approach to read them. \
In the first stage, a coarse recogniser transcribes every line, and in the second stage, a \
corrector rewrites the lines it doubts by looking at the store's price list.

## Receipts

We scanned 3,000 receipts from four shops.
"""

NAMED = """# Counting Birds on Power Lines

## Abstract

Utilities want to know how many birds rest on their lines. We present PerchNet, a network \
that counts birds on power lines from drone footage. In more detail, each frame is first split \
into tiles by a line detector, then the birds of each tile are counted by a density regressor.

## PerchNet

PerchNet is trained on annotated tiles. PerchNet runs on a laptop.
"""

NO_OPENER = """# Counting Birds on Power Lines

## Abstract

Utilities want to know how many birds rest on their lines. We present a system for counting \
birds on power lines from drone footage. Each frame takes under a second on a laptop, and the \
counts agree with those of two observers.

## Footage

We recorded 40 hours of footage over two summers.
"""

CAST = """# Reading River Gauges

## Abstract

Many river gauges are still read by eye. We cast the reading of a gauge photo as the \
labelling of each painted mark with its height.

## Photos

We took 2,000 photos of twelve gauges.
"""


def _method(tmp_path: Path, paper: str) -> str:
    lib, ids = ingest(tmp_path, {"p": paper})
    return str(cells(lib, ids["p"], "method")["method"]["value"])


def test_a_proposal_gives_way_to_the_sentence_that_says_it_elaborates_it(tmp_path: Path) -> None:
    value = _method(tmp_path, IN_MORE_DETAIL)
    assert value.startswith("In more detail, each frame is first split into tiles")


def test_the_first_stage_of_a_two_stage_approach_states_its_means(tmp_path: Path) -> None:
    value = _method(tmp_path, STAGES)
    assert value.startswith("In the first stage, a coarse recogniser")


def test_a_named_proposal_keeps_the_cell(tmp_path: Path) -> None:
    value = _method(tmp_path, NAMED)
    assert value.startswith("PerchNet, a network that counts birds")


def test_a_sentence_that_does_not_say_it_elaborates_does_not_take_over(tmp_path: Path) -> None:
    value = _method(tmp_path, NO_OPENER)
    assert value.startswith("a system for counting birds on power lines")


def test_a_means_statement_keeps_its_verb(tmp_path: Path) -> None:
    value = _method(tmp_path, CAST)
    assert value.startswith("cast the reading of a gauge photo as the labelling")


def test_a_cut_keeps_the_acronym_its_words_define() -> None:
    value = (
        "a detector of nesting sites from aerial survey photos trained on Colony Site Images "
        "(CSI) gathered by volunteers over three breeding seasons"
    )
    short, cut = shorten(value)
    assert cut and short.endswith("Colony Site Images (CSI)")


def test_a_cut_drops_a_bracket_that_is_no_acronym() -> None:
    value = (
        "a detector of nesting sites from aerial survey photos trained on colony site images "
        "(see the appendix) gathered by volunteers over three breeding seasons"
    )
    short, cut = shorten(value)
    assert cut and short.endswith("colony site images")


BARE = """# Choosing a Source Shop for Receipt Readers

## Abstract

Receipt readers trained on one shop fail on another. We compare nine similarity measures \
between the receipts of two shops with the accuracy a reader trained on one reaches on the \
other. Out of these nine measures, we introduce two new measures.

## Receipts

We scanned 3,000 receipts from four shops.
"""


def test_a_bare_noun_phrase_proposed_says_nothing_of_the_method(tmp_path: Path) -> None:
    value = _method(tmp_path, BARE)
    assert value.startswith("nine similarity measures between the receipts")


PREPOSITION_AND_CONDITION = """# Reading Gauges in the Wild

## Abstract

Photos from the field differ from the benchmark photos we use in gauge reading. As soon as \
we apply our readers to field photos, accuracy drops. We combine a step that straightens \
each gauge with a digit reader trained on field photos.

## Photos

We took 2,000 photos of twelve gauges.
"""


def test_a_relative_clause_or_a_condition_states_no_means(tmp_path: Path) -> None:
    value = _method(tmp_path, PREPOSITION_AND_CONDITION)
    assert value.startswith("combine a step that straightens each gauge")
