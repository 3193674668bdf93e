"""A number question about a measure ("how much memory") is answered by the sentence that
states a figure in that measure's unit, not by a better-worded one stating a count."""

from __future__ import annotations

from pathlib import Path

from citewise.api import Library
from tests.agent.ask.test_answers_that_generalize import write_pages


def test_how_much_memory_is_answered_in_bytes(tmp_path: Path) -> None:
    write_pages(
        tmp_path / "solver.pdf",
        "A Partitioned Solver for Slab Spectra",
        "Cleo Mason",
        [
            ["The standard solver allocates vector memory anew in each of its 40 "
             "iterations."],
            ["Under the standard solver about 12 Mbytes of vector space is allocated for the "
             "same problem."],
        ],
    )  # fmt: skip
    lib = Library(tmp_path / "lib", embeddings=False)
    lib.ingest([tmp_path / "solver.pdf"])
    answer = lib.ask("How much vector memory does the standard solver allocate?")
    assert not answer.refused, answer.answer
    assert "12 Mbytes" in answer.sentences[0].text


def test_a_class_word_is_answered_by_a_member_of_the_class(tmp_path: Path) -> None:
    """'What hardware' is answered by the device ('two GPUs'), though the paper never
    writes 'hardware'."""
    write_pages(
        tmp_path / "grader.pdf",
        "Training a Slab Grader",
        "Cleo Mason",
        [
            ["The slab grader reads laser scans of each slab and predicts its grade."],
            ["The grader was trained on two GPUs for three days in the workshop."],
        ],
    )  # fmt: skip
    lib = Library(tmp_path / "lib", embeddings=False)
    lib.ingest([tmp_path / "grader.pdf"])
    answer = lib.ask("On what hardware was the slab grader trained?")
    assert not answer.refused, answer.answer
    assert "two GPUs" in answer.answer


def test_each_part_of_a_two_part_question_keeps_the_librarys_vocabulary(tmp_path: Path) -> None:
    """'How much memory ..., and how long ...?': the memory part is covered by a figure in
    bytes (a class member), as the whole question would be."""
    write_pages(
        tmp_path / "solver.pdf",
        "A Partitioned Solver for Slab Spectra",
        "Cleo Mason",
        [
            ["The standard solver needs about 12 Mbytes of vector space for the slab problem."],
            ["Solving the slab problem takes about four minutes on the workshop computer."],
        ],
    )  # fmt: skip
    lib = Library(tmp_path / "lib", embeddings=False)
    lib.ingest([tmp_path / "solver.pdf"])
    question = (
        "How much vector memory does the standard solver need, and how long does solving take?"
    )
    analysed, _ = lib.answerer.analyse(question)
    assert [p.aliases for p in analysed.parts()] == [analysed.aliases] * 2
    answer = lib.ask(question)
    assert not answer.refused, answer.answer
    assert "12 Mbytes" in answer.answer and "four minutes" in answer.answer
