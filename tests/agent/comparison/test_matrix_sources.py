"""Where data comes from is not the data's name, and the paper's own "we use X [cite]" is its
own statement (agent/comparison/aspect_readers/matrix_datasets.py, matrix_cells.py): papers
and sentences the tests write."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.comparison.aspect_readers.matrix_cells import own_statements, own_use
from citewise.agent.comparison.aspect_readers.matrix_datasets import (
    dataset_findings,
    is_source,
    named_data_first,
)
from citewise.agent.comparison.aspects import load_paper, qualified
from citewise.agent.comparison.compare import cell_for
from citewise.agent.comparison.extraction import Finding, Unit, find_in_unit
from citewise.agent.comparison.matrix import cached_gazetteer
from citewise.store.factory import open_store
from tests.agent.comparison.test_matrix_cells import ingest


def found(value: str, quote: str, score: float = 2.0, aspect: str = "datasets") -> Finding:
    return Finding(aspect, value, quote, 2, "b-1", "Paper > 4 Experiments", score)


def test_platforms_languages_countries_and_translation_directions_are_sources() -> None:
    for value in ("Twitter", "Amazon Mechanical Turk", "Arabic", "US", "En-Vi", "Zh-En",
                  "English-German", "Icelandic 2018"):  # fmt: skip
        assert is_source(value), value
    for value in ("TweetReef", "Amazon reviews", "English Wikipedia", "WMT 2014", "EN", "2018"):
        assert not is_source(value), value


def test_a_source_fills_the_cell_only_when_nothing_better_is_named() -> None:
    platform = found("Twitter", "Both collections hold Twitter threads about storms.", 3.0)
    named = found("GaleRumours", "GaleRumours holds 412 threads.", 2.0)
    count = found("900 posts", "We gathered 900 posts.", 0.6)
    assert [f.value for f in named_data_first([platform, named, count])] == [
        "GaleRumours",
        "900 posts",
    ]
    assert [f.value for f in named_data_first([platform])] == ["Twitter"]


STORMS = """# Spotting Storm Rumours Early

## Abstract

Rumours spread fast during storms. We detect them from the first replies of a thread.

## Data

Both datasets below hold threads drawn from the Twitter storm collection of 2017 and 2018, \
each labelled by the users' own later corrections. We use the GaleWatch dataset BIBREF3 and \
the SquallSet dataset BIBREF4.

## Experiments

We train each model on SquallSet and test it on GaleWatch, reporting accuracy on Twitter \
threads of the held-out season.
"""

ONLY_PLATFORM = """# Storm Talk on Social Media

## Abstract

People talk about storms online. We study what they say on Twitter during storm seasons.

## Data

Our threads come from the Twitter storm collection: we downloaded every storm thread of the \
2018 season and kept those with at least five replies.
"""


def _cell(tmp_path: Path, name: str, text: str) -> str:
    lib, ids = ingest(tmp_path, {name: text})
    store = open_store(lib, lib)
    document = next(d for d in store.documents() if d.id == ids[name])
    cell = cell_for(load_paper(store, document), "datasets", cached_gazetteer(store))
    store.close()
    return cell.value


def test_the_named_data_wins_over_the_platform_it_was_collected_from(tmp_path: Path) -> None:
    value = _cell(tmp_path, "storms", STORMS)
    assert "Twitter" not in value and ("GaleWatch" in value or "SquallSet" in value)


def test_the_platform_fills_the_cell_where_the_paper_names_no_data(tmp_path: Path) -> None:
    assert _cell(tmp_path, "talk", ONLY_PLATFORM) == "Twitter"


def test_the_papers_own_use_of_cited_data_is_its_own_statement() -> None:
    used = found("KelpSet", "We use the KelpSet corpus BIBREF4 for all experiments.")
    trained = found("KelpSet", "Our models are trained on the KelpSet data BIBREF4.")
    others = found("KelpSet", "BIBREF4 collected the KelpSet corpus from dive logs.")
    kept = {f.quote: f.score for f in own_statements("datasets", [used, trained, others])}
    assert kept[used.quote] == 2.0 and kept[trained.quote] == 2.0
    assert kept[others.quote] < 2.0


def test_a_used_procedure_or_a_borrowed_method_stays_demoted() -> None:
    procedure = found("TDS", "We use the standard TDS evaluation procedure BIBREF7.")
    method = found("beam search", "We use beam search BIBREF2 to decode.", aspect="method")
    assert own_statements("datasets", [procedure])[0].score < 2.0
    assert own_statements("method", [method])[0].score < 2.0
    assert not own_use("Our test set follows BIBREF3.")  # "test" is a noun there


def test_a_figure_number_is_no_count_of_data() -> None:
    caption = Unit("Fig. 4 All utterances we used in our experiments.", "b-1", 2,
                   "Paper > Data", "paragraph", 1)  # fmt: skip
    assert dataset_findings([caption])[1] == []


def test_a_metric_keeps_every_qualifier_it_is_named_with() -> None:
    said = Unit("Mean average precision was the measure for every harbour query.", "b-1", 2,
                "Paper > 5 Evaluation", "paragraph", 1)  # fmt: skip
    (metric,) = find_in_unit("metrics", said)
    assert qualified(metric).value == "Mean average precision"
