"""What a paper's data holds, counted (agent/comparison/aspect_readers/matrix_datasets.py,
read by the datasets cell and the `dataset size` column); sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.data_facts import SIZE, data_fact_findings
from citewise.agent.comparison.aspect_readers.matrix_datasets import dataset_findings
from citewise.agent.comparison.extraction import Unit


def unit(text: str, section: str = "3 Dataset", n: int = 1) -> Unit:
    return Unit(text, f"b-{n}", 2, section, "paragraph", n)


def counted(*texts: str) -> list[str]:
    _, found = dataset_findings([unit(t, n=i) for i, t in enumerate(texts)])
    return sorted({f.value for f in found})


def test_a_random_sample_of_the_data_is_not_its_count() -> None:
    assert counted("A random sample of 200 reef tweets was annotated by hand.") == []
    assert counted("We randomly selected 150 dives from the logs we collected.") == []


def test_a_collection_gathered_at_random_is_still_counted() -> None:
    assert counted("We randomly collected 300 reef tweets from dive forums.") == ["300 reef tweets"]


def test_reads_a_training_set_that_contained_a_count() -> None:
    assert counted("This training set contained 12,345 dive reports.") == ["12,345 dive reports"]
    assert counted("The created dataset is made of 1,600 reef dialogues.") == [
        "1,600 reef dialogues"
    ]


def test_the_paper_s_data_collected_by_others_is_still_its_size() -> None:
    said = "The dataset contains 2000 reef tuples collected by BIBREF4 from forums."
    assert [f.value for f in data_fact_findings(SIZE, [unit(said)])] == ["2000 reef tuples"]


def test_another_named_dataset_counted_in_a_citing_sentence_is_not_the_size() -> None:
    said = "The KelpQA dataset contains 5,000 questions BIBREF4."
    assert data_fact_findings(SIZE, [unit(said, "2 Related Data")]) == []


def test_a_formula_ends_what_is_counted() -> None:
    assert counted("The training set consists of 1 million INLINEFORM0 triples.") == []
