"""Settings that belong to something other than the paper's model (agent/comparison/settings/
matrix_settings.py), on sentences the tests write: a card name read inside a citation key, and
the time people of an annotation study were trained."""

from __future__ import annotations

from tests.agent.comparison.test_setup_software import read


def test_no_hardware_from_a_citation_key() -> None:
    sentence = "We set our system against kowal-EtAl:2016:P16-3 on 400 sampled facts."
    assert read("hardware", sentence) == []
    assert read("hardware", "Our system was trained on a single P100 GPU.") == ["a single P100 GPU"]


def test_no_compute_from_the_training_of_annotators() -> None:
    people = "Before labelling the corpus, the raters were trained for about 6 weeks."
    assert read("compute", people) == []
    model = "The tagger was trained for about 6 hours on the harbour corpus."
    assert read("compute", model) == ["about 6 hours"]
