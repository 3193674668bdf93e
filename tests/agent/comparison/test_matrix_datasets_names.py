"""Dataset names read whole (agent/comparison/aspect_readers/matrix_datasets.py): the full
name where a shorter one was found first; sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_cells import in_data_section
from citewise.agent.comparison.aspect_readers.matrix_datasets import (
    dataset_findings,
    in_data_sections,
    longer_names,
)
from citewise.agent.comparison.extraction import Finding, Unit, best_distinct
from tests.agent.comparison.test_matrix_datasets import names, unit


def finding(value: str, quote: str, score: float) -> Finding:
    return Finding("datasets", value, quote, 1, "b", "4 Data", score)


def test_a_shorter_name_found_first_gives_way_to_the_full_name() -> None:
    short = finding("Coastal", "We train on the Coastal dataset.", 3.0)
    full = finding("Coastal Birds Survey", "We use Coastal Birds Survey [3], a bird corpus.", 2.0)
    other = finding("ReefNet", "ReefNet is the test set.", 2.5)
    kept = best_distinct(longer_names([short, other, full]), 3)
    assert [f.value for f in kept] == ["Coastal Birds Survey", "ReefNet"]
    assert kept[0].score == 3.0  # the place of the name found first


def test_a_phrase_or_a_placeholder_is_no_longer_name() -> None:
    short = finding("Coastal", "We train on the Coastal dataset.", 3.0)
    phrase = finding(
        "Coastal data of many years and many sites",
        "We gathered Coastal data of many years and many sites.",
        1.0,
    )
    glued = finding("CoastalBIBREF3", "The CoastalBIBREF3 set.", 1.0)
    assert [f.value for f in longer_names([short, phrase, glued])][0] == "Coastal"
    part = finding("Coast", "The Coast set.", 2.0)
    assert longer_names([part, short])[0].value == "Coast"  # not a word of "Coastal"


def test_a_heading_about_the_data_opens_or_closes_with_a_data_word() -> None:
    assert in_data_section("Paper > 4 Experiments > 4.1 Datasets")
    assert in_data_section("Paper > Data Collection and Annotation")
    assert in_data_section("Paper > III. Training Data")
    assert not in_data_section("Paper > Sensitivity of data and privacy")
    assert not in_data_section("A Large Corpus for Detecting Sarcasm in Reviews > Introduction")


def test_a_name_under_the_data_heading_outranks_one_in_the_introduction() -> None:
    said = "Earlier systems were trained on HarborNet."
    intro = Finding("datasets", "HarborNet", said, 1, "b1", "Paper > 1 Introduction", 2.0)
    data = Finding("datasets", "DockLog", "We train on the DockLog records.", 3, "b2",
                   "Paper > 4 Experiments > 4.1 Datasets", 2.0)  # fmt: skip
    ranked = best_distinct(in_data_sections([intro, data]), 1)
    assert [f.value for f in ranked] == ["DockLog"]


def test_a_name_set_off_by_what_it_is_names_a_dataset() -> None:
    said = unit("We chose Harbor Voices [7], a corpus of radio talk from port towns.")
    assert "Harbor Voices" in names([said])
    single = unit("Experiments use DockQA, a question answering benchmark on shipping.")
    assert "DockQA" in names([single])
    assert names([unit("Finally, a corpus of letters was left out.")]) == []


def counted(units: list[Unit]) -> list[str]:
    return [f.value for f in dataset_findings(units)[1]]


def test_what_the_papers_dataset_holds_is_counted_whatever_it_counts() -> None:
    said = unit("Our dataset contains more than 12M ferry boardings, which span four ports.")
    assert "12M ferry boardings" in counted([said])
    held = unit("The corpus consists of 2,400 harbor logs collected by pilots.")
    assert "2,400 harbor logs" in counted([held])
    assert counted([unit("The corpus has 3 of the labels we need.")]) == []


def test_a_held_count_stays_below_a_name_of_the_same_section() -> None:
    section = "Paper > 4 Experiments > 4.1 Dataset"
    both = [
        unit("Our dataset contains 9,000 ferry boardings.", section, 1),
        unit("We use the Ferry Boarding corpus for training.", section, 2),
    ]
    named, counts = dataset_findings(both)
    assert max(f.score for f in counts) < max(f.score for f in named)
