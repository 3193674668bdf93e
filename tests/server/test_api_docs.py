"""The API docs at /docs come from packaged files: they render with no network at all."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.server.browser import CHROMIUM, CHROMIUM_ARGS
from tests.server.conftest import TOKEN, Server


def test_docs_page_references_only_packaged_assets(server: Server) -> None:
    with server.client() as client:
        page = client.get("/docs")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
        assert assets and all(a.startswith("/static/") for a in assets), assets
        for asset in assets:
            served = client.get(asset)
            assert served.status_code == 200, asset
            kind = "text/css" if asset.endswith(".css") else "text/javascript"
            assert served.headers["content-type"].startswith(kind), asset
        bundle = client.get("/static/swagger/swagger-ui-bundle.js")
        assert len(bundle.content) > 500_000  # the real Swagger UI, not a stub
        assert client.get("/redoc").status_code == 404  # FastAPI's CDN-loaded page is off


def test_with_a_token_the_docs_and_schema_need_it(guarded_server: Server) -> None:
    with guarded_server.client() as client:
        assert client.get("/docs").status_code == 401
        assert client.get("/openapi.json").status_code == 401
        client.get(f"/docs?token={TOKEN}")  # the browser's way in: sets the shell's cookie
        assert client.get("/docs").status_code == 200
        assert client.get("/static/swagger/swagger-ui.css").status_code == 200
        assert client.get("/openapi.json").status_code == 200
    with guarded_server.client(TOKEN) as client:
        assert client.get("/openapi.json").status_code == 200


@pytest.fixture
def offline_page() -> Iterator[tuple[Any, list[str]]]:
    """A chromium page that may reach loopback only; other requests are recorded, aborted."""
    if importlib.util.find_spec("playwright") is None or not CHROMIUM.exists():
        pytest.skip("needs playwright (pip) and /usr/bin/chromium (Debian chromium)")
    from playwright.sync_api import sync_playwright

    elsewhere: list[str] = []

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if urlsplit(url).hostname in ("127.0.0.1", "localhost"):
            request_route.continue_()
        else:
            elsewhere.append(url)
            request_route.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context()
        context.route("**/*", route)
        page = context.new_page()
        page.set_default_timeout(30_000)
        yield page, elsewhere
        browser.close()


def test_swagger_ui_renders_every_route_offline(
    server: Server, offline_page: tuple[Any, list[str]]
) -> None:
    page, elsewhere = offline_page
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.url + "/docs")
    page.wait_for_selector(".opblock-summary-path")
    with server.client() as client:
        spec = client.get("/openapi.json").json()
    shown = page.locator(".opblock-summary-path").all_inner_texts()
    documented = {path.replace("\u200b", "") for path in shown}  # Swagger's wrap points
    assert len(spec["paths"]) > 10 and set(spec["paths"]) <= documented
    assert page.locator(".info .title").inner_text().startswith("citewise")
    assert elsewhere == []  # no CDN, no validator badge, no fonts from elsewhere
    assert problems == []
