"""A name set off by what it is, with its citation between ("we use KelpSet BIBREF4 , a
reef corpus"), is read without the citation in the paper's own sentence, and not at all in a
sentence about others' work (agent/comparison/aspect_readers/matrix_datasets.py); sentences
the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_datasets import dataset_findings
from citewise.agent.comparison.extraction import Unit


def names(*texts: str) -> list[str]:
    units = [Unit(t, f"b-{i}", 3, "4 Data", "paragraph", i) for i, t in enumerate(texts)]
    named, _ = dataset_findings(units)
    return [f.value for f in named]


def test_a_cited_name_in_an_own_sentence_is_read_without_its_citation() -> None:
    found = names("We experiment on two sets: (1) Kelpnote BIBREF22 , a small corpus of notes.")
    assert "Kelpnote" in found
    assert not any("BIBREF" in f for f in found)


def test_a_cited_name_in_a_sentence_about_others_is_not_read() -> None:
    found = names("Exceptions are few, e.g. Kelpnote BIBREF15 , a corpus annotated with time.")
    assert "Kelpnote" not in found


def test_a_name_without_citation_is_read_as_before() -> None:
    assert "Kelpnote" in names("Kelpnote, a small corpus of reef notes, is used here.")
