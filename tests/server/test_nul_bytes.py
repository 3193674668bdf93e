"""A NUL byte in an id, a query, a question or a topic is refused with 400 BAD_REQUEST by a
real `citewise serve` before it reaches the library (so SQLite and PostgreSQL libraries
answer alike: SQLite would store it, PostgreSQL refuse it)."""

from __future__ import annotations

import pytest

from tests.server.conftest import Server


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/search?q=foraging%00trips", None),
        ("GET", "/documents/granite%00", None),
        ("GET", "/tasks/some%00task", None),
        ("POST", "/ask", {"question": "What share of trips\u0000 came after dusk?"}),
        ("POST", "/ask", {"question": "Which lamps?", "documents": ["bees\u0000"]}),
        ("POST", "/tasks", {"topic": "street lamps\u0000 and bees"}),
    ],
)
def test_a_nul_byte_in_any_text_is_a_bad_request(
    server: Server, method: str, path: str, body: object
) -> None:
    with server.client() as http:
        answer = http.request(method, path, json=body)
        fine = http.post("/ask", json={"question": "Which lamps changed foraging?"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["code"] == "BAD_REQUEST" and "NUL" in answer.json()["message"]
    assert fine.status_code == 200
