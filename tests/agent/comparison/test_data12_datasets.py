"""Datasets readings of the tenth session (agent/comparison/aspect_readers/matrix_datasets.py);
sentences and headings the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_datasets import dataset_findings
from citewise.agent.comparison.extraction import Unit


def names(section: str, *texts: str) -> list[str]:
    units = [Unit(t, f"b-{i}", 3, section, "paragraph", i) for i, t in enumerate(texts)]
    return [f.value for f in dataset_findings(units)[0]]


def known(*texts: str) -> list[str]:
    from citewise.agent.comparison.gazetteer import Gazetteer, name_findings

    gazetteer = Gazetteer({"datasets": {"REEFKIT", "KelpSet"}, "model": set()})
    units = [Unit(t, f"b-{i}", 3, "4 Experiments", "paragraph", i) for i, t in enumerate(texts)]
    return [f.value for f in name_findings("datasets", units, [], gazetteer)]


def test_a_known_name_before_a_tool_word_is_a_tool_not_data() -> None:
    assert known("We use the REEFKIT toolkit for tokenisation.") == []
    assert known("We train an REEFKIT model on the notes.") == []
    assert known("Tokens are tagged with Python REEFKIT NER.") == []


def test_a_known_name_used_as_data_is_still_found() -> None:
    assert known("We evaluate on KelpSet and report accuracy.") == ["KelpSet"]


def test_a_name_used_in_a_role_is_the_data_and_the_role_is_no_name() -> None:
    found = names("5 Experiments", "We use KelpQA 2.0 BIBREF3 as the English QG dataset.")
    assert "KelpQA 2.0" in found
    assert not any("QG" in f for f in found)
    assert "Reef Notes" in names("4 Data", "We selected Reef Notes BIBREF2 as our second corpus.")


def test_a_role_without_a_used_name_is_left_alone() -> None:
    assert "The" not in names("4 Data", "The Reef Survey dataset is split as the authors did.")


def test_a_name_before_a_split_of_its_data_is_read() -> None:
    assert "KelpNLI" in names("5 Results", "Table 2: Accuracy on the KelpNLI test set.")
    assert "ReefQA 2.0" in names("4 Setup", "Models are tuned on the ReefQA 2.0 development set.")


def test_a_split_named_by_a_plain_word_is_no_name() -> None:
    assert names("5 Results", "Accuracy drops on the held-out test set.") == []


def test_a_placeholder_is_never_a_known_dataset_name() -> None:
    from citewise.agent.comparison.gazetteer import Gazetteer, name_findings, pattern_names

    unit = Unit("We train on the INLINEFORM0 dataset for ten epochs.", "b-0", 3, "4 Setup",
                "paragraph", 0)  # fmt: skip
    assert ("datasets", "INLINEFORM0") not in pattern_names(unit)
    gazetteer = Gazetteer({"datasets": {"INLINEFORM0", "KelpSet"}, "model": set()})
    units = [Unit("Our data hold 9M reef notes of INLINEFORM0 tokens from KelpSet.", "b-1", 3,
                  "4 Setup", "paragraph", 1)]  # fmt: skip
    assert [f.value for f in name_findings("datasets", units, [], gazetteer)] == ["KelpSet"]


def test_the_named_collection_the_data_comes_from() -> None:
    found = names("4 Data", "All the data used in this study comes from Kelp internal datasets.")
    assert "Kelp internal datasets" in found
    assert "Reef 2019" in names("4 Data", "The English-Maori data comes from Reef 2019.")


def test_data_drawn_from_a_plain_place_names_nothing_new() -> None:
    assert names("4 Data", "The reef data was taken from the divers' logbooks.") == []


def test_a_name_after_use_without_an_article_is_learned() -> None:
    from citewise.agent.comparison.gazetteer import pattern_names

    unit = Unit("In EN-JA translation, we use KFTR dataset, which holds 0.4M pairs.", "b-0", 3,
                "4 Data", "paragraph", 0)  # fmt: skip
    assert ("datasets", "KFTR") in pattern_names(unit)
    plain = Unit("We use some dataset of reef notes.", "b-1", 3, "4 Data", "paragraph", 1)
    assert [v for k, v in pattern_names(plain) if k == "datasets"] == []
