"""The web app's files and the JSON routes it reads, over HTTP (no browser): the policy the
shell is served under, what needs the token, Host checks, and the evidence lookups."""

from __future__ import annotations

import re

from tests.server.conftest import TOKEN, Server

SHELL = (
    "/",
    "/static/app.js",
    "/static/views.js",
    "/static/research.js",
    "/static/app.css",
    "/static/viewer.js",
    "/static/pdfjs/pdf.min.mjs",
)


def test_the_shell_is_served_under_a_strict_policy(server: Server) -> None:
    with server.client() as http:
        pages = {path: http.get(path) for path in SHELL}
        unknown = http.get("/static/pdfjs/../../api.py")
        other = http.get("/static/secret.txt")
    for path, response in pages.items():
        assert response.status_code == 200, path
        policy = response.headers["content-security-policy"]
        assert "script-src 'self';" in policy and "default-src 'none'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["x-content-type-options"] == "nosniff"
    assert pages["/"].headers["content-type"].startswith("text/html")
    assert pages["/static/app.js"].headers["content-type"].startswith("text/javascript")
    html = pages["/"].text
    assert '<script src="/static/app.js" defer></script>' in html
    assert html.count("<script") == 4 and not re.search(r"\son[a-z]+\s*=", html)  # no inline
    for script in ("/static/app.js", "/static/views.js", "/static/research.js"):
        assert "innerHTML" not in pages[script].text  # data goes in as text only
    assert unknown.status_code == 404 and other.status_code == 404
    assert other.json()["code"] == "PAGE_NOT_FOUND"


def test_with_a_token_nothing_loads_without_it(guarded_server: Server) -> None:
    with guarded_server.client() as anonymous:
        refused = {
            path: anonymous.get(path).status_code
            for path in (
                *SHELL,
                "/docs",
                "/openapi.json",
                "/documents",
                "/usage",
                "/blocks/x",
                "/documents/x/file",
                "/tasks/x/claims",
                "/tasks/x/references.json",
            )
        }
        wrong = anonymous.get("/?token=not-the-token")
        head_post = anonymous.post("/")
    assert set(refused.values()) == {401}, refused
    assert wrong.status_code == 401 and "set-cookie" not in wrong.headers
    assert "/?token=" in wrong.json()["hint"]  # says how a browser gets in
    assert head_post.status_code == 401


def test_the_link_with_the_token_opens_the_shell_and_only_the_shell(
    guarded_server: Server,
) -> None:
    with guarded_server.client() as browser:
        opened = browser.get(f"/?token={TOKEN}", follow_redirects=False)
        assert opened.status_code == 303
        # the token moves to the fragment, which the app reads and no server ever sees
        assert opened.headers["location"] == f"/#token={TOKEN}"
        cookie = opened.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and TOKEN not in cookie
        shell = {path: browser.get(path).status_code for path in (*SHELL, "/docs")}
        schema = browser.get("/openapi.json")
        # the cookie opens no data route and authorizes no change (CSRF)
        data = {path: browser.get(path).status_code for path in ("/documents", "/usage")}
        forged = browser.post("/tasks", json={"topic": "forged"})
    assert shell == dict.fromkeys((*SHELL, "/docs"), 200), shell
    assert schema.status_code == 200 and schema.json()["info"]["title"] == "citewise"
    assert set(data.values()) == {401} and forged.status_code == 401
    with guarded_server.client(TOKEN) as http:
        assert http.get("/usage").status_code == 200
        assert "forged" not in [t["topic"] for t in http.get("/tasks").json()]
    with guarded_server.client() as other:  # a forged cookie value is no cookie
        other.cookies.set("citewise-ui", TOKEN)
        assert other.get("/").status_code == 401


def test_a_rebound_host_gets_no_shell(server: Server) -> None:
    with server.client() as http:
        refused = http.get("/", headers={"Host": "attacker.example"})
    assert refused.status_code == 421 and refused.json()["code"] == "HOST_NOT_ALLOWED"


def test_evidence_lookups_answer_blocks_files_and_structure(server: Server) -> None:
    with server.client() as http:
        hit = http.get("/search", params={"q": "crusher downtime", "k": 1}).json()[0]
        block = http.get(f"/blocks/{hit['id']}").json()
        pdf = http.get(f"/documents/{hit['document']}/file")
        missing = http.get("/blocks/nope-00001")
        no_table = http.get(f"/documents/{hit['document']}/tables/Table 4")
        no_doc = http.get("/documents/nope/file")
    assert block["quote"] == hit["text"] and block["bbox"] == [round(v, 1) for v in hit["bbox"]]
    assert block["page"] == 1 and block["page_size"] == [595.0, 842.0]
    assert block["section"] == "3 Results" and block["document"] == hit["document"]
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    assert missing.status_code == 404 and missing.json()["code"] == "BLOCK_NOT_FOUND"
    assert no_table.status_code == 404 and no_table.json()["code"] == "NOT_IN_DOCUMENT"
    assert no_table.json()["hint"] == "labelled tables: none"
    assert no_doc.status_code == 404 and no_doc.json()["code"] == "PAPER_NOT_FOUND"
