"""Code availability (tenth session, setup13): the paper's own data said available in the
passive, its own program offered as open source, and no code available inside another
project."""

from __future__ import annotations

from citewise.agent.comparison.extraction import Unit
from citewise.agent.comparison.settings.setup_code import code_findings


def offered(text: str, title: str = "Heron: Tagging Birds") -> list[str]:
    unit = Unit(text, "b-1", 1, "Introduction", "paragraph", 1)
    return [f.value for f in code_findings([unit], title, [])]


def test_the_papers_dataset_said_available_in_the_passive() -> None:
    assert offered("The dataset is freely available for the research community.") == [
        "freely available"
    ]
    assert offered(
        "We label 9,000 calls. The annotated corpus for HeronQA is available online."
    ) == ["available online"]


def test_a_cited_or_named_data_set_said_available_is_not() -> None:
    assert offered("The Crane corpus BIBREF4 is publicly available.") == []
    assert offered("Many datasets that are available are small.") == []


def test_the_papers_program_offered_as_open_source() -> None:
    assert offered("We introduce Heron, a light and open-source tool for tagging birds.") == [
        "open-source tool"
    ]
    assert offered("HERON is open source and runs on any laptop.", "HERON: Tagging Birds") == [
        "open source"
    ]


def test_another_programs_open_source_status_is_not() -> None:
    assert offered("CRANE is open source and widely used.", "HERON: Tagging Birds") == []
    assert offered("Moses BIBREF2 is an open-source toolkit for translation.") == []


def test_code_available_inside_another_project_is_not_the_papers() -> None:
    assert offered("The implementation is available in Crane BIBREF9.") == []
    assert offered("Our implementation is available online.") == ["available online"]
