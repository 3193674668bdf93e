"""A cell's shown value is whole: a cut method cell keeps the clause saying how the method
works, no value ends inside an "e.g." or a barely opened bracket, and none ends on the "in"
or "by" a dropped citation leaves. Sentences are written by the tests."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_cells import (
    MAX_CELL,
    whole_end,
    whole_phrase,
)
from citewise.agent.comparison.extraction import ELLIPSIS, Finding


def finding(aspect: str, value: str, quote: str, cut: bool = True) -> Finding:
    return Finding(aspect, value, quote, 2, "b-1", "1 Introduction", 1.0, cut)


def test_a_cut_method_cell_keeps_the_clause_that_says_how_it_works() -> None:
    quote = (
        "We present a compact tagger that labels archaic spelling variants in parish "
        "registers of several regions and centuries across Europe by transferring character "
        "alignments learned from modern dictionaries, and we release the code."
    )
    value = quote[: quote.index(" and centuries")]
    cell = whole_phrase(finding("method", value, quote))
    assert "by transferring character alignments learned from modern dictionaries" in cell.value
    assert "release the code" not in cell.value
    assert MAX_CELL < len(cell.value) <= 2 * MAX_CELL


def test_a_cut_method_cell_without_a_means_is_left_as_cut() -> None:
    quote = (
        "We present a compact tagger that labels archaic spelling variants in parish "
        "registers of several regions and centuries across Europe and their neighbouring "
        "kingdoms over five hundred years of church records."
    )
    value = quote[: quote.index(" and centuries")]
    cell = whole_phrase(finding("method", value, quote))
    assert cell.value == value and cell.cut


def test_a_value_stopped_inside_an_abbreviation_loses_its_first_letter() -> None:
    quote = "We tag the shards by glaze, e.g. celadon or tin, and by the firing marks."
    cell = whole_phrase(finding("method", "the shards by glaze, e", quote))
    assert cell.value == "the shards by glaze" and cell.cut
    letter = "We rank the candidates with model B. It is small."
    kept = whole_phrase(finding("method", "the candidates with model B", letter, cut=False))
    assert kept.value == "the candidates with model B"


def test_a_margin_is_no_means_of_a_method() -> None:
    quote = (
        "Our sparse gauge reader trained on harbour webcams outperformed the float baseline in "
        "every inlet we surveyed during two stormy winters, by 3.9 points of error, as shown."
    )
    value = quote[: quote.index(" during two")]
    cell = whole_phrase(finding("method", value, quote))
    assert "3.9" not in cell.value


def test_a_value_does_not_end_in_a_barely_opened_bracket() -> None:
    value, cut = whole_end("we compare five pruning schedules (i")
    assert (value, cut) == ("we compare five pruning schedules", True)
    quote = "We test five pruning schedules (i.e., none, linear, cubic, step and lottery)."
    cell = whole_phrase(finding("method", "five pruning schedules (i", quote))
    assert not cell.value.endswith("(i") and cell.value.startswith("five pruning schedules")


def test_a_value_does_not_end_on_an_example_marker() -> None:
    quote = "Next we will widen the lexicon with regional forms, e.g. from dialect atlases."
    cell = whole_phrase(
        finding("limitations", "Next we will widen the lexicon with regional forms, e.g.", quote)
    )
    assert cell.value == "Next we will widen the lexicon with regional forms" and cell.cut
    assert cell.shown.endswith(ELLIPSIS)


def test_a_dropped_citation_leaves_no_dangling_preposition() -> None:
    quote = "We adopt the smoothing scheme introduced in BIBREF12 ."
    cell = whole_phrase(
        finding("method", "the smoothing scheme introduced in BIBREF12", quote, cut=False)
    )
    assert cell.shown == "the smoothing scheme introduced" + ELLIPSIS
    named = "We adopt the smoothing scheme of Kneser and Ney BIBREF12 ."
    kept = whole_phrase(
        finding("method", "the smoothing scheme of Kneser and Ney BIBREF12", named, cut=False)
    )
    assert kept.shown == "the smoothing scheme of Kneser and Ney"
