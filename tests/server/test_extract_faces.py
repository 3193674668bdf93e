"""One `extract` model on every face: with citewise.toml naming one, POST /compare and
/matrix, the registry's actions (POST /tools/<action>, which the MCP tools answer too) and
`ask --trace` fill cells with the same model (a real SmolLM2 in a real server); a model
that cannot load fails every face with the same code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from citewise.api import Library
from tests.agent.comparison.test_compare import ADAMW
from tests.agent.comparison.test_compare_model import SHAMPOO
from tests.llm.smollm2 import needs_smollm2
from tests.pdfs import write_paper
from tests.server.conftest import BROKEN_MODEL, Hostile, start

OPTIMIZER = ["optimizer"]  # the patterns find AdamW, and nothing in the Shampoo paper


def extract_calls(library: Path) -> int:
    """Model calls the `extract` role logged in the library (cache hits included)."""
    with Library(library, embeddings=False) as lib:
        return sum(u.calls for u in lib.usage().by_model if u.role == "extract")


def values(cells: list[dict[str, Any]]) -> dict[tuple[str, str], tuple[str, str | None]]:
    """Each cell's value and quote by (paper, aspect), in whatever order a face lists them."""
    return {(c["document"], c["aspect"]): (c["value"], c["quote"]) for c in cells}


def ids_by_file(http: httpx.Client) -> dict[str, str]:
    return {Path(d["path"]).stem: d["id"] for d in http.get("/documents").json()}


@needs_smollm2
def test_every_face_fills_cells_with_the_configured_model(tmp_path: Path) -> None:
    library = tmp_path / "library"
    with Library(library, embeddings=False) as lib:
        report = lib.ingest([
            write_paper(tmp_path / "shampoo.pdf", "Ringing Basalt", SHAMPOO),
            write_paper(tmp_path / "adamw.pdf", "Echo Transformers for Granite", ADAMW),
        ])  # fmt: skip
        assert not report.failed
    (library / "citewise.toml").write_text('[roles]\nextract = "llamacpp:smollm2"\n')
    for server in start(library):
        with server.client() as http:
            ids = ids_by_file(http)
            pair = {"documents": [ids["shampoo"], ids["adamw"]], "aspects": OPTIMIZER}
            web = http.post("/compare", json=pair)
            asked_by_web = extract_calls(library)
            tool = http.post("/tools/compare_methods", json=pair)
            asked_by_tool = extract_calls(library) - asked_by_web
            row = {"documents": [ids["shampoo"]], "columns": OPTIMIZER}
            built = http.post("/matrix", json=row)
            again = http.post("/tools/build_matrix", json=row)
    assert web.status_code == tool.status_code == 200, (web.text, tool.text)
    # the Shampoo cell is the model's to fill: each face asked it (the second from the cache)
    assert asked_by_web >= 1 and asked_by_tool == asked_by_web
    assert tool.json()["cells"] == web.json()["cells"]
    assert built.status_code == again.status_code == 200, (built.text, again.text)
    # the tool reads the cell the route computed: cached under the same model's version
    assert (built.json()["computed"], again.json()["computed"], again.json()["cached"]) == (1, 0, 1)
    assert again.json()["rows"] == built.json()["rows"]
    with Library(library, embeddings=False) as lib:  # ask --trace: the registry in-process
        question = f"How do {ids['shampoo']} and {ids['adamw']} differ in optimizer?"
        (step,) = lib.plan(question)
    assert step.step.action == "compare_methods" and step.outcome.result is not None
    assert values(step.outcome.result["cells"]) == values(web.json()["cells"])


def test_a_configured_extract_model_that_cannot_load_fails_every_face_alike(
    hostile: Hostile,
) -> None:
    with hostile.server.client() as http:
        ids = ids_by_file(http)
        pair = {"documents": [ids["granite"], ids["bees"]], "aspects": OPTIMIZER}
        row = {"documents": [ids["bees"]], "columns": OPTIMIZER}
        answers: dict[str, Any] = {
            "/compare": http.post("/compare", json=pair),
            "/tools/compare_methods": http.post("/tools/compare_methods", json=pair),
            "/matrix": http.post("/matrix", json=row),
            "/tools/build_matrix": http.post("/tools/build_matrix", json=row),
        }
    status = answers["/compare"].status_code
    assert status >= 400
    for path, answer in answers.items():
        assert answer.status_code == status, (path, answer.text)
        assert answer.json()["code"] == "UNKNOWN_MODEL", (path, answer.text)
        assert "broken.gguf" in answer.json()["message"], path
    with Library(hostile.server.library, embeddings=False) as lib:
        assert lib.model_settings.role("extract") == [BROKEN_MODEL]
        (step,) = lib.plan(f"How do {ids['granite']} and {ids['bees']} differ in optimizer?")
    assert step.step.action == "compare_methods"
    assert step.outcome.error is not None and step.outcome.error.code == "UNKNOWN_MODEL"


def test_no_configured_model_leaves_the_patterns_alone(tmp_path: Path) -> None:
    """Without an `extract` role, no face calls a model (the default is still plain code)."""
    with Library(tmp_path / "lib", embeddings=False) as lib:
        lib.ingest([write_paper(tmp_path / "adamw.pdf", "Echo Transformers", ADAMW),
                    write_paper(tmp_path / "shampoo.pdf", "Ringing Basalt", SHAMPOO)])  # fmt: skip
        docs = [d.id for d in lib.documents()]
        assert lib.extract_model() is None
        table = lib.tool("compare_methods", {"documents": docs, "aspects": OPTIMIZER}).to_dict()
        assert table["cells"] == lib.compare(docs, OPTIMIZER).to_dict()["cells"]
        assert lib.usage().calls == 0
