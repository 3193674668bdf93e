"""Datasets read the way a reader finds them (agent/comparison/aspect_readers/matrix_datasets.py):
sentences the
tests
write, each value verbatim in its quote."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_datasets import (
    dataset_findings,
    listed_metrics,
)
from citewise.agent.comparison.compare import Cell, differences
from citewise.agent.comparison.extraction import Finding, Unit


def unit(text: str, section: str = "Paper > 4 Experiments", n: int = 1) -> Unit:
    return Unit(text, f"b-{n}", 2, section, "paragraph", n)


def names(units: list[Unit]) -> list[str]:
    named, _ = dataset_findings(units)
    return [f.value for f in named]


def counted(units: list[Unit]) -> list[str]:
    _, found = dataset_findings(units)
    return [f.value for f in found]


def test_a_list_the_paper_introduces_as_its_data_gives_each_name() -> None:
    said = unit("We evaluate on three corpora: NewsQA, SearchQA and TriviaQA [4].")
    assert names([said]) == ["NewsQA", "SearchQA", "TriviaQA"]


def test_a_sentence_that_opens_with_a_dataset_names_it() -> None:
    assert names([unit("The CoNLL-2003 corpus holds Reuters news stories.")]) == ["CoNLL-2003"]


def test_a_dataset_stated_as_the_one_used_is_named_but_not_one_others_use() -> None:
    assert names([unit("The other benchmark we use is HotpotQA, built from Wikipedia.")]) == [
        "HotpotQA"
    ]
    assert names([unit("A widely shared corpus is MIMIC-III [12], used by many groups.")]) == []


def test_a_section_headed_by_a_dataset_names_it_where_a_sentence_uses_it() -> None:
    under = unit(
        "About 2M Reddit threads were kept after filtering.", "Paper > Reddit Thread Corpus"
    )
    assert names([under]) == ["Reddit"]


def test_the_authors_counted_collection_is_a_dataset_when_no_name_is_given() -> None:
    assert counted([unit("We collected 12,480 product reviews from an online shop.")]) == [
        "12,480 product reviews"
    ]


def test_counts_of_others_data_or_of_what_is_missing_are_no_dataset() -> None:
    assert counted([unit("Their model was trained on 9,000 reviews (Lee et al., 2019).")]) == []
    assert counted([unit("With fewer than 500 examples we cannot train a deep model.")]) == []
    assert counted([unit("Such registries contain 841 patient records.", "Paper > Privacy")]) == []


def test_key_differences_keep_a_counted_collection_whole() -> None:
    def cell(doc: str, text: str, value: str) -> Cell:
        return Cell(doc, "datasets", Finding("datasets", value, text, 1, f"b-{doc}", "4", 1.0))

    cells = [
        cell("a", "We gathered 33,708 tweets over two months.", "33,708 tweets"),
        cell("b", "We evaluate on NewsQA and SearchQA.", "NewsQA and SearchQA"),
    ]
    (said,) = differences(["datasets"], cells)
    assert "only a names 33,708 tweets" in said.text
    assert "only b names NewsQA, SearchQA" in said.text


def test_metrics_a_paper_lists_are_each_named_without_the_citation() -> None:
    said = unit("We also report two diversity metrics: Distinct-1 and Self-BLEU BIBREF7.")
    assert [f.value for f in listed_metrics([said])] == ["Distinct-1", "Self-BLEU"]
