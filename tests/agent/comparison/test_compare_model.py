"""The `extract` model fills only cells the patterns leave empty, and only with a value
that occurs verbatim in the sentence it names (scripted backend, real library)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.api import Library
from citewise.llm.base import Message
from citewise.llm.client import ModelClient
from tests.agent.comparison.test_compare import ADAMW
from tests.llm.scripted import ScriptedModel
from tests.pdfs import write_paper

SHAMPOO = [
    ("1 Introduction", ["We sort basalt columns by the pitch of their ring."]),
    (
        "2 Training",
        ["Parameters are updated with the Shampoo preconditioner in every step of training."],
    ),
]


@pytest.fixture
def library(tmp_path: Path) -> Iterator[tuple[Library, str, str]]:
    lib = Library(tmp_path / "lib", embeddings=False)
    lib.ingest([
        write_paper(tmp_path / "shampoo.pdf", "Ringing Basalt", SHAMPOO),
        write_paper(tmp_path / "adamw.pdf", "Echo Transformers for Granite", ADAMW),
    ])  # fmt: skip
    ids = {Path(d.path).stem: d.id for d in lib.documents()}
    yield lib, ids["shampoo"], ids["adamw"]
    lib.close()


def pick(word: str, value: str):  # noqa: ANN201 - a scripted reply
    def reply(messages: list[Message]) -> str:
        lines = messages[-1]["content"].splitlines()
        n = next(int(m.group(1)) for line in lines if (m := re.match(r"\[(\d+)\]", line))
                 and word in line)  # fmt: skip
        return f'{{"sentence": {n}, "value": "{value}"}}'

    return reply


def client(lib: Library, replies: list) -> tuple[ModelClient, ScriptedModel]:
    model = ScriptedModel(replies)
    return ModelClient(model, lib.store.audit, role="extract", use_cache=False), model


def test_model_fills_a_gap_with_a_verbatim_value(library) -> None:
    lib, shampoo, adamw = library
    extract, model = client(lib, [pick("Shampoo", "Shampoo preconditioner")])
    comparison = lib.compare([shampoo, adamw], ["optimizer"], extract)
    cell = comparison.cell("optimizer", shampoo)
    assert cell.value == "Shampoo preconditioner" and cell.value in (
        cell.finding.quote if cell.finding else ""
    )
    assert comparison.cell("optimizer", adamw).value == "AdamW"
    assert len(model.calls) == 1  # the pattern-found cell never reached the model
    assert model.calls[0][1] is not None  # a JSON schema was sent


def test_a_paraphrase_or_a_bad_sentence_number_is_not_stated(library) -> None:
    lib, shampoo, adamw = library
    extract, _ = client(lib, [pick("Shampoo", "the Shampoo optimiser"),
                              '{"sentence": 99, "value": "Shampoo"}'])  # fmt: skip
    assert lib.compare([shampoo, adamw], ["optimizer"], extract).cell(
        "optimizer", shampoo).value == "not stated"  # fmt: skip
    assert lib.compare([shampoo, adamw], ["optimizer"], extract).cell(
        "optimizer", shampoo).value == "not stated"  # fmt: skip


def test_matrix_caches_model_cells_apart(library) -> None:
    lib, shampoo, adamw = library
    plain = lib.matrix([shampoo], ["optimizer"])
    assert plain.rows[0].cell("optimizer").value == "not stated" and plain.computed == 1
    extract, model = client(lib, [pick("Shampoo", "Shampoo")])
    helped = lib.matrix([shampoo], ["optimizer"], model=extract)
    assert helped.computed == 1 and helped.rows[0].cell("optimizer").value == "Shampoo"
    again = lib.matrix([shampoo], ["optimizer"], model=extract)
    assert again.cached == 1 and again.rows[0].cell("optimizer").value == "Shampoo"
    assert len(model.calls) == 1
