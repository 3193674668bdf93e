"""The data a paper says its experiments run on, named or described in words
(agent/comparison/aspect_readers/matrix_datasets_used.py); sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_datasets import dataset_findings
from citewise.agent.comparison.aspect_readers.matrix_datasets_used import (
    data_run_on,
    names_after_data_word,
    others_results_out,
)
from citewise.agent.comparison.extraction import Finding, Unit


def unit(text: str, section: str = "Paper > 4 Experiments", n: int = 1) -> Unit:
    return Unit(text, f"b-{n}", 2, section, "paragraph", n)


def run_on(*texts: str) -> list[str]:
    return [f.value for f in data_run_on([unit(t, n=i) for i, t in enumerate(texts)])]


def test_reads_data_described_in_words_after_we_conduct_experiments_on() -> None:
    assert run_on("We conduct experiments on a simplified Korean reef survey corpus [3].") == [
        "simplified Korean reef survey corpus"
    ]
    assert run_on("Our experiments on synthetic sorting datasets show the gain.") == [
        "synthetic sorting datasets"
    ]
    assert run_on("Experiments were conducted on the Kelp SLA modeling shared datasets.") == [
        "Kelp SLA modeling shared datasets"
    ]


def test_keeps_the_name_the_data_comes_from() -> None:
    found = run_on("We experimented with the benchmark datasets from ReefEval 2015 task 2 BIBREF3.")
    assert found == ["datasets from ReefEval 2015 task 2"]


def test_data_described_only_by_how_known_or_big_is_no_value() -> None:
    assert run_on("We conduct experiments on two benchmark datasets.") == []
    assert run_on("We evaluate on the same dataset as before.") == []
    assert run_on("Our models are trained on large publicly available corpora.") == []


def test_a_name_alone_or_a_list_is_left_to_the_other_readings() -> None:
    assert run_on("We evaluate our model on the KelpQA dataset.") == []
    assert run_on("We test on three dialogue datasets: reef chat, kelp chat and tide chat.") == []
    assert run_on("We evaluate our model on the KelpQA BIBREF4 dataset.") == []


def test_words_between_verb_and_data_are_no_part_of_it() -> None:
    said = "We evaluated word vectors with the following cases on Kelp Dialogue corpus."
    assert run_on(said) == []


def test_outranks_a_name_met_in_passing_as_the_datasets_cell() -> None:
    named, _ = dataset_findings(
        [
            unit("It was shown to help on the GLUE benchmark BIBREF2.", "Introduction", 1),
            unit("We conduct experiments on synthetic sorting datasets.", "4 Experiments", 2),
        ]
    )
    best = max(named, key=lambda f: f.score)
    assert best.value == "synthetic sorting datasets"


def after_word(*texts: str) -> list[str]:
    return [f.value for f in names_after_data_word([unit(t, n=i) for i, t in enumerate(texts)])]


def test_reads_the_name_set_right_after_a_data_word_with_its_version() -> None:
    assert after_word("We used the largest reef survey corpus KRS 2.0 BIBREF12 here.") == [
        "KRS 2.0"
    ]
    assert after_word("We used the aforementioned dataset KelpRec, holding 5M reviews.") == [
        "KelpRec"
    ]


def test_a_capitalised_data_word_or_a_placeholder_is_no_such_name() -> None:
    assert after_word("Table 1: Dataset Statistics") == []
    assert after_word("We evaluate on Kelp Dialogue Corpus V2 as before.") == []
    assert after_word("It is tuned on the reef dataset BIBREF27 .") == []


def test_another_work_s_result_on_its_data_is_not_the_paper_s_data() -> None:
    theirs = Finding(
        "datasets",
        "KelpSubs",
        "BIBREF26 compares models, with a score of 30.6 for KelpSubs.",
        2,
        "b-1",
        "Results",
        2.0,
    )
    ours = Finding(
        "datasets",
        "ReefChat",
        "We report a score of 80.1 on ReefChat BIBREF3.",
        2,
        "b-2",
        "Results",
        2.0,
    )
    cited = Finding(
        "datasets",
        "ReefQA",
        "The ReefQA corpus BIBREF4 holds 5,000 questions.",
        2,
        "b-3",
        "Data",
        2.0,
    )
    assert [f.value for f in others_results_out([theirs, ours, cited])] == ["ReefChat", "ReefQA"]
