"""Context overflow over HTTP: the server says the prompt is too long, the backend learns
the real context size from the error, and the answer is retried once with less evidence."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.agent.generation.generate import GeneratedAnswerer, fabricated_citations
from citewise.agent.generation.verify import Verifier
from citewise.api import Library
from citewise.llm.base import ContextOverflowError, Params
from citewise.llm.client import ModelClient
from citewise.llm.openai_compat import OpenAICompatModel, parse_overflow
from tests.pdfs import write_paper


def test_overflow_replies_state_the_context_size_and_the_prompt_size() -> None:
    openai = (
        "This model's maximum context length is 512 tokens. However, you requested 981 "
        "tokens (931 in the messages, 50 in the completion). Please reduce the length."
    )
    assert parse_overflow(openai) == (512, 931)
    llama_cpp = (
        '{"error":{"code":400,"message":"the request exceeds the available context size, '
        'try increasing it","type":"exceed_context_size_error","n_prompt_tokens":4200,'
        '"n_ctx":4096}}'
    )
    assert parse_overflow(llama_cpp) == (4096, 4200)
    assert parse_overflow("prompt is too long") == (None, None)


def long_notes() -> str:
    """Eight long sections that all speak of the classifier's accuracy."""
    sections = []
    for n in range(1, 9):
        body = " ".join(
            f"In trial {n}.{k} the acoustic classifier reached an accuracy of {80 + n}.{k}% "
            f"on {100 * n + k} granite blocks from quarry {n}, measured after calibration."
            for k in range(1, 7)
        )
        sections.append(f"## Trial series {n}\n\n{body}\n")
    return "# Classifier accuracy notes\n\n" + "\n".join(sections)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    folder = tmp_path_factory.mktemp("overflow")
    lib = Library(folder / "lib", embeddings=False)
    (folder / "notes.md").write_text(long_notes())
    lib.ingest([write_paper(folder / "granite.pdf"), folder / "notes.md"])
    yield lib
    lib.close()


def test_a_server_side_overflow_is_retried_with_evidence_trimmed_to_fit(
    library: Library, smollm2_small_server: str
) -> None:
    # The client believes the server has 4096 tokens; the server has 512.
    model = OpenAICompatModel("smollm2", smollm2_small_server, n_ctx=4096)
    client = ModelClient(model, library.store.audit, role="write", use_cache=False)
    with pytest.raises(ContextOverflowError, match="512"):
        model.complete([{"role": "user", "content": "granite " * 700}], params=Params(max_tokens=8))
    model.n_ctx = 4096  # forget what that taught it
    model._chars_per_token = 3.0

    generator = GeneratedAnswerer(library.answerer, [client], Verifier(), max_evidence=8)
    question = "What accuracy did the classifier reach?"
    base = library.answerer.ask(question)
    offered = generator.numbered_evidence(question, base, (), 8)
    assert len(offered) >= 4  # a long evidence list: it cannot fit 512 tokens
    answer = generator.ask(question)
    record = generator.last_log
    assert record.overflows == 1 and model.n_ctx == 512
    assert 1 <= record.offered < len(offered)  # fewer passages the second time
    assert fabricated_citations(answer) == []
    assert answer.refused or answer.sentences  # it completed: an answer or a refusal
    calls = library.store.db.execute(
        "SELECT ok, error FROM llm_calls WHERE role = 'write' ORDER BY rowid"
    ).fetchall()
    assert [tuple(c) for c in calls[:2]] == [(0, "CONTEXT_OVERFLOW"), (1, None)]
