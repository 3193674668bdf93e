"""Datasets read the way a reader finds them (agent/comparison/aspect_readers/matrix_datasets.py):
sentences the
tests
write, each value verbatim in its quote."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.comparison.aspect_readers.described_data import described_datasets
from citewise.agent.comparison.aspect_readers.matrix_cells import in_sections
from citewise.agent.comparison.aspect_readers.matrix_datasets import (
    dataset_findings,
    kinds_of_data,
    long_forms,
    shared_task_data,
)
from citewise.agent.comparison.aspect_readers.matrix_metrics import listed_metrics
from citewise.agent.comparison.aspects import load_paper
from citewise.agent.comparison.compare import Cell, cell_for, differences
from citewise.agent.comparison.extraction import Finding, Unit, find_in_unit
from citewise.agent.comparison.gazetteer import Gazetteer, name_findings
from citewise.agent.comparison.matrix import cached_gazetteer
from citewise.store.factory import open_store
from tests.agent.comparison.test_matrix_cells import ingest


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


def test_a_name_of_several_capitalised_words_before_a_dataset_word_is_read_whole() -> None:
    said = unit("All models are trained on the Harbour Pilot Dialogue corpus BIBREF3 .")
    assert names([said]) == ["Harbour Pilot Dialogue"]
    corpus = unit("Finally, the Reef Survey Corpus holds 400 dive logs.")
    assert names([corpus]) == ["Reef Survey Corpus"]


def test_a_name_written_with_its_acronym_keeps_the_acronym() -> None:
    said = unit("For training we use the Tide Gauge Archive dataset (TGA) released in 2015.")
    assert "Tide Gauge Archive dataset (TGA)" in names([said])
    before = unit("Scores are reported on the Kelp Forest Census (KFC) benchmark.")
    assert "Kelp Forest Census (KFC)" in names([before])


def test_capitalised_words_of_a_heading_or_a_shouted_caption_name_no_dataset() -> None:
    heading = unit("Results on Large-Scale Harbour Datasets", "Paper > 5 Results")
    shouted = unit("SHARE OF LATE SHIPS IN EACH DATASET", "Paper > 5 Results")
    assert names([heading]) == [] and names([shouted]) == []


def test_a_quoted_name_before_a_dataset_word_is_a_name_but_a_split_is_not() -> None:
    assert names([unit("We release the “Berth Delay Logs” dataset with this paper.")]) == [
        "Berth Delay Logs"
    ]
    assert names([unit("Systems were scored on a “Test” dataset of 900 posts.")]) == []


def test_a_dataset_the_paper_introduces_by_name_outranks_one_it_only_uses() -> None:
    made = unit("We introduce TideTalk, a new corpus of pilot radio calls.")
    also = unit("Word vectors come from the Common Crawl corpus.", n=2)
    found = {f.value: f.score for f in dataset_findings([made, also])[0]}
    assert found["TideTalk"] > found["Common Crawl"]
    later = unit("We build a new reef dataset, CoralScope, from survey videos.")
    assert "CoralScope" in names([later])
    assert names([unit("In this paper we present iReef, a dataset of dive logs.")]) == ["iReef"]


def test_an_acronym_defined_by_lower_case_words_is_a_kind_of_data() -> None:
    text = [
        unit("Voice commands need spoken language understanding (SLU) of short phrases."),
        unit("Results on the SLU dataset follow.", n=2),
        unit("We call our corpus the Ship Radio Benchmark (SRB).", n=3),
        unit("Tags come from part-of-speech (POS) taggers.", n=4),
        unit("We use the Craigslist Bargaining dataset (CB) of dialogues.", n=5),
    ]
    assert kinds_of_data(text) == {"SLU", "POS"}


def test_a_kind_the_library_defines_is_no_dataset_where_a_paper_mentions_it() -> None:
    library = Gazetteer()
    library.add_units([unit("Harbour NLP relies on part-of-speech (POS) tags."),
                       unit("Results on the POS dataset are in Table 2.", n=2),
                       unit("Results on the ReefScan dataset are in Table 3.", n=3)])  # fmt: skip
    other = [unit("We used features derived from POS tags and from ReefScan.", n=9)]
    assert [f.value for f in name_findings("datasets", other, [], library)] == ["ReefScan"]


def test_the_long_form_takes_the_score_of_its_acronyms_best_use() -> None:
    def found(value: str, score: float) -> Finding:
        return Finding("datasets", value, f"... {value} ...", 1, "b", "4", score)

    ranked = long_forms([found("Tide Gauge Archive dataset (TGA)", 1.0), found("TGA", 3.0)])
    assert ranked[0].score > 3.0 and ranked[1].score == 3.0
    alone = long_forms([found("Reef Survey (RS)", 2.0)])
    assert alone[0].score == 2.0


SHIPS = """# Predicting Berth Delays From Pilot Radio

## Abstract

Late berthing costs harbours money. We predict berth delays from what pilots say on the radio.

## Data

Berthing needs radio understanding (RU) of short calls, so we use the Harbour Radio Calls \
dataset (HRC) collected at three ports. Calls shorter than two seconds were removed.

## Experiments

We train every model on the HRC dataset and report accuracy on its test split. An RU dataset \
of this size did not exist before.
"""


def test_the_cell_names_the_dataset_by_its_long_form_not_by_a_kind(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"ships": SHIPS})
    store = open_store(lib, lib)
    document = next(d for d in store.documents() if d.id == ids["ships"])
    cell = cell_for(load_paper(store, document), "datasets", cached_gazetteer(store))
    store.close()
    assert cell.value == "Harbour Radio Calls dataset (HRC)"


def test_a_title_naming_background_does_not_make_every_sentence_others_work() -> None:
    title = "Paper > KelpRank: Ranking Reef Photos Based on Background Knowledge > Corpora"
    assert not in_sections(title, "others_sections")
    assert not in_sections("Paper > Comparison of results with previous work", "others_sections")
    assert in_sections("Paper > 2 Motivation and Background", "others_sections")


def test_a_sentence_opening_with_a_dataset_that_says_what_it_holds_names_it() -> None:
    assert names([unit("ReefCam is a benchmark of labelled dive videos.")]) == ["ReefCam"]
    held = unit("12Harbours BIBREF4 , which contains 9,310 berthing logs from twelve ports.")
    assert names([held]) == ["12Harbours"]
    assert names([unit("There is a shortage of labelled dive dataset releases.")]) == []


def test_a_metric_beside_a_measured_number_is_read_without_an_evaluation_word() -> None:
    said = unit("The small forecaster stays within 0.4 points of accuracy on the harbour split.")
    assert [f.value for f in find_in_unit("metrics", said)] == ["accuracy"]
    reached = unit("We were able to reach good performances: 81.2 F1 on the test ports.")
    assert [f.value for f in find_in_unit("metrics", reached)] == ["F1"]
    passing = unit("Accuracy matters to pilots who plan berths.")
    assert find_in_unit("metrics", passing) == []


def test_a_name_the_paper_calls_a_metric_is_a_metric() -> None:
    said = unit("We also report the TDE metric and the BerthLag-2 measure for every run.")
    assert [f.value for f in listed_metrics([said])] == ["TDE", "BerthLag-2"]
    listed = unit("Systems are ranked by the MUC, TIDE and ReefScore metrics.")
    assert [f.value for f in listed_metrics([listed])] == ["MUC", "TIDE", "ReefScore"]
    assert listed_metrics([unit("The INLINEFORM0 metric is defined below.")]) == []


def test_what_the_paper_uses_as_its_evaluation_metric_is_the_metric() -> None:
    said = unit("Settings were tuned using tide-weighted overlap as the evaluation metric.")
    assert [f.value for f in listed_metrics([said])] == ["tide-weighted overlap"]
    chose = unit("We chose the berth delay error as our main performance measure.")
    assert [f.value for f in listed_metrics([chose])] == ["berth delay error"]
    assert listed_metrics([unit("We use ten neighbours as our metric of stability.")]) == []


def test_where_the_papers_data_comes_from_describes_its_dataset() -> None:
    said = unit("Our corpus was crawled from the Harbourmaster radio archive, which logs calls.")
    assert [f.value for f in described_datasets([said])] == [
        "corpus was crawled from the Harbourmaster radio archive"
    ]
    made = unit("We built a dataset of 3,000 berthing logs from four ports.")
    assert [f.value for f in described_datasets([made])] == [
        "a dataset of 3,000 berthing logs from four ports"
    ]


def test_a_shared_task_paper_uses_the_data_the_task_provides() -> None:
    text = [
        unit("We describe our system for the HARBOUR-2021 Berth Delay Shared Task.", "Paper"),
        unit("We train on the data provided by the organisers, 4,000 radio calls.", n=2),
    ]
    assert [f.value for f in shared_task_data(text)] == ["HARBOUR-2021 Berth Delay Shared Task"]
    alone = [unit("We describe our system for the HARBOUR-2021 Berth Delay Shared Task.")]
    assert shared_task_data(alone) == []


def test_a_known_name_is_read_with_the_longer_name_it_stands_in() -> None:
    library = Gazetteer()
    library.add_units([unit("Results on the KelpSet dataset are in Table 2.", n=1),
                       unit("Results on the ReefNet dataset are in Table 3.", n=2),
                       unit("Results on the AtollQA dataset are in Table 4.", n=3)])  # fmt: skip
    paper = [
        unit("We train on the KelpSet Corpus Volume 3 in all experiments.", n=5),
        unit("We use the Pacific ReefNet survey data as a second test set.", n=6),
        unit("We also use AtollQA 2019 for the final comparison.", n=7),
        unit("We use AtollQA Survey results only as a sanity check.", n=8),
    ]
    values = [f.value for f in name_findings("datasets", paper, [], library)]
    # capitals before it after "the", numbers after it, capitals after it only up to a data word
    assert values == ["KelpSet Corpus Volume 3", "Pacific ReefNet", "AtollQA 2019", "AtollQA"]
