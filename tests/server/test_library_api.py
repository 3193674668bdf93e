"""The library routes of a real `citewise serve`: ask, search, documents, page images."""

from __future__ import annotations

import json

import pymupdf

from citewise.cli import app
from citewise.cli.testing import CliRunner
from tests.pdfs import PAPER_TITLE as GRANITE_TITLE
from tests.server.conftest import BEE_TITLE, Server

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZOOM = 1.5  # server/pages.py renders at 1.5x


def test_ask_answers_with_citations_on_the_page_of_the_pdf(server: Server) -> None:
    with server.client() as http:
        response = http.post("/ask", json={"question": "What accuracy did the classifier reach?"})
    assert response.status_code == 200
    answer = response.json()
    assert set(answer) >= {"question", "refused", "answer", "sentences", "evidence"}
    assert answer["refused"] is False
    assert "93.4%" in answer["answer"]
    cited = {c for s in answer["sentences"] for c in s["citations"]}
    evidence = {e["id"]: e for e in answer["evidence"]}
    assert cited and cited <= set(evidence)
    for block_id in cited:
        item = evidence[block_id]
        assert item["document"] == "quarrygranite"
        page = pymupdf.open(server.library.parent / "granite.pdf")[item["page"] - 1]
        assert item["quote"][:40] in page.get_text().replace("\n", " ")


def test_ask_with_trace_shows_each_answer_shape(server: Server) -> None:
    question = "What accuracy did the classifier reach?"
    with server.client() as http:
        traced = http.post("/ask", json={"question": question, "trace": True}).json()
        plain = http.post("/ask", json={"question": question}).json()
    shapes = {p["name"]: p for p in traced["pipeline"]["proposers"]}
    assert {"table", "draft"} <= set(shapes)
    won = [c for p in shapes.values() for c in p["candidates"] if c["won"]]
    assert len(won) == 1 and won[0]["support"] == traced["support_score"]
    assert traced["answer"] == plain["answer"] and "pipeline" not in plain


def test_ask_refuses_an_unrelated_question_with_a_normal_answer(server: Server) -> None:
    with server.client() as http:
        response = http.post("/ask", json={"question": "Who won the 1998 chess olympiad?"})
    assert response.status_code == 200
    assert response.json()["refused"] is True


def test_ask_is_restricted_to_the_documents_given(server: Server) -> None:
    with server.client() as http:
        answer = http.post(
            "/ask",
            json={"question": "How many more foraging trips after dusk?", "documents": ["nope"]},
        )
    assert answer.status_code == 404
    assert answer.json()["code"] == "PAPER_NOT_FOUND"


def test_bad_parameters_are_422_with_a_code(server: Server) -> None:
    with server.client() as http:
        empty = http.post("/ask", json={"question": "", "k": 0})
        no_query = http.get("/search")
    for response in (empty, no_query):
        assert response.status_code == 422
        body = response.json()
        assert body["code"] == "INVALID_REQUEST" and body["message"] and body["hint"]
    assert "question" in empty.json()["message"] and "k" in empty.json()["message"]


def test_search_returns_located_blocks(server: Server) -> None:
    with server.client() as http:
        hits = http.get("/search", params={"q": "foraging trips sodium lamps", "k": 3}).json()
    assert 1 <= len(hits) <= 3
    best = hits[0]
    assert set(best) >= {"id", "document", "title", "page", "bbox", "section", "text", "score"}
    assert best["title"] == BEE_TITLE and best["page"] == 1 and len(best["bbox"]) == 4
    assert "sodium lamps" in best["text"]


def cli_json(server: Server, *args: str) -> object:
    result = CliRunner().invoke(app, ["--library", str(server.library), *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_documents_list_and_show_are_the_cli_json(server: Server) -> None:
    with server.client() as http:
        listed = http.get("/documents").json()
        shown = http.get("/documents/quarrygranite")
        missing = http.get("/documents/no-such-paper")
    assert sorted(d["title"] for d in listed) == sorted([BEE_TITLE, GRANITE_TITLE])
    assert listed == cli_json(server, "list")
    assert shown.status_code == 200
    assert shown.json() == cli_json(server, "show", "quarrygranite")
    assert [s["title"] for s in shown.json()["sections"]][:2] == ["Introduction", "Method"]
    assert missing.status_code == 404
    assert missing.json()["code"] == "PAPER_NOT_FOUND"


def test_page_png_boxes_the_highlighted_block(server: Server) -> None:
    with server.client() as http:
        answer = http.post("/ask", json={"question": "What accuracy did the classifier reach?"})
        item = answer.json()["evidence"][0]
        path = f"/documents/{item['document']}/pages/{item['page']}.png"
        plain = http.get(path)
        boxed = http.get(path, params={"highlight": item["id"]})
        no_page = http.get(f"/documents/{item['document']}/pages/9.png")
        no_doc = http.get("/documents/nope/pages/1.png")
    for response in (plain, boxed):
        assert response.status_code == 200
        assert response.headers["content-type"] == "image/png"
        assert response.content.startswith(PNG_SIGNATURE)
    before, after = pymupdf.Pixmap(plain.content), pymupdf.Pixmap(boxed.content)
    assert (before.width, before.height) == (after.width, after.height)
    assert before.samples != after.samples
    x0, y0, _, y1 = item["bbox"]
    edge = (int((x0 - 2) * ZOOM), int((y0 + y1) / 2 * ZOOM))  # the box's left side
    assert before.pixel(*edge) == (255, 255, 255)
    red, green, blue = after.pixel(*edge)
    assert red > 200 and blue < 80  # orange
    assert no_page.status_code == 404 and no_page.json()["code"] == "PAGE_NOT_FOUND"
    assert no_doc.status_code == 404 and no_doc.json()["code"] == "PAPER_NOT_FOUND"


def test_openapi_lists_every_route(server: Server) -> None:
    with server.client() as http:
        paths = set(http.get("/openapi.json").json()["paths"])
    assert paths >= {
        "/ask",
        "/search",
        "/documents",
        "/documents/{doc_id}",
        "/documents/{doc_id}/pages/{number}.png",
        "/tasks",
        "/tasks/{task_id}",
        "/tasks/{task_id}/report",
        "/tasks/{task_id}/events",
    }
