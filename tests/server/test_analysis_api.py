"""Chat, compare and matrix over HTTP against a real `citewise serve` on loopback: the
answers match the Python API's, every stated cell is cited by a real block, exports are
the CLI's files, and the token guards each route."""

from __future__ import annotations

import csv
import importlib.util
import io
from collections.abc import Iterator

import pytest

from citewise.api import Library
from citewise.api.chat import PastTurn
from tests.llm.smollm2 import needs_smollm2
from tests.server.conftest import TOKEN, Server, make_library, start

FIRST = "What accuracy did the classifier reach on the held-out test set?"
FOLLOW_UP = "How does heavy rain change that?"


def test_a_chat_turn_resolves_references_from_the_history_it_is_sent(server: Server) -> None:
    with server.client() as http:
        first = http.post("/chat", json={"message": FIRST}).json()
        history = [{k: first[k] for k in ("question", "resolved", "answer")}]
        second = http.post("/chat", json={"message": FOLLOW_UP, "history": history}).json()
        alone = http.post("/chat", json={"message": FOLLOW_UP}).json()
    assert first["question"] == first["resolved"] == FIRST  # nothing to resolve yet
    assert "93.4%" in first["answer"] and not first["refused"]
    assert second["question"] == FOLLOW_UP
    assert second["resolved"].startswith(FOLLOW_UP) and "classifier" in second["resolved"]
    assert alone["resolved"] == FOLLOW_UP  # without history nothing is carried along
    # each turn has evidence of its own: the follow-up cites the block about rain
    quotes = {e["id"]: e["quote"] for e in second["evidence"]}
    assert any("78.0%" in q for q in quotes.values())
    cited = {c for s in second["sentences"] for c in s["citations"]}
    assert cited and cited <= set(quotes)
    with Library(server.library, embeddings=False) as lib:
        past = [PastTurn(first["question"], first["resolved"], first["answer"])]
        direct = lib.chat_turn(FOLLOW_UP, past).to_dict()
    assert direct["resolved"] == second["resolved"] and direct["answer"] == second["answer"]


def test_compare_cites_every_stated_cell_with_a_block_that_quotes_it(server: Server) -> None:
    with server.client() as http:
        ids = [d["id"] for d in http.get("/documents").json()]
        body = {"documents": ids, "aspects": ["method", "limitations", "datasets"]}
        table = http.post("/compare", json=body).json()
        exported = http.post("/compare/export", params={"format": "csv"}, json=body)
        markdown = http.post("/compare/export", params={"format": "md"}, json=body)
        unknown = http.post("/compare", json={"documents": ids, "aspects": ["optimzer"]})
        one = http.post("/compare", json={"documents": ids[:1]})
        blocks = {
            c["block"]: http.get(f"/blocks/{c['block']}").json()
            for c in table["cells"]
            if c["stated"]
        }
    assert table["aspects"] == ["method", "limitations", "datasets"]
    assert len(table["cells"]) == 3 * len(ids)
    stated = [c for c in table["cells"] if c["stated"]]
    assert stated  # the granite paper states its method and its limitation
    for cell in stated:
        assert cell["value"] in cell["quote"]
        assert cell["quote"] in blocks[cell["block"]]["quote"]
        assert blocks[cell["block"]]["document"] == cell["document"]
    with Library(server.library, embeddings=False) as lib:
        assert lib.compare(ids, body["aspects"]).to_dict() == table
    rows = list(csv.reader(io.StringIO(exported.text)))
    assert exported.headers["content-type"].startswith("text/csv")
    assert "attachment" in exported.headers["content-disposition"]
    assert rows[0] == ["aspect", "document", "value", "page", "quote"]
    assert len(rows) == 1 + len(table["cells"])
    assert markdown.text.startswith("| aspect |")
    assert unknown.status_code == 422 and unknown.json()["code"] == "UNKNOWN_ASPECT"
    assert one.status_code == 422


def test_the_matrix_and_its_exports(server: Server) -> None:
    columns = ["method", "limitations"]
    with server.client() as http:
        built = http.post("/matrix", json={"columns": columns}).json()
        again = http.post("/matrix", json={"columns": columns}).json()
        exported = http.post("/matrix/export", params={"format": "csv"}, json={"columns": columns})
        missing = http.post("/matrix", json={"documents": ["nope"]})
    assert built["columns"] == columns and len(built["rows"]) == 2
    assert again["computed"] == 0 and again["cached"] == 4  # cells cached in the library
    assert again["rows"] == built["rows"]
    for row in built["rows"]:
        for cell in row["cells"].values():
            assert not cell["stated"] or cell["value"] in cell["quote"] and cell["block"]
    header = next(csv.reader(io.StringIO(exported.text)))
    assert header[:5] == ["document", "title", "year", "method", "method page"]
    assert missing.status_code == 404 and missing.json()["code"] == "PAPER_NOT_FOUND"


@pytest.mark.skipif(importlib.util.find_spec("openpyxl") is None, reason="needs openpyxl")
def test_the_matrix_downloads_as_xlsx(server: Server) -> None:
    from openpyxl import load_workbook

    with server.client() as http:
        answer = http.post("/matrix/export", params={"format": "xlsx"}, json={})
    assert answer.status_code == 200 and answer.content.startswith(b"PK")
    sheet = load_workbook(io.BytesIO(answer.content)).active
    assert sheet is not None and sheet.cell(1, 1).value == "document"
    assert sheet.max_row == 3  # a header and the two papers


def test_chat_compare_and_matrix_need_the_token(guarded_server: Server) -> None:
    routes = {"/chat": {"message": FIRST}, "/compare": {"documents": ["a", "b"]}}
    routes |= {"/matrix": {}, "/matrix/export": {}, "/compare/export": {"documents": ["a", "b"]}}
    with guarded_server.client() as anonymous:
        refused = {
            path: anonymous.post(path, json=body).status_code for path, body in routes.items()
        }
    assert set(refused.values()) == {401}, refused
    with guarded_server.client(TOKEN) as http:
        assert http.post("/chat", json={"message": FIRST}).status_code == 200


@pytest.fixture(scope="module")
def reasoning(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose citewise.toml gives the `reason` role SmolLM2 (in-process)."""
    library = make_library(tmp_path_factory.mktemp("reasoning"))
    (library / "citewise.toml").write_text('[roles]\nreason = "llamacpp:smollm2"\n')
    yield from start(library)


@needs_smollm2
def test_with_a_reason_model_a_follow_up_is_rewritten_by_it(reasoning: Server) -> None:
    with reasoning.client() as http:
        first = http.post("/chat", json={"message": FIRST}).json()
        history = [{k: first[k] for k in ("question", "resolved", "answer")}]
        second = http.post("/chat", json={"message": FOLLOW_UP, "history": history})
        usage = http.get("/usage").json()
    assert second.status_code == 200, second.text
    reply = second.json()
    assert reply["question"] == FOLLOW_UP and reply["resolved"]
    assert first["resolved"] == FIRST  # a first turn needs no model
    # the model was called for the follow-up only (once, or twice when its first reply did
    # not validate), and the calls are logged in the library
    reason = [m for m in usage["by_model"] if m["role"] == "reason"]
    assert reason and 1 <= sum(m["calls"] for m in reason) <= 2
    cited = {c for s in reply["sentences"] for c in s["citations"]}
    assert cited <= {e["id"] for e in reply["evidence"]}  # evidence from the library only
