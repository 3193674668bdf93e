"""Survey tables the test writes: one work per row named by its citation, rows grouped
under a row holding only the group's name. "How many of the works in Table 1 and Table 2
are from 2021" counts citing rows over both tables; "which of A, B has the most works"
counts the rows under each named group; a group the tables lack gives no count."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from citewise.api import Library
from tests.agent.test_answers_that_generalize import ingested

LEFT = 72.0
XS = [LEFT, 260, 360, 450]
TABLE_1 = [
    ("Method", "Feedback", "Strategy", "Application"),
    ("", "Early Correction", "", ""),
    ("Chisel (Mason et al., 2021)", "Human", "Fine-tuning", "Dialogue"),
    ("Hammer (Stone and Ash, 2022)", "Reward Model", "RLHF", "Summaries"),
    ("", "Late Correction", "", ""),
    ("Wedge (Cole et al., 2023)", "Language Model", "Re-ranking", "Code"),
]
TABLE_2 = [
    ("Method", "Feedback", "Strategy", "Application"),
    ("", "Post-hoc Correction", "", ""),
    ("Drill (Flint, 2021)", "Language Model", "Self-refine", "QA"),
    ("Saw (Reed et al., 2023)", "Tools", "External", "Code"),
    ("Level (Park et al., 2023)", "Tools", "External", "Math"),
]


@pytest.fixture(scope="module")
def survey(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("survey")
    return ingested(folder, [write_survey(folder / "survey.pdf")])


def _table(page: pymupdf.Page, y: float, caption: str, rows: list[tuple[str, ...]]) -> None:
    page.insert_text((LEFT, y), caption, fontsize=9)
    y += 18
    for row in rows:
        if not row[0] and row[1]:  # a group row: its name centred across the table
            page.insert_text((230, y), row[1], fontsize=9)
        else:
            for x, text in zip(XS, row, strict=True):
                page.insert_text((x, y), text, fontsize=9)
        y += 12


def write_survey(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((LEFT, 80), "Surveying Correction in Quarry Models", fontsize=18)
    page.insert_textbox(
        pymupdf.Rect(LEFT, 100, 523, 150),
        "We group the surveyed works by when the correction happens, in two tables.",
        fontsize=10,
    )
    _table(page, 170, "Table 1: Works that correct early or late.", TABLE_1)
    page = doc.new_page(width=595, height=842)
    _table(page, 80, "Table 2: Works that correct after generation.", TABLE_2)
    page.insert_text((LEFT, 200), "3.4 Tool Feedback", fontsize=12, fontname="hebo")
    page.insert_textbox(
        pymupdf.Rect(LEFT, 215, 523, 300),
        "External tools check the drafts: Reed et al. (2023) run a compiler on the code "
        "and report each error back to the model, which then revises the draft.",
        fontsize=10,
    )
    page.insert_text((LEFT, 320), "4 Discussion", fontsize=12, fontname="hebo")
    page.insert_textbox(
        pymupdf.Rect(LEFT, 335, 523, 400),
        "Level (Park et al., 2023) checks each step of a proof with a solver.",
        fontsize=10,
    )
    page.insert_text((LEFT, 420), "5 Outlook", fontsize=12, fontname="hebo")
    page.insert_textbox(
        pymupdf.Rect(LEFT, 435, 523, 500),
        "Learned critics (Flint, 2021; Cole et al., 2023) may replace the tools, and "
        "Park et al. (2023) suggest solvers for every step.",
        fontsize=10,
    )
    doc.save(path)
    doc.close()
    return path


def test_works_of_a_year_are_counted_over_both_named_tables(survey: Library) -> None:
    answer = survey.ask(
        "How many of the papers listed in Table 1 and Table 2 were proposed in 2021?"
    )
    assert not answer.refused, answer.answer
    assert answer.answer.startswith("2 of the works listed in Table 1 and Table 2 cite 2021")
    assert "Chisel (Mason et al., 2021)" in answer.answer and "Drill (Flint, 2021)" in answer.answer
    (sentence,) = answer.sentences
    pages = {e.id: e.page for e in answer.evidence}
    assert sorted(pages[c] for c in sentence.citations) == [1, 2]  # each table's block cited
    quotes = " ".join(e.quote for e in answer.evidence)
    assert "Chisel (Mason et al., 2021)" in quotes and "Drill (Flint, 2021)" in quotes


def test_the_largest_named_group_of_rows_answers(survey: Library) -> None:
    answer = survey.ask(
        "Among early correction, late correction and post-hoc correction, which one has "
        "the most works in the survey?"
    )
    assert not answer.refused, answer.answer
    assert answer.answer.startswith("Post-hoc Correction (3 works listed under it in Table 2;")
    assert "Early Correction 2" in answer.answer and "Late Correction 1" in answer.answer


def test_groups_the_tables_do_not_have_give_no_count(survey: Library) -> None:
    answer = survey.ask(
        "Among early generation, late generation and post-hoc generation, which one has "
        "the most works in the survey?"
    )
    assert "works listed under it" not in answer.answer


def test_rows_picked_by_a_value_are_checked_against_a_sections_citations(
    survey: Library,
) -> None:
    answer = survey.ask(
        "For the papers that adopted the External strategy in Table 2, how many of them are "
        "not mentioned in Section 3.4?"
    )
    assert not answer.refused, answer.answer
    # Saw (Reed et al., 2023) is cited in 3.4; Level (Park et al., 2023) only in 4
    assert answer.answer.startswith("1 of the 2 External rows of Table 2 are not cited"), (
        answer.answer
    )
    assert answer.answer.endswith("Level (Park et al., 2023).")
    quotes = " ".join(e.quote for e in answer.evidence)
    assert "Reed et al. (2023) run a compiler" in quotes
    cited = survey.ask(
        "For the papers that adopted the External strategy in Table 2, how many of them are "
        "mentioned in Section 3.4?"
    )
    assert cited.answer.startswith("1 of the 2 External rows of Table 2 are cited"), cited.answer
    missing = survey.ask(
        "For the papers that adopted the External strategy in Table 2, how many of them are "
        "not mentioned in Section 7.2?"
    )
    assert "rows of Table 2" not in missing.answer


def test_which_of_two_sections_cites_more_works_is_counted(survey: Library) -> None:
    answer = survey.ask("Does Section 5 cite more papers than Section 3.4?")
    assert answer.answer.startswith("Yes: 5 Outlook cites 3 distinct works, 3.4 Tool Feedback 1")
    fewer = survey.ask("Does Section 5 cite fewer papers than Section 3.4?")
    assert fewer.answer.startswith("No: "), fewer.answer
