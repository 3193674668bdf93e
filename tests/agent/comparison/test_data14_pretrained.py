"""The data a pre-trained resource was trained on is not the paper's data
(agent/comparison/aspect_readers/matrix_datasets_pretrained.py); sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_datasets_pretrained import (
    pretrained_data_out,
)
from citewise.agent.comparison.extraction import Finding


def read(value: str, quote: str) -> Finding:
    return Finding("datasets", value, quote, 1, "b-1", "4 Experiments", 3.0)


def kept(*findings: Finding) -> list[str]:
    return [f.value for f in pretrained_data_out(list(findings))]


def test_the_data_an_embedding_was_trained_on_is_left_out() -> None:
    quote = "The kelp2vec vectors were trained on the ReefNews corpus (3.5 billion tokens)."
    assert kept(read("ReefNews", quote)) == []


def test_a_resource_named_by_a_relative_clause_and_a_count() -> None:
    quote = "We use a publicly available encoder, which was trained on 4 million reef notes."
    assert kept(read("4 million reef notes", quote)) == []


def test_it_after_a_named_resource_and_a_decimal_count() -> None:
    quote = "It is trained on 2.5 billion tokens drawn from ReefWeb and the KelpSet corpus."
    assert kept(read("KelpSet", quote)) == []


def test_the_papers_own_training_data_stays() -> None:
    quote = "Our tagger is trained on the KelpSet corpus and tested on ReefCount."
    assert kept(read("KelpSet", quote), read("ReefCount", quote)) == ["KelpSet", "ReefCount"]


def test_a_name_before_the_clause_stays() -> None:
    quote = "On ReefCount we use fastText vectors trained on the ReefNews corpus."
    assert kept(read("ReefCount", quote), read("ReefNews", quote)) == ["ReefCount"]


def test_the_inventory_data_is_labelled_from_is_left_out() -> None:
    quote = "We run on the ReefEval data that are labelled by senses from KelpNet 3.0 BIBREF2."
    assert kept(read("KelpNet 3.0", quote), read("ReefEval", quote)) == ["ReefEval"]
    quote = "The notes are annotated with tags of the KelpTags scheme."
    assert kept(read("KelpTags", quote)) == []


def test_data_labelled_by_annotators_stays() -> None:
    quote = "KelpSet was labelled by three annotators from a reef survey team."
    assert kept(read("KelpSet", quote)) == ["KelpSet"]
