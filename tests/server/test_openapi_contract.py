"""Schemathesis against the live server's /openapi.json: every generated request gets a
documented status, a JSON error body where errors are JSON, and never a server error.

POST /tasks is left out: each generated call would start a research task. Schema-valid data
may get 400 BAD_REQUEST: text holding a NUL byte is refused (server/nul_bytes.py) wherever it
is, which the schema's strings cannot say, so positive data accepts 400 too.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import Server, make_library, start

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("schemathesis") is None, reason="schemathesis not installed"
)


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own: generated requests must not touch other tests' tasks."""
    yield from start(make_library(tmp_path_factory.mktemp("fuzzed")))


def test_every_generated_request_gets_a_documented_answer(fuzzed: Server, tmp_path: Path) -> None:
    report = tmp_path / "junit.xml"
    accepted = '"2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"'
    # a column or aspect is any phrase of one to six words, but a single word one letter off a
    # preset ("metircs") is refused with 422 UNKNOWN_ASPECT and a "did you mean": a rule the
    # schema cannot state, so these operations may answer a schema-valid request with 422
    aspects = "^/(compare|matrix)|^/tools/(compare_methods|build_matrix)"
    (tmp_path / "schemathesis.toml").write_text(
        f"[checks.positive_data_acceptance]\nexpected-statuses = [{accepted}]\n\n"
        f"[[operations]]\ninclude-path-regex = '{aspects}'\n"
        f'checks.positive_data_acceptance.expected-statuses = [{accepted}, "422"]\n'
    )
    command = [sys.executable, "-m", "schemathesis.cli", "run", f"{fuzzed.url}/openapi.json"]
    command += ["--checks", "all", "--exclude-name", "POST /tasks", "--max-examples", "20"]
    command += ["--seed", "7", "--report", "junit", "--report-junit-path", str(report)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-4000:]
    assert "/ask" in report.read_text()  # the operations really ran
    assert fuzzed.process.poll() is None  # and the server survived them
