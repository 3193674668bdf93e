"""Dataset-size readings of the tenth session (aspect_readers/matrix_datasets_counted.py via
data_facts.py); sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.data_facts import SIZE, data_fact_findings
from citewise.agent.comparison.extraction import Unit


def sizes(section: str, *texts: str) -> list[str]:
    units = [Unit(t, f"b-{i}", 3, section, "paragraph", i) for i, t in enumerate(texts)]
    return [f.value for f in data_fact_findings(SIZE, units)]


def test_a_number_before_a_preposition_counts_no_data() -> None:
    found = sizes(
        "4 Experiments", "We used a minimum summary length of 40 for reports and 12 for dialogues."
    )
    assert found == []


def test_a_part_of_the_data_is_not_its_size() -> None:
    assert sizes("Data", "We collected reef posts; 812 of the posts are labeled as spam.") == []


def test_a_plain_count_of_collected_data_is_still_read() -> None:
    assert sizes("4 Data", "We collected 9,120 dialogues from a reef forum.") == ["9,120 dialogues"]


def test_the_authors_count_in_a_citing_sentence_is_their_data() -> None:
    found = sizes(
        "3 Data", "We gathered 48,210 reef posts using the Forum API BIBREF4 over a year."
    )
    assert found == ["48,210 reef posts"]


def test_a_count_of_the_cited_work_is_not_the_papers_data() -> None:
    found = sizes("2 Background", "BIBREF4 gathered 48,210 reef posts, and we use their labels.")
    assert found == []


def test_a_total_the_data_holds_is_its_size_without_we() -> None:
    found = sizes("5 Analysis", "In the end the collection has a total of 7,204 sentences.")
    assert found == ["7,204 sentences"]
    found = sizes("2 Setting", "There is a total of 318 pairs in six reef files.")
    assert found[:1] == ["318 pairs"]


def test_a_total_a_task_asks_for_is_no_size() -> None:
    found = sizes("3 Study", "Speakers were asked to read a total of 12 sentences aloud.")
    assert found == []


def test_what_a_named_dataset_holds_is_its_size() -> None:
    found = sizes(
        "2 Data", "KelpFact is the largest dataset and contains around 120k claims from reefs."
    )
    assert found == ["120k claims"]
    assert sizes("2 Data", "ReefSet consists of 4,310 notes previously labelled by divers.") == [
        "4,310 notes"
    ]


def test_a_clause_opener_before_a_name_is_no_dataset() -> None:
    assert sizes("2 Data", "Whereas KelpSet includes 17 classes of reefs, ours has none.") == []
