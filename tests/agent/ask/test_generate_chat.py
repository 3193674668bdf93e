"""Chat: each turn re-retrieves; history only resolves references."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.agent.ask.chat import ChatSession, needs_context, resolve_with_terms
from citewise.api import Library
from citewise.llm.client import ModelClient
from tests.llm.scripted import ScriptedModel
from tests.pdfs import write_paper


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    folder = tmp_path_factory.mktemp("chat")
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([write_paper(folder / "granite.pdf")])
    yield lib
    lib.close()


def test_follow_ups_are_recognised() -> None:
    assert needs_context("What was its accuracy?")
    assert needs_context("How were they trained?")
    assert not needs_context("What accuracy did the classifier reach?")


def test_without_a_model_previous_terms_are_carried_along() -> None:
    assert resolve_with_terms("How was it trained?", "Which classifier labels the blocks?") == (
        "How was it trained? (classifier labels blocks)"
    )


def test_every_turn_searches_afresh(library: Library) -> None:
    asked: list[str] = []

    def ask(question: str):  # type: ignore[no-untyped-def]
        asked.append(question)
        return library.ask(question)

    session = ChatSession(ask)
    first = session.send("What accuracy did the classifier reach?")
    second = session.send("How many blocks were used to train it?")
    assert "93.4%" in first.answer.answer
    assert "1,284" in second.answer.answer
    assert asked == [first.resolved, second.resolved] and len(session.turns) == 2
    assert second.answer.question == "How many blocks were used to train it?"


def test_a_reason_model_rewrites_references_but_never_supplies_evidence(library: Library) -> None:
    resolver = ScriptedModel(['{"question": "How many blocks were used to train the classifier?"}'])
    session = ChatSession(library.ask, ModelClient(resolver, role="reason"))
    session.send("What accuracy did the classifier reach?")
    turn = session.send("How many blocks were used to train it?")
    assert turn.resolved == "How many blocks were used to train the classifier?"
    # The model saw the conversation to resolve "it"; the answer comes from the library.
    assert "93.4%" in resolver.calls[0][0][1]["content"]
    assert "1,284" in turn.answer.answer and turn.answer.sentences[0].citations


def test_chat_with_the_api_uses_the_generated_path(library: Library) -> None:
    session = library.chat()
    turn = session.send("What accuracy did the classifier reach?")
    assert turn.answer.backend == "extractive" and session.resolver is None


def test_roles_come_from_citewise_toml(library: Library) -> None:
    config = library.directory / "citewise.toml"
    config.write_text('[roles]\nscreen = ["extractive", "ollama:qwen2.5:7b"]\n')
    try:
        # citewise.toml is read once, when a library opens (one Settings per face)
        with Library(library.directory, embeddings=False) as reopened:
            clients = reopened.models_for("screen", task="T9")
            assert [c.label for c in clients] == ["extractive", "ollama:qwen2.5:7b"]
            assert all(c.role == "screen" and c.task == "T9" for c in clients)
            assert reopened.models_for("judge") == []
    finally:
        config.unlink()
