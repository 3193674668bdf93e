"""Software names learned from a paper's sentences (eleventh session, setup14): the paper's own
system, introduced as "our framework X" or "the proposed framework X", is not a program."""

from __future__ import annotations

from citewise.agent.comparison.extraction import Unit
from citewise.agent.comparison.settings.setup_software import learn_software, software_findings


def learned(text: str) -> set[str]:
    return learn_software([Unit(text, "b-1", 4, "5 Experiments", "paragraph", 1)])


def test_the_papers_own_framework_is_not_learned_as_software() -> None:
    assert learned("It is clear that our framework HeronNet beats every baseline.") == set()
    assert learned("We compare the proposed framework Heron-QA with three systems.") == set()


def test_a_framework_or_library_named_by_its_kind_is_still_learned() -> None:
    assert learned("The tagger is built on the framework Flock and its tools.") == {"Flock"}
    assert "Wader" in learned("We count herons with the Python library Wader.")


def named(text: str) -> list[str]:
    unit = Unit(text, "b-1", 4, "5 Experiments", "paragraph", 1)
    return [f.value for f in software_findings([unit], set())]


def test_a_tool_the_model_is_based_on_is_used() -> None:
    assert named("The heron tagger is based on the open-sourced tensor2tensor BIBREF4.") == [
        "tensor2tensor"
    ]
    assert named("Tensor2Tensor is a library that many herons like.") == []


def test_a_program_the_papers_system_is_compared_with_is_not_its_own() -> None:
    text = "We compared our heron tagger with a public implementation using Theano."
    assert named(text) == []
    text = "We compare our model with the Crane Tagger model BIBREF5 on three tasks."
    assert named(text) == []


def test_a_program_used_beside_a_comparison_stays() -> None:
    assert named("We implemented our heron tagger using Theano and compared it.") == ["Theano"]
