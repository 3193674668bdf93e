"""The LLM path end to end with a real model: SmolLM2-135M in-process and over HTTP.

What a 135M model writes is not judged; what the pipeline lets through is: only offered
evidence IDs, only verified sentences, every call logged, cached reruns free.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.agent.ask.qa import Answer
from citewise.agent.generation.drafting import DraftAnswer
from citewise.agent.generation.generate import fabricated_citations
from citewise.api import Library
from citewise.llm.base import ContextOverflowError, Params, parse_spec
from citewise.llm.client import ModelClient
from citewise.llm.llamacpp import LlamaCppModel
from citewise.llm.registry import open_model
from citewise.llm.structured import structured_call
from tests.llm.smollm2 import needs_smollm2
from tests.pdfs import write_paper

pytestmark = needs_smollm2

QUESTIONS = [
    "What accuracy did the classifier reach?",
    "How many labelled blocks were used for training?",
]
EVIDENCE = (
    "Evidence:\n\n[E1] (Granite, p. 1) The classifier reached an accuracy of 93.4% on the "
    "held-out test set of 312 blocks.\n\nQuestion: What accuracy did the classifier reach?"
)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    folder = tmp_path_factory.mktemp("smollm2")
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([write_paper(folder / "granite.pdf")])
    yield lib
    lib.close()


def assert_verified(answer: Answer, library: Library) -> None:
    """Refused, or every sentence cites offered evidence and passed verification."""
    assert fabricated_citations(answer) == []
    if answer.refused:
        assert answer.sentences == []
        return
    offered = {e.id for e in answer.evidence}
    for sentence in answer.sentences:
        assert sentence.citations and set(sentence.citations) <= offered
        assert sentence.support >= 0.5
    for e in answer.evidence:
        assert e.quote.split()[0] in " ".join(b.text for b in library.blocks(e.document))


def test_in_process_structured_call_follows_the_schema() -> None:
    client = ModelClient(LlamaCppModel("smollm2", n_ctx=1024))
    messages = [{"role": "user", "content": EVIDENCE}]
    result = structured_call(client, messages, DraftAnswer, Params(max_tokens=120))
    # The grammar makes the reply valid JSON of the schema; a cut-off reply is retried.
    assert result.completions and result.completions[0].backend == "llamacpp"
    assert result.value is not None or len(result.errors) == 2


def test_generated_answers_with_smollm2_are_verified_logged_and_cached(library: Library) -> None:
    before = library.usage().calls
    answers = [library.ask_with_model(q, llm="llamacpp:smollm2") for q in QUESTIONS]
    for answer in answers:
        assert_verified(answer, library)
        assert "SmolLM2-135M-Instruct.Q4_1.gguf" in answer.backend
    usage = library.usage()
    assert usage.calls > before
    (row,) = [r for r in usage.by_model if r.backend == "llamacpp"]
    assert row.role == "write" and row.cost_usd == 0.0 and row.completion_tokens > 0
    # The same questions again: every model call is answered from the cache.
    new_calls = usage.calls - usage.cache_hits
    again = [library.ask_with_model(q, llm="llamacpp:smollm2") for q in QUESTIONS]
    after = library.usage()
    assert after.calls - after.cache_hits == new_calls
    assert [a.to_dict() | {"timings_ms": {}} for a in again] == [
        a.to_dict() | {"timings_ms": {}} for a in answers
    ]


def test_evidence_is_trimmed_to_a_small_context(library: Library, tmp_path: Path) -> None:
    model = LlamaCppModel("smollm2", n_ctx=512)
    long_prompt = [{"role": "user", "content": "granite " * 700}]
    with pytest.raises(ContextOverflowError, match="context of 512 tokens"):
        model.complete(long_prompt, params=Params(max_tokens=8))
    (library.directory / "citewise.toml").write_text("[backends.llamacpp]\nn_ctx = 512\n")
    try:
        with Library(library.directory, embeddings=False) as small:
            answer = small.ask_with_model(QUESTIONS[0], llm="llamacpp:smollm2", use_cache=False)
    finally:
        (library.directory / "citewise.toml").unlink()
    assert_verified(answer, library)


def test_the_openai_path_against_a_real_llama_cpp_server(
    library: Library, smollm2_server: str
) -> None:
    model = open_model(parse_spec("openai:smollm2", smollm2_server))
    client = ModelClient(model, library.store.audit, role="write")
    result = structured_call(
        client, [{"role": "user", "content": EVIDENCE}], DraftAnswer, Params(max_tokens=160)
    )
    assert result.completions[0].prompt_tokens > 0
    assert result.value is not None or len(result.errors) == 2
    answer = library.ask_with_model(QUESTIONS[0], llm="openai:smollm2", llm_url=smollm2_server)
    assert_verified(answer, library)
    assert "openai:smollm2" in answer.backend
    rows = [r for r in library.usage().by_model if r.backend == "openai"]
    assert rows and rows[0].model == "smollm2"


def test_cli_ask_and_usage_with_the_server(library: Library, smollm2_server: str) -> None:
    env = {**os.environ, "CITEWISE_LIBRARY": str(library.directory), "HF_HUB_OFFLINE": "1"}
    ask = subprocess.run(
        # The question the API asked over the same server: the CLI is served from the cache.
        [sys.executable, "-m", "citewise", "ask", QUESTIONS[0], "--json",
         "--llm", "openai:smollm2", "--llm-url", smollm2_server],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert ask.returncode in (0, 3), ask.stderr
    answer = json.loads(ask.stdout)
    assert set(answer) >= {"question", "refused", "answer", "sentences", "evidence", "backend"}
    assert "openai:smollm2" in answer["backend"]
    cited = {c for s in answer["sentences"] for c in s["citations"]}
    assert cited <= {e["id"] for e in answer["evidence"]}
    usage = subprocess.run(
        [sys.executable, "-m", "citewise", "usage", "--json"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    summary = json.loads(usage.stdout)
    assert any(m["backend"] == "openai" for m in summary["by_model"])
    assert summary["cache_hits"] >= 1
    doctor = subprocess.run(
        [sys.executable, "-m", "citewise", "doctor", "--json",
         "--llm", "openai:smollm2", "--llm-url", smollm2_server],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    write = next(r for r in json.loads(doctor.stdout)["roles"] if r["role"] == "write")
    assert write["models"][0]["ok"], doctor.stdout


@pytest.mark.parametrize("threshold", [0.0, 1.01])
def test_a_cascade_that_starts_extractive_calls_the_model_only_when_unsure(
    library: Library, threshold: float
) -> None:
    config = library.directory / "citewise.toml"
    config.write_text(
        f'[roles]\nwrite = ["extractive", "llamacpp:smollm2"]\n[cascade]\nthreshold = {threshold}\n'
    )
    try:
        with Library(library.directory, embeddings=False) as lib:
            verbatim = lib.ask(QUESTIONS[0])
            assert not verbatim.refused and 0 < verbatim.support_score <= 1.0
            before = lib.usage().calls
            answer = lib.ask_with_model(QUESTIONS[0], use_cache=False)
            calls = lib.usage().calls - before
    finally:
        config.unlink()
    if threshold == 0.0:  # the verbatim answer is sure enough: no model call at all
        assert calls == 0 and answer.to_dict() | {"timings_ms": {}} == verbatim.to_dict() | {
            "timings_ms": {}
        }
    else:  # never sure enough: the model writes, under verification
        assert calls >= 1
        assert "SmolLM2" in answer.backend or answer.answer == verbatim.answer
        assert_verified(answer, library)
