"""Method cells where a proposal in general words is elaborated by a sentence whose subject is
the proposal itself (tenth session; method_statements.py): "The system rates ...", "Our
model hierarchically builds ..." states what it does and takes over; "This system outperforms
..." reports a result and does not.
"""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

SUBJECT = """# Warning Hikers of Rockfall

## Abstract

Rockfall injures hikers on mountain trails every summer. In this paper, we present the first \
system that warns hikers of rockfall on the trail they walk. If a slope is unstable, the system \
rates each trail segment from seismometer readings and rainfall forecasts. Rangers \
found the warnings useful.

## Trails

We installed seismometers on twelve trails.
"""

RESULT = SUBJECT.replace(
    "If a slope is unstable, the system rates each trail segment from seismometer readings and "
    "rainfall forecasts.",
    "This system significantly outperforms the ranger reports used so far.",
)

WAY = """# Pricing Used Bicycles

## Abstract

Sellers of used bicycles often misjudge their price. We propose a simple yet effective way to \
estimate the price of a used bicycle from its advert. Our model jointly reads the photographs \
and the text of the advert with a shared encoder. It is right within 10% for most adverts.

## Adverts

We collected 20,000 adverts from two websites.
"""


def _method(tmp_path: Path, paper: str) -> str:
    lib, ids = ingest(tmp_path, {"p": paper})
    return str(cells(lib, ids["p"], "method")["method"]["value"])


def test_the_proposal_as_subject_of_the_next_sentence_states_its_means(tmp_path: Path) -> None:
    value = _method(tmp_path, SUBJECT)
    assert value.startswith("the system rates each trail segment"), value


def test_a_result_with_the_proposal_as_subject_does_not_take_over(tmp_path: Path) -> None:
    value = _method(tmp_path, RESULT)
    assert "outperforms" not in value, value
    assert "warns hikers of rockfall" in value, value


def test_a_way_to_do_something_is_a_proposal_in_general_words(tmp_path: Path) -> None:
    value = _method(tmp_path, WAY)
    assert value.startswith("Our model jointly reads the photographs"), value


ENTRIES = """# Our Systems for the Map Reading Challenge

## Abstract

We describe two entries from our laboratory to the 2022 map reading challenge on contour \
lines. Our entry to the small-data track is based on earlier work on hand-written grammars \
together with a strong neural tagger. Both entries ranked in the top five.

## Maps

We used 900 scanned maps.
"""


def test_an_entry_said_to_be_based_on_something_states_its_means(tmp_path: Path) -> None:
    value = _method(tmp_path, ENTRIES)
    assert value.startswith("Our entry to the small-data track is based on earlier work"), value


def test_an_auxiliary_after_the_proposal_states_no_means(tmp_path: Path) -> None:
    paper = SUBJECT.replace(
        "If a slope is unstable, the system rates each trail segment from seismometer readings and "
        "rainfall forecasts.",
        "The system was tested on twelve trails over two summers by the park rangers.",
    )
    value = _method(tmp_path, paper)
    assert "tested" not in value and "warns hikers of rockfall" in value, value
