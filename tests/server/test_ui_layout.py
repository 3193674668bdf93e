"""The web app's layout in a real browser (headless Debian chromium through Playwright) at two
common window sizes: the question box never lies under the evidence board, a second
question is asked without a reload, the board closes, and the console shows no blocked
style or script (Content-Security-Policy) and no failed load.

Set CITEWISE_SCREENSHOTS=docs/screenshots to refresh the screenshots the docs show.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser import browser, needs_browser, rect, screenshot_dir, served
from tests.server.conftest import Server

pytestmark = needs_browser
__all__ = ["browser", "served"]

SIZES = [(1280, 800), (1920, 1080)]
FIRST = "What accuracy did the classifier reach on the held-out test set?"
SECOND = "How many more foraging trips did colonies near sodium lamps make after dusk?"
# every policy violation the page sees, whatever the console says about it
WATCH_POLICY = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def sized(browser: Any, request: pytest.FixtureRequest) -> Iterator[tuple[Any, list[str]]]:
    width, height = request.param
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(WATCH_POLICY)
    page = context.new_page()
    page.set_default_timeout(30_000)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    context.on(
        "response",
        lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    yield page, problems
    context.close()


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and a["y"] < b["y"] + b["h"]
        and b["y"] < a["y"] + a["h"]
    )


def ask_and_open_evidence(page: Any, question: str, expected: str) -> None:
    page.fill("#question", question)
    page.click("#ask-form button[type=submit]")  # fails if anything lies over the button
    page.wait_for_function(
        "text => document.querySelector('#answer-text').innerText.includes(text)", arg=expected
    )
    page.locator("#answer-text button.cite").first.click()
    page.wait_for_selector("#evidence-board:not([hidden]) #ev-box[data-placed]")


def assert_question_box_clear(page: Any) -> None:
    board = rect(page, "#evidence-board")
    for part in ("#question", "#ask-scope", "#ask-form button[type=submit]"):
        assert not overlaps(rect(page, part), board), part
        # and the browser hits that control, not the board, at its centre
        hit = page.eval_on_selector(
            part,
            "e => { const r = e.getBoundingClientRect(); "
            "return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === e; }",
        )
        assert hit, part


def test_two_questions_in_a_row_with_the_board_beside_the_question(
    sized: tuple[Any, list[str]], served: Server, tmp_path: Path
) -> None:
    page, problems = sized
    width = page.viewport_size["width"]
    page.goto(served.url + "/")
    page.wait_for_selector("#documents tbody tr")
    page.click("nav button[data-view=ask]")

    ask_and_open_evidence(page, FIRST, "93.4%")
    assert_question_box_clear(page)
    ask_and_open_evidence(page, SECOND, "17%")  # no reload between the two
    assert_question_box_clear(page)
    assert "17%" in page.inner_text("#ev-quote")
    shots = screenshot_dir(tmp_path)
    page.screenshot(path=str(shots / f"ask-{width}x{page.viewport_size['height']}.png"))

    answer_width = rect(page, "#view-ask")["w"]
    page.click("#ev-close")
    page.wait_for_selector("#evidence-board[hidden]", state="attached")
    assert rect(page, "#view-ask")["w"] > answer_width  # the answer takes the room back
    page.locator("#answer-text button.cite").first.click()  # a citation reopens it
    page.wait_for_selector("#evidence-board:not([hidden]) #ev-box[data-placed]")

    assert page.evaluate("window.__violations") == []
    assert problems == []
