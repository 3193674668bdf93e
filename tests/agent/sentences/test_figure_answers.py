"""Figure questions on a paper the test writes: a sentence that states the figure's finding
in words answers."""

from __future__ import annotations

import pytest

from citewise.api import Library
from tests.agent.ask.test_answers_that_generalize import FILLER, write_pages

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


def test_a_finding_stated_in_words_still_answers(paper: Library) -> None:
    answer = paper.ask("Which scanner head is the most reliable for thin slabs?")
    assert not answer.refused, answer.answer
    assert "third head is the most reliable" in answer.answer
