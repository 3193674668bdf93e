"""The web app in a real browser: headless Debian chromium (driven by Playwright, never a
downloaded browser) against a real `citewise serve` on loopback.

One browser for the module; the library holds two papers and one whose title and text are
script payloads. Set CITEWISE_SCREENSHOTS=DIR to keep the evidence-board screenshots.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from citewise.agent.ask.refusal import REFUSALS
from tests.server.browser import (
    HOSTILE_TITLE,
    PAGE_WIDTH,
    QUESTION,
    ask,
    browser,
    content,
    highlighted,
    needs_browser,
    page,
    pixels,
    rect,
    screenshot_dir,
    served,
    share,
)
from tests.server.conftest import TOKEN, Server, make_library, start

pytestmark = needs_browser
__all__ = ["browser", "page", "served"]  # the fixtures these tests use


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start(make_library(tmp_path_factory.mktemp("ui-token")), "--token", TOKEN)


def test_library_lists_documents_and_shows_a_document_with_its_sections(
    page: Any, served: Server
) -> None:
    page.goto(served.url + "/")
    page.wait_for_selector("#documents tbody tr")
    rows = page.locator("#documents tbody tr")
    assert rows.count() == 4
    assert "Granite Sorting with Acoustic Probes" in page.inner_text("#documents")
    page.click("#documents button:text('Granite Sorting with Acoustic Probes')")
    page.wait_for_selector("#document-view:not([hidden])")
    sections = page.inner_text("#doc-sections")
    for heading in ("Introduction", "Method", "Results", "Limitations"):
        assert heading in sections
    page.click("#documents button:text('Echo Profiles of Quarry Stone')")
    # the view changes in one step once every table came: its title says it has
    page.wait_for_selector("#doc-title:text-is('Echo Profiles of Quarry Stone')")
    grids = page.locator("#doc-tables table.grid")
    assert grids.count() == 3  # Tables 1-3, rendered as grids of cells
    first = grids.first
    assert "Table 1" in first.locator("caption").inner_text()
    assert first.locator("tr").count() == 4
    assert "91.5" in first.inner_text() and "Contact" in first.inner_text()
    assert "E = a m u 2" in page.inner_text("#doc-equations")
    nested = "#doc-sections li:has(> span:text-is('2 Method')) > ul"
    assert "2.1 Tapping" in page.inner_text(nested)  # the tree nests 2.1 under 2
    page.fill("#library-q", "crusher downtime")
    page.click("#library-search button")
    page.wait_for_selector("#search-hits li")
    assert "41 hours per month" in page.inner_text("#search-hits")


def test_a_citation_opens_the_evidence_board_with_the_block_boxed(
    page: Any, served: Server, tmp_path: Path
) -> None:
    ask(page, served, QUESTION)
    assert "93.4%" in page.inner_text("#answer-text")
    marker = page.locator("#answer-text button.cite").first
    block_id = marker.get_attribute("data-evidence")
    marker.click()
    page.wait_for_selector(f"#ev-box[data-placed='{block_id}']")
    with served.client() as http:
        block = http.get(f"/blocks/{block_id}").json()
    assert "93.4%" in page.inner_text("#ev-quote")
    assert page.inner_text("#ev-section") == "Section: 3 Results"
    assert page.get_attribute("#ev-open", "href") == "/documents/quarrygranite/file#page=1"

    shot = screenshot_dir(tmp_path) / "evidence-board.png"
    page.locator("#evidence-board").screenshot(path=str(shot))  # scrolls the board into view
    # the box sits where the block's bbox says, scaled from PDF points to the image as shown
    image, box = content(page, "#ev-image"), rect(page, "#ev-box")
    board = rect(page, "#evidence-board")
    scale = image["w"] / PAGE_WIDTH
    x0, y0, x1, y1 = block["bbox"]
    assert box["x"] == pytest.approx(image["x"] + x0 * scale, abs=1.5)
    assert box["y"] == pytest.approx(image["y"] + y0 * scale, abs=1.5)
    assert box["w"] == pytest.approx((x1 - x0) * scale, abs=1.5)
    assert box["h"] == pytest.approx((y1 - y0) * scale, abs=1.5)

    # the screenshot shows the highlight colour inside the box, white paper beside it
    pixmap = pymupdf.Pixmap(str(shot))
    inside = pixels(pixmap, box, board, inset=4)
    below = {**box, "y": box["y"] + box["h"] + 40, "h": 20}  # the paper under the block
    assert share(inside, highlighted) > 0.6
    assert share(pixels(pixmap, below, board, inset=4), highlighted) < 0.05


def test_read_in_context_opens_the_pdf_in_the_browser_with_the_box(
    page: Any, served: Server, tmp_path: Path
) -> None:
    ask(page, served, QUESTION)
    marker = page.locator("#answer-text button.cite").first
    block_id = marker.get_attribute("data-evidence")
    marker.click()
    page.wait_for_selector(f"#ev-box[data-placed='{block_id}']")
    page.click("#ev-read")
    page.wait_for_selector("#viewer-box[data-placed='1']")  # pdf.js drew page 1
    assert page.inner_text("#viewer-label") == "page 1 of 1"
    assert page.is_hidden("#ev-page")
    with served.client() as http:
        x0, y0, x1, y1 = http.get(f"/blocks/{block_id}").json()["bbox"]
    inked = page.evaluate(
        """() => { const c = document.getElementById('viewer-canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] < 128) n++; return n; }"""
    )
    assert inked > 2000  # the page's text was rendered, not a blank canvas
    shot = screenshot_dir(tmp_path) / "pdf-viewer.png"
    page.locator("#viewer").screenshot(path=str(shot))
    canvas, box = content(page, "#viewer-canvas"), rect(page, "#viewer-box")
    scale = canvas["w"] / PAGE_WIDTH
    assert box["x"] == pytest.approx(canvas["x"] + x0 * scale, abs=1.5)
    assert box["y"] == pytest.approx(canvas["y"] + y0 * scale, abs=1.5)
    assert box["w"] == pytest.approx((x1 - x0) * scale, abs=1.5)
    assert box["h"] == pytest.approx((y1 - y0) * scale, abs=1.5)
    viewer = rect(page, "#viewer")
    assert share(pixels(pymupdf.Pixmap(str(shot)), box, viewer, inset=4), highlighted) > 0.6
    page.click("#viewer-close")
    assert page.is_visible("#ev-page") and page.is_hidden("#viewer")


def test_a_refusal_shows_the_closest_passages(page: Any, served: Server) -> None:
    ask(page, served, "How many quarry workers were injured?")
    # one of the refusal kinds' sentences (agent/ask/refusal.py), never an answer
    assert page.inner_text("#answer-text").strip() in set(REFUSALS.values())
    assert page.locator("#answer-text button.cite").count() == 0
    assert page.is_visible("#closest-heading")
    passages = page.locator("#closest li")
    assert passages.count() >= 1
    passages.first.locator("button.show-evidence").click()
    page.wait_for_selector("#ev-box[data-placed]")


def test_a_hostile_title_and_text_run_nothing(page: Any, served: Server) -> None:
    page.goto(served.url + "/")
    page.wait_for_selector("#documents tbody tr")
    assert HOSTILE_TITLE in page.inner_text("#documents")  # shown as text, not markup
    page.locator("#documents button", has_text="window.__pwned").click()
    page.wait_for_selector("#document-view:not([hidden])")
    page.fill("#library-q", "zinc plating rust coastal")
    page.click("#library-search button")
    page.wait_for_selector("#search-hits li")
    page.locator("#search-hits button.show-evidence").first.click()
    page.wait_for_selector("#ev-box[data-placed]")
    assert "onerror" in page.inner_text("#ev-quote")
    ask(page, served, "How many years does zinc plating resist rust in coastal air?")
    page.locator("#answer-text button.cite").first.click()
    page.wait_for_selector("#ev-box[data-placed]")
    time.sleep(0.3)  # an injected handler (onerror of a broken image) would have fired
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("document.scripts.length") == 4  # the four of index.html
    assert page.evaluate("document.querySelectorAll('img[src=x], b[onmouseover]').length") == 0
    hrefs = page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)")
    assert not [h for h in hrefs if h.lower().startswith("javascript:")]


def test_the_research_tab_runs_a_task_with_live_events(
    page: Any, served: Server, tmp_path: Path
) -> None:
    page.goto(served.url + "/")
    page.click("nav button[data-view=research]")
    page.fill("#topic", "acoustic granite sorting accuracy")
    page.fill("#sources", "local")
    page.fill("#rounds", "1")
    page.click("#research-form button[type=submit]")
    page.wait_for_selector("#research-events li")
    page.wait_for_selector("#research-state[data-state]", timeout=120_000)
    assert page.get_attribute("#research-state", "data-state") == "completed"
    task_id = page.inner_text("#research-state").split()[1].rstrip(":")
    with served.client() as http:
        logged = http.get(f"/tasks/{task_id}").json()["events"]
    shown = page.locator("#research-events li").all_inner_texts()
    assert len(shown) == len(logged)  # every event of the log arrived over the stream
    assert {line.split(" · ")[0] for line in shown} >= {"plan", "write", "verify"}
    # in words: no stage output's keys or JSON (`output=["added",…]`)
    assert not [line for line in shown if "=" in line or "[" in line or "{" in line]
    assert any("wrote the report" in line for line in shown)
    assert page.get_attribute("#report-md", "href").startswith("blob:")
    assert page.get_attribute("#report-csl", "href").startswith("blob:")
    with served.client() as http:
        csl = http.get(f"/tasks/{task_id}/references.json").json()
    assert csl and all("title" in item for item in csl)  # the bibliography, as CSL-JSON
    # each local claim's marker opens the evidence board on its block
    page.wait_for_selector("#report-claims button.cite")
    assert "93.4%" in page.inner_text("#report-claims")
    marker = page.locator("#report-claims button.cite").first
    block_id = marker.get_attribute("data-evidence")
    marker.click()
    page.wait_for_selector(f"#ev-box[data-placed='{block_id}']")
    page.screenshot(path=str(screenshot_dir(tmp_path) / "research-report.png"))
    page.click("#report-full summary")
    frame = page.frame_locator("#report-frame")
    assert "Research report" in frame.locator("h1").first.inner_text()


def test_with_a_token_the_shell_loads_and_data_needs_the_header(page: Any, guarded: Server) -> None:
    refused = page.goto(guarded.url + "/")
    assert refused is not None and refused.status == 401  # no shell without the token
    # the link `citewise serve` prints: the cookie opens the shell; the app asks for the
    # token when it did not come with the link
    page.goto(guarded.url + f"/?token={TOKEN}")
    page.evaluate("sessionStorage.clear()")
    page.goto(guarded.url + "/")
    page.wait_for_selector("#status.error")
    assert "UNAUTHORIZED" in page.inner_text("#status")
    # a request the page makes without the header (a forged form, a cookie) changes nothing
    status = page.evaluate(
        """fetch('/tasks', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({topic: 'forged'})}).then(r => r.status)"""
    )
    assert status == 401
    page.fill("#token", TOKEN)
    page.click("#token-form button")
    page.wait_for_selector("#documents tbody tr")
    assert page.locator("#documents tbody tr").count() == 2
    with guarded.client(TOKEN) as http:
        assert http.get("/tasks").json() == []
    page.click("nav button[data-view=usage]")
    page.wait_for_selector("#usage-totals:has-text('model calls')")
    assert page.inner_text("#usage-totals").startswith("0 model calls")  # extractive: none


def test_the_printed_link_opens_the_app_with_its_data(page: Any, guarded: Server) -> None:
    page.goto(guarded.url + f"/?token={TOKEN}")
    page.wait_for_selector("#documents tbody tr")
    assert page.locator("#documents tbody tr").count() == 2
    assert "token" not in page.url  # dropped from the address bar once kept


def test_a_yes_no_lead_is_shown_in_the_question_s_language(page: Any, served: Server) -> None:
    ask(page, served, "Does the probe record the echo with a contact microphone?")
    assert page.inner_text("#answer-text strong.lead").strip() == "Yes."
    ask(page, served, "探头记录回声吗？")
    assert page.inner_text("#answer-text strong.lead").strip() == "是。"
    assert "records the echo with a contact microphone" in page.inner_text("#answer-text")
