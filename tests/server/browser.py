"""What the browser tests share: headless Debian chromium driven by Playwright (never a
downloaded browser), a real `citewise serve` over two papers, a structured paper with
tables and one whose title and text are script payloads, and the geometry and pixel
helpers that check a highlight box where the bbox says.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from citewise.api import Library
from tests.pdfs import write_paper
from tests.server.conftest import Server, make_library, start
from tests.structure.paper import write_structured_paper

CHROMIUM = Path("/usr/bin/chromium")
needs_browser = pytest.mark.skipif(
    importlib.util.find_spec("playwright") is None or not CHROMIUM.exists(),
    reason="needs playwright (pip) and /usr/bin/chromium (Debian chromium)",
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PAGE_WIDTH = 595.0  # points: tests/pdfs.py writes A4 pages
HOSTILE_TITLE = "<script>window.__pwned=1</script> javascript:x()"
HOSTILE_TEXT = (
    '<img src=x onerror="window.__pwned = 3"> Zinc plating <b onmouseover=alert(1)>resists</b> '
    "rust for 12 years javascript:window.__pwned=4 in coastal air."
)
QUESTION = "What accuracy did the classifier reach on the held-out test set?"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("ui")
    library = make_library(folder)
    hostile = write_paper(
        folder / "hostile.pdf", title=HOSTILE_TITLE, sections=[("1 Payload", [HOSTILE_TEXT])]
    )
    structured = write_structured_paper(folder / "structured.pdf")
    with Library(library, embeddings=False) as lib:
        assert not lib.ingest([structured, hostile]).failed
    yield from start(library)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(30_000)
    yield opened
    context.close()


def screenshot_dir(tmp_path: Path) -> Path:
    chosen = os.environ.get("CITEWISE_SCREENSHOTS")
    target = Path(chosen) if chosen else tmp_path
    target.mkdir(parents=True, exist_ok=True)
    return target


def rect(page: Any, selector: str) -> dict[str, float]:
    """The element's border box in page pixels."""
    script = "e => { const r = e.getBoundingClientRect(); "
    script += "return {x: r.x, y: r.y, w: r.width, h: r.height}; }"
    found: dict[str, float] = page.eval_on_selector(selector, script)
    return found


def content(page: Any, selector: str) -> dict[str, float]:
    """Where the element draws its content (inside its border): what the PDF maps onto."""
    script = "e => { const r = e.getBoundingClientRect(); return {x: r.x + e.clientLeft, "
    script += "y: r.y + e.clientTop, w: e.clientWidth, h: e.clientHeight}; }"
    found: dict[str, float] = page.eval_on_selector(selector, script)
    return found


def pixels(
    pixmap: pymupdf.Pixmap, area: dict[str, float], origin: dict[str, float], inset: int
) -> list[tuple[int, ...]]:
    """The pixels of `area` (page coordinates) in a screenshot of the element at `origin`."""
    left, top = int(area["x"] - origin["x"]) + inset, int(area["y"] - origin["y"]) + inset
    right = int(area["x"] - origin["x"] + area["w"]) - inset
    bottom = int(area["y"] - origin["y"] + area["h"]) - inset
    return [pixmap.pixel(x, y) for y in range(top, bottom, 2) for x in range(left, right, 2)]


def highlighted(rgb: tuple[int, ...]) -> bool:
    """Yellow over paper: red and green high, blue well below them."""
    r, g, b = rgb[:3]
    return r > 200 and g > 180 and b < r - 50


def share(found: list[tuple[int, ...]], test: Any) -> float:
    assert found, "no pixels in the area"
    return sum(1 for p in found if test(p)) / len(found)


def ask(page: Any, server: Server, question: str) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#documents tbody tr")
    page.click("nav button[data-view=ask]")
    page.fill("#question", question)
    page.click("#ask-form button[type=submit]")
    page.wait_for_selector("#answer:not([hidden])")
