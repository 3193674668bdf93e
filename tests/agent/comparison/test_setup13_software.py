"""A parser, a decoder and an annotation-aggregation program of matrix_software.txt's [tools]
(tenth session, setup13), read where the paper uses them."""

from __future__ import annotations

from citewise.agent.comparison.extraction import Unit
from citewise.agent.comparison.settings.setup_software import software_findings


def names(text: str) -> list[str]:
    unit = Unit(text, "b-1", 4, "5 Experiments", "paragraph", 1)
    return [f.value for f in software_findings([unit], set())]


def test_the_new_tools_are_read_where_the_paper_uses_them() -> None:
    assert names("We parse the heron posts using the TweeboParser BIBREF3.") == ["TweeboParser"]
    assert names("For decoding we use the SGNMT decoder with a beam of 8.") == ["SGNMT"]
    assert names("We used MACE BIBREF5 to merge the labels of the annotators.") == ["MACE"]


def test_a_tool_a_cited_work_used_is_not_the_papers() -> None:
    assert names("For example, BIBREF7 merged their labels using MACE.") == []
