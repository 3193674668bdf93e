"""Figure questions on a paper the test writes: an answer resting on a figure's caption or
on a sentence that only points at the figure is refused with kind in_figure (citing the
caption); a question asking for the caption gets it; a sentence that states the figure's
finding in words still answers."""

from __future__ import annotations

import pytest

from citewise.agent.ask.refusal import IN_FIGURE
from citewise.api import Library
from tests.agent.test_answers_that_generalize import FILLER, write_pages

CAPTION = "Figure 3: Grading error of each scanner head over the slab thickness in millimetres."


@pytest.fixture(scope="module")
def paper(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("figures")
    write_pages(
        folder / "slabs.pdf",
        "Scanner Heads for Marble Slab Grading",
        "Cleo Mason",
        [
            ["We grade marble slabs with three laser scanner heads mounted over the saw. "
             "Each head reads the slab surface at two hundred lines per second."],
            [FILLER],
            ["As illustrated in Figure 3, the three heads behave differently as slabs get "
             "thicker. The third head is the most reliable of the three heads for thin slabs, "
             "so the workshop uses it for tiles."],
        ],
        figure=CAPTION,
    )  # fmt: skip
    library = Library(folder / "library", embeddings=False)
    assert library.ingest([folder / "slabs.pdf"]).failed == []
    return library


def test_a_value_only_the_plot_shows_is_refused_citing_the_caption(paper: Library) -> None:
    answer = paper.ask("What grading error does the second scanner head reach at 30 mm?")
    assert answer.refused and answer.refusal_kind == IN_FIGURE, answer.answer
    assert answer.evidence[0].quote == CAPTION
    assert answer.answer.startswith("The answer is in Figure 3 (page 3)")


def test_a_sentence_that_only_points_at_the_figure_is_no_answer(paper: Library) -> None:
    answer = paper.ask("How does the first scanner head shown in Figure 3 change with thickness?")
    assert answer.refused and answer.refusal_kind == IN_FIGURE, answer.answer


def test_the_caption_answers_a_question_about_the_figures_title(paper: Library) -> None:
    answer = paper.ask("What is the title of Figure 3?")
    assert not answer.refused, answer.answer
    assert "Grading error of each scanner head" in answer.answer


def test_a_finding_stated_in_words_still_answers(paper: Library) -> None:
    answer = paper.ask("Which scanner head is the most reliable for thin slabs?")
    assert not answer.refused, answer.answer
    assert "third head is the most reliable" in answer.answer
