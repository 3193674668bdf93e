"""Cells a reader can read: no converter placeholders in a shown value (the quote verbatim),
numbers whole, a name's first word not taken for the name, a cut that keeps what the cell was
chosen for. Papers and sentences are written by the tests."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.actions.tools import _cited
from citewise.agent.comparison.aspect_readers.described_data import described_datasets
from citewise.agent.comparison.aspect_readers.matrix_cells import MAX_CELL, shorten, whole_phrase
from citewise.agent.comparison.aspects import load_paper
from citewise.agent.comparison.compare import Cell, cell_for
from citewise.agent.comparison.extraction import ELLIPSIS, Finding, Unit, merged_value, readable
from citewise.agent.comparison.gazetteer import Gazetteer, longer_name, name_findings
from citewise.agent.comparison.matrix import cached_gazetteer
from citewise.store.factory import open_store
from tests.agent.comparison.test_matrix_cells import ingest


def unit(text: str, section: str = "Paper > 4 Experiments", n: int = 1) -> Unit:
    return Unit(text, f"b-{n}", 2, section, "paragraph", n)


def finding(aspect: str, value: str, quote: str, cut: bool = False) -> Finding:
    return Finding(aspect, value, quote, 3, "b-1", "5 Conclusion", 1.0, cut)


def test_a_merged_cell_shows_the_names_without_their_citation_placeholders() -> None:
    quote = "We score the captions with METEOR BIBREF7, SPICE BIBREF8 , BIBREF9 and CHRF BIBREF10."
    found = [finding("metrics", n, quote) for n in ("METEOR", "SPICE", "CHRF")]
    merged = merged_value(found)
    assert merged is not None and merged.value in quote  # the finding stays verbatim
    cell = Cell("d1", "metrics", whole_phrase(merged))
    assert cell.value == "METEOR, SPICE and CHRF"
    assert cell.to_dict()["quote"] == quote and _cited(quote, cell.value)


def test_a_formula_or_cross_reference_shows_as_an_omission() -> None:
    assert readable("a loss that has INLINEFORM3 fewer terms (see Section SECREF4 )") == (
        "a loss that has […] fewer terms (see Section […])"
    )
    assert (
        readable("trained on 81.5 % of the tide records") == "trained on 81.5 % of the tide records"
    )
    assert not _cited("a sentence the quote lacks", "a quote BIBREF2 about tides")


def test_placeholders_do_not_use_up_a_cells_length() -> None:
    cites = " ".join(f"BIBREF{n} ," for n in range(20))
    value = f"we extend the gauge readings with the buoy methods {cites} to cover the open coast"
    short, was_cut = shorten(value)
    assert not was_cut and readable(short).endswith("to cover the open coast")
    assert len(readable(short)) <= MAX_CELL


def test_a_described_dataset_is_not_cut_at_a_decimal_point() -> None:
    said = unit(
        "We collected a large corpus of nearly 2.5 million harbour logs written in 9 ports."
    )
    values = [f.value for f in described_datasets([said])]
    assert values == ["a large corpus of nearly 2.5 million harbour logs written in 9 ports"]
    source = unit("Our corpus was derived from 1,200 ferry manifests, kept by the port.", n=2)
    assert [f.value for f in described_datasets([source])] == [
        "corpus was derived from 1,200 ferry manifests"
    ]


def test_the_first_word_of_a_longer_capitalised_name_is_not_the_name() -> None:
    text = "We translate into the official North Sotho languages of the region."
    at = text.find("North")
    assert longer_name(text, at, at + len("North")) == ""
    cited = "We use Harbour Webcams BIBREF3, a collection of storm footage."
    at = cited.find("Harbour")
    assert longer_name(cited, at, at + len("Harbour")) == "Harbour Webcams"
    alone = "We use Harbour footage."
    at = alone.find("Harbour")
    assert longer_name(alone, at, at + len("Harbour")) == "Harbour"


def test_a_library_name_met_as_the_start_of_a_longer_name_gives_no_dataset() -> None:
    library = Gazetteer()
    library.add_units([unit("Results on the Northwind dataset are in Table 2.")])
    other = [
        unit("We trained on tide logs of the Northwind Ferries fleet."),
        unit("We evaluated on Northwind logs.", n=2),
    ]
    values = [f.value for f in name_findings("datasets", other, [], library)]
    assert values == ["Northwind"]  # the second sentence only


SHOAL = """# Predicting Shoal Drift

## Abstract

We predict how sand shoals drift in tidal inlets from sparse soundings.

## Conclusion

There are some rough choices in how we interpolated the soundings between the survey dates \
though, which narrow the reach of the drift estimates reported, and they should be addressed in \
future work.
"""


def test_a_long_limitation_keeps_the_clause_that_names_future_work(tmp_path: Path) -> None:
    lib, docs = ingest(tmp_path, {"shoal": SHOAL})
    store = open_store(lib, lib)
    paper = load_paper(store, next(iter(store.documents())))
    cell = cell_for(paper, "limitations", cached_gazetteer(store))
    assert cell.stated
    assert cell.value.removesuffix(ELLIPSIS).endswith("should be addressed in future work")
    assert cell.value.startswith("There are some rough choices")


def test_a_cut_finding_runs_on_to_the_measured_number_it_was_chosen_for() -> None:
    quote = (
        "The drift model built on sparse soundings outperformed the tidal baseline in every inlet "
        "we surveyed over the two winters, by 4.7 points of mean absolute error, as Table 3 shows."
    )
    cut = shorten(quote)[0]
    assert "4.7" not in cut
    cell = whole_phrase(finding("main result", cut, quote, cut=True))
    assert cell.value.endswith("by 4.7 points of mean absolute error") and cell.cut
    plain = whole_phrase(finding("method", cut, quote, cut=True))
    assert "4.7" not in plain.value  # other columns cut as before
