"""Code availability (eleventh session, setup14): the paper's data or code made available by
"we", and an earlier work's left out."""

from __future__ import annotations

from citewise.agent.comparison.extraction import Unit
from citewise.agent.comparison.settings.setup_code import code_findings


def offered(texts: list[str], title: str = "Heron: Tagging Birds") -> list[str]:
    units = [Unit(t, f"b-{n}", 1, "Introduction", "paragraph", n) for n, t in enumerate(texts, 1)]
    return [f.value for f in code_findings(units, title, [])]


def test_the_papers_data_made_available_by_we() -> None:
    text = "Last, we make a new corpus of heron calls available online for other researchers."
    assert offered([text]) == ["available online"]
    assert offered(["We intend to make our dataset freely available to all."]) == [
        "freely available"
    ]


def test_an_earlier_works_data_or_other_things_made_available_are_not() -> None:
    text = "In previous work BIBREF0, we made the heron corpus publicly available to all."
    assert offered([text]) == []
    assert offered(["We plan to make our results available through a website."]) == []


def test_data_the_paper_will_release_is_offered() -> None:
    assert offered(["We extend it to 900 pairs, and we will release this dataset to all."]) == [
        "release this dataset"
    ]
    assert offered(["To help others, we will publish our tagger and datasets."]) == [
        "publish our tagger and datasets"
    ]
    assert offered(["They will release this dataset next year."]) == []
