"""A question naming something in capitals ("HOVER") that the paper it is asked of never
writes is refused (not answered from a sentence about something else); a name only in a
lead statement is context and refuses nothing."""

from __future__ import annotations

from pathlib import Path

from citewise.agent.ask.refusal import NOT_ANSWERED
from citewise.api import Library
from tests.agent.test_answers_that_generalize import write_pages


def test_a_name_the_paper_never_writes_is_refused(tmp_path: Path) -> None:
    write_pages(
        tmp_path / "solvers.pdf",
        "Symbolic Solvers for Slab Puzzles",
        "Cleo Mason",
        [["We use the entire FOLIO test set for evaluation, consisting of 204 examples. "
          "The Prover9 solver checks each FOLIO proof."]],
    )  # fmt: skip
    lib = Library(tmp_path / "lib", embeddings=False)
    lib.ingest([tmp_path / "solvers.pdf"])
    doc = lib.documents()[0].id
    asked = "For the dataset that uses {} as the solver, how many examples are used for evaluation?"
    known = lib.ask(asked.format("Prover9 with FOLIO"), [doc])
    assert not known.refused and "204 examples" in known.answer
    absent = lib.ask(asked.format("HOVER"), [doc])
    assert absent.refused and absent.refusal_kind == NOT_ANSWERED
    assert absent.answer.endswith("(no HOVER in the paper)")
    lead = lib.ask(f"HOVER is not used here. {asked.format('Prover9 with FOLIO')}", [doc])
    assert not lead.refused and "204 examples" in lead.answer
