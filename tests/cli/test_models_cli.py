"""`citewise usage`, `doctor`, `chat` and `ask --llm` errors, run as subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from citewise.api import Library
from citewise.llm.client import ModelClient
from tests.llm.scripted import ScriptedModel
from tests.loopback import free_port
from tests.pdfs import write_paper


def run(library: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CITEWISE_LIBRARY": str(library), "HF_HUB_OFFLINE": "1"}
    env.pop("CITEWISE_CONFIG", None)
    env["XDG_CONFIG_HOME"] = str(library / "no-user-config")
    return subprocess.run(
        [sys.executable, "-m", "citewise", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("models-cli")
    with Library(folder / "lib", embeddings=False) as lib:
        lib.ingest([write_paper(folder / "granite.pdf")])
    return folder / "lib"


def closed_port_url() -> str:
    return f"http://127.0.0.1:{free_port()}/v1"


def test_usage_on_a_library_without_calls(library: Path) -> None:
    result = run(library, "usage", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cache_hits": 0, "by_model": [],
    }  # fmt: skip


def test_usage_reports_logged_calls_by_model_and_task(tmp_path: Path) -> None:
    with Library(tmp_path / "lib", embeddings=False) as lib:
        client = ModelClient(ScriptedModel(["a", "b"]), lib.store.audit, role="write", task="T1")
        client.complete([{"role": "user", "content": "q"}])
        client.complete([{"role": "user", "content": "q"}])
        ModelClient(ScriptedModel(["c"]), lib.store.audit, role="judge").complete(
            [{"role": "user", "content": "r"}]
        )
    everything = json.loads(run(tmp_path / "lib", "usage", "--json").stdout)
    assert (everything["calls"], everything["cache_hits"]) == (3, 1)
    assert [(m["role"], m["calls"]) for m in everything["by_model"]] == [("judge", 1), ("write", 2)]
    task = json.loads(run(tmp_path / "lib", "usage", "--task", "T1", "--json").stdout)
    assert task["calls"] == 2 and task["by_model"][0]["model"] == "script-1"
    table = run(tmp_path / "lib", "usage")
    assert "3 calls (1 from cache)" in table.stdout


def test_doctor_without_config_uses_the_extractive_backend(library: Path) -> None:
    result = run(library, "doctor", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] and report["config"] is None
    assert [r["role"] for r in report["roles"]] == ["screen", "extract", "reason", "write", "judge"]
    assert all(r["models"] == [] for r in report["roles"])


def test_doctor_reports_an_unreachable_role_and_how_to_fix_it(tmp_path: Path) -> None:
    url = closed_port_url()
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "citewise.toml").write_text(
        f'[roles]\nwrite = "openai:qwen"\njudge = ["extractive", "ollama:qwen2.5:7b"]\n'
        f'[backends.openai]\nurl = "{url}"\n[backends.ollama]\nurl = "{url}"\n'
    )
    result = run(lib, "doctor", "--json")
    assert result.returncode == 1
    roles = {r["role"]: r["models"] for r in json.loads(result.stdout)["roles"]}
    (write,) = roles["write"]
    assert not write["ok"] and url in write["detail"] and "llama_cpp.server" in write["hint"]
    assert [m["ok"] for m in roles["judge"]] == [True, False]
    assert "ollama serve" in roles["judge"][1]["hint"]


def test_ask_with_an_unreachable_server_names_the_url(library: Path) -> None:
    url = closed_port_url()
    result = run(library, "ask", "What accuracy did the classifier reach?", "--llm", "openai:m",
                 "--llm-url", url)  # fmt: skip
    assert result.returncode == 1
    assert f"MODEL_UNREACHABLE: cannot reach the model server at {url}" in result.stderr
    assert "python -m llama_cpp.server" in result.stderr


def test_ask_with_a_bad_spec_is_a_usage_error(library: Path) -> None:
    result = run(library, "ask", "What accuracy?", "--llm", "gpt4")
    assert result.returncode == 2 and "BAD_MODEL_SPEC" in result.stderr


def test_ask_with_an_unknown_gguf_is_a_clear_error(library: Path) -> None:
    result = run(library, "ask", "What accuracy did the classifier reach?", "--llm",
                 "llamacpp:/no/such/model.gguf")  # fmt: skip
    assert result.returncode == 1 and "UNKNOWN_MODEL" in result.stderr


def test_chat_answers_each_line_and_resolves_follow_ups(library: Path) -> None:
    lines = "What accuracy did the classifier reach?\nHow many blocks were used to train it?\n"
    result = run(library, "chat", "--json", stdin=lines)
    assert result.returncode == 0, result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert "93.4%" in first["answer"] and first["backend"] == "extractive"
    assert second["question"] == "How many blocks were used to train it?"
    assert second["resolved_question"] != second["question"]
    assert "1,284" in second["answer"]
