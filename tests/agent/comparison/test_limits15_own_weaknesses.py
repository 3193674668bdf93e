"""Limitations cells from the paper's own weaknesses reported in its results
(agent/comparison/aspect_readers/own_weaknesses.py), on papers the test writes: its system
worse than a baseline, its named method lagging, an error kind it analyses fill a cell that no
limitation cue fills; a baseline's or a cited system's weakness, an ablated variant's drop, an
outcome negated or in a case handled stay out, and a stated plan keeps the cell."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.comparison.aspect_readers.own_weaknesses import reported_weakness
from citewise.agent.comparison.extraction import Unit
from tests.agent.comparison.test_matrix_cells import cell_value as _cell


def _paper(results: str, closing: str = "Tagging names helps readers of old letters.") -> str:
    return f"""# Tagging Place Names in Old Letters

## Abstract

We tag place names in handwritten letters of the eighteenth century.

## Introduction

Old letters name places in spellings no gazetteer lists.

## Method

A character model reads each word and a tagger labels the names.

## Data

We transcribed four hundred letters from two archives.

## Results

The tagger finds most names in letters from the first archive. {results}

## Conclusion

{closing}
"""


OWN = "On the second archive, our tagger performs worse than the rule baseline on river names."
BASELINE = "The rule baseline performs poorly on river names from the second archive."
OBSERVED = "We observe that the rule baseline struggles with river names in the second archive."
ABLATED = "Without the character model, our tagger performs worse on river names."
PLAN = "In future work we will tag the names of ships in the same letters."


def test_the_papers_own_system_worse_than_a_baseline_fills_the_cell(tmp_path: Path) -> None:
    value = _cell(tmp_path, "own", _paper(OWN), "limitations")
    assert value.startswith("our tagger performs worse than the rule baseline"), value


def test_a_baselines_weakness_is_not_the_papers(tmp_path: Path) -> None:
    assert _cell(tmp_path, "baseline", _paper(BASELINE), "limitations") == "not stated"


def test_what_we_observe_of_a_compared_system_is_not_the_papers(tmp_path: Path) -> None:
    assert _cell(tmp_path, "observed", _paper(OBSERVED), "limitations") == "not stated"


def test_an_ablated_variants_drop_is_no_weakness(tmp_path: Path) -> None:
    assert _cell(tmp_path, "ablated", _paper(ABLATED), "limitations") == "not stated"


def test_a_stated_plan_keeps_the_cell(tmp_path: Path) -> None:
    value = _cell(tmp_path, "plan", _paper(OWN, PLAN), "limitations")
    assert "ships" in value and "performs worse" not in value, value


NAMED = """# LetterNER: Tagging Place Names in Old Letters

## Abstract

We propose LetterNER, a tagger of place names in handwritten letters.

## Introduction

Old letters name places in spellings no gazetteer lists.

## Method

LetterNER reads each word with a character model and labels the names.

## Data

We transcribed four hundred letters from two archives.

## Results

On printed letters, LetterNER still lags behind the best commercial tagger by two points.

## Conclusion

Tagging names helps readers of old letters.
"""


def test_the_papers_method_name_is_its_own_work(tmp_path: Path) -> None:
    value = _cell(tmp_path, "named", NAMED, "limitations")
    assert value.startswith("LetterNER still lags behind"), value


def _unit(text: str) -> Unit:
    return Unit(text, "b1", 1, "Results", "paragraph", 1)


def test_an_outcome_negated_or_in_a_case_handled_is_none() -> None:
    negated = "Our tagger not only improves recall but also speed."
    assert reported_weakness(_unit(negated), None) is None
    handled = "When the model wrongly tags a river, we drop it."
    assert reported_weakness(_unit(handled), None) is None
    assert reported_weakness(_unit("The model wrongly tags rivers as towns."), None) is not None


def test_an_outcome_in_brackets_or_after_another_clause_is_none() -> None:
    text = "We obtained 81% accuracy (when misclassifications of towns count as right)."
    assert reported_weakness(_unit(text), None) is None
    text = "Our analysis shows that the compared tagger performs poorly on rivers."
    assert reported_weakness(_unit(text), None) is None


def test_a_change_the_paper_tried_is_its_own_work() -> None:
    text = "We found that adding a spelling layer decreases the accuracy on rivers."
    span = reported_weakness(_unit(text), None)
    assert span is not None and span[2], span  # a change tried, ranked below the system's own


def test_a_participle_after_a_comma_is_no_subject() -> None:
    text = "The archive holds many rivers, leading to lower recall for the rule baseline."
    assert reported_weakness(_unit(text), None) is None


def test_the_systems_own_outcome_outranks_a_change_tried(tmp_path: Path) -> None:
    results = (
        "Using a larger gazetteer performs worse than the plain lists on towns. "
        "The model is confused by rivers named after saints."
    )
    value = _cell(tmp_path, "ranked", _paper(results), "limitations")
    assert value.startswith("The model is confused by rivers"), value


def test_a_note_under_a_table_is_not_read(tmp_path: Path) -> None:
    results = (
        "Table 2 counts the names per archive.\n\n"
        "† Fewer names are linked in the second archive. Our linker still lags behind the "
        "archive's own index on county names."
    )
    assert _cell(tmp_path, "note", _paper(results), "limitations") == "not stated"
    plain = "Our linker still lags behind the archive's own index on county names."
    (tmp_path / "plain").mkdir()
    value = _cell(tmp_path / "plain", "plain", _paper(plain), "limitations")
    assert value.startswith("Our linker still lags behind"), value
