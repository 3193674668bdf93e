"""Code availability counts the paper's own data released (the gold's definition), said by
"we" (tenth session, setup12); another work's data said to be released is not."""

from __future__ import annotations

from citewise.agent.comparison.extraction import Unit
from citewise.agent.comparison.settings.setup_code import code_findings


def offered(text: str) -> list[str]:
    unit = Unit(text, "b-1", 1, "Introduction", "paragraph", 1)
    return [f.value for f in code_findings([unit], "Heron: Tagging Birds", [])]


def test_data_the_paper_releases_is_its_availability() -> None:
    assert offered("We release a new annotated heron corpus for future research.") == [
        "release a new annotated heron corpus"
    ]
    assert offered("Finally, we publicize a dataset named HeronDB with 9,000 records.") == [
        "publicize a dataset"
    ]


def test_another_works_data_said_to_be_released_is_not() -> None:
    assert offered("Recently, the Crane dataset BIBREF4 was released with more images.") == []
    assert offered("They release a dataset of bird calls.") == []


def test_a_release_denied_is_not_read() -> None:
    assert offered("We do not release the heron corpus because of its licence.") == []
