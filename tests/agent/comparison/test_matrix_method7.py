"""The method and main-result cells read in forms papers write besides the ones read before
(agent/comparison/aspect_readers/prose_aspects.py, method_statements.py):

- a proposal in the past tense ("in this paper we proposed ..."), the paper's own unless the
  sentence cites the earlier work it was made in;
- the design of a study that compares rather than proposes ("we compare five ranking
  functions"), which a proposal in the same paper outranks;
- a sentence pointing at one of the paper's sections ("in Section 2 we present ...") is its
  roadmap, not its method;
- a main result after "the result shows/suggests" (singular as well as plural) or after "the
  present paper demonstrates that" (any person and tense of the verb), never a result verb
  followed by its means ("this is achieved by combining ...").
"""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

PAST_TENSE = """# Sorting Parcels by Their Labels

## Abstract

Parcel depots sort millions of boxes a day. In this paper we proposed a sorter which reads \
the handwritten postcode with a stroke recogniser and routes the box to its belt. We also \
use a small camera rig to photograph every box. The sorter routes 97.1% of boxes correctly.

## Experiments

We ran the sorter for a week at one depot.
"""

EARLIER_WORK = """# Sorting Parcels by Their Labels

## Abstract

Parcel depots sort millions of boxes a day. In earlier work [3], we introduced a collection \
of labelled photos of parcels. We use a convolutional reader to route every box by its \
printed postcode. The reader routes 97.1% of boxes correctly.

## Experiments

We ran the reader for a week at one depot.
"""


def test_a_proposal_in_the_past_tense_is_the_method(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"parcels": PAST_TENSE})
    value = str(cells(lib, ids["parcels"], "method")["method"]["value"])
    assert value.startswith("a sorter which reads the handwritten postcode")


def test_a_past_proposal_citing_earlier_work_is_not_the_method(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"parcels": EARLIER_WORK})
    value = str(cells(lib, ids["parcels"], "method")["method"]["value"])
    assert "collection of labelled photos" not in value
    assert "convolutional reader" in value


STUDY = """# How Well Do Spelling Checkers Handle Dialect?

## Abstract

Spelling checkers are tuned to standard forms. We evaluate five spelling correction \
systems on letters written in three regional dialects and ask readers to rate each \
correction. Commercial checkers change 14.2% of dialect words that readers accept.

## Introduction

Many writers mix dialect words into otherwise standard prose. We use a small pool of \
volunteer readers to judge every correction.

## Letters

We gathered 300 letters from local archives.
"""

STUDY_AND_PROPOSAL = """# How Well Do Spelling Checkers Handle Dialect?

## Abstract

Spelling checkers are tuned to standard forms. We propose a dialect-aware checker which \
looks words up in a regional lexicon before it corrects them. We compare five spelling \
correction systems on letters written in three regional dialects. Our checker changes 3.1% \
of dialect words that readers accept.

## Letters

We gathered 300 letters from local archives.
"""


def test_a_study_that_compares_methods_has_them_as_its_method(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"dialect": STUDY})
    value = str(cells(lib, ids["dialect"], "method")["method"]["value"])
    assert value.startswith("five spelling correction systems")


def test_a_proposal_outranks_the_comparison_it_is_part_of(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"dialect": STUDY_AND_PROPOSAL})
    value = str(cells(lib, ids["dialect"], "method")["method"]["value"])
    assert value.startswith("a dialect-aware checker")


ONE_RESULT = """# Teaching a Parser Old Spelling

## Abstract

Parsers trained on modern text stumble on early printed books. We train a parser on modern \
text and adapt it with a few hundred transcribed pages. The result suggests that a short \
adaptation makes the parser far more robust on old spelling.

## Pages

We transcribed 400 pages of early printed books.
"""


def test_a_finding_stated_after_the_result_in_the_singular(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"parser": ONE_RESULT})
    value = str(cells(lib, ids["parser"], "main result")["main result"]["value"])
    assert value.startswith("a short adaptation makes the parser far more robust")


PAPER_SHOWS = """# Teaching a Parser Old Spelling

## Abstract

Parsers trained on modern text stumble on early printed books. We adapt a parser with a few \
hundred transcribed pages. The present paper demonstrates that the adapted parser is more \
robust on old spelling.

## Pages

We transcribed 400 pages of early printed books.
"""


def test_a_finding_the_paper_itself_demonstrates(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"parser": PAPER_SHOWS})
    value = str(cells(lib, ids["parser"], "main result")["main result"]["value"])
    assert value.startswith("the adapted parser is more robust")


ROADMAP = """# Forecasting River Levels From Rain Gauges

## Abstract

Flood warnings come late on small rivers.

## Introduction

In Section 2 we present earlier forecasting schemes for small rivers and their gauges. We \
combine a gradient-boosted regressor with upstream gauge readings taken every ten minutes. \
The forecasts reach the warning office two hours earlier.

## Gauges

We read 40 gauges for three winters.
"""


def test_a_roadmap_sentence_is_not_the_method(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"river": ROADMAP})
    value = str(cells(lib, ids["river"], "method")["method"]["value"])
    assert "earlier forecasting schemes" not in value
    assert "gradient-boosted regressor" in value


MEANS_NOT_FINDING = """# Forecasting River Levels From Rain Gauges

## Abstract

Flood warnings come late on small rivers. This is achieved by combining upstream gauges \
with rain radar in one regressor. Our forecasts reach the warning office two hours earlier \
than the current bulletin.

## Gauges

We read 40 gauges for three winters.
"""


def test_a_result_verb_followed_by_its_means_is_no_finding(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"river": MEANS_NOT_FINDING})
    value = str(cells(lib, ids["river"], "main result")["main result"]["value"])
    assert "achieved by combining" not in value
