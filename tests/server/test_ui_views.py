"""The chat, compare and matrix views and the cited table cell's box, in headless Debian
chromium against a real `citewise serve` (tests/server/browser.py).
Set CITEWISE_SCREENSHOTS=DIR to keep the screenshots."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from tests.pdfs import PAPER_TITLE
from tests.server.browser import (
    HOSTILE_TITLE,
    PAGE_WIDTH,
    QUESTION,
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
from tests.server.conftest import BEE_TITLE, Server
from tests.structure.paper import TITLE as STRUCTURED_TITLE

pytestmark = needs_browser
__all__ = ["browser", "page", "served"]  # the fixtures these tests use

CELL_QUESTION = "What is the probe time cost per block at Carrara?"
CELL_VALUE = "5.10"  # Table 2 of tests/structure/paper.py


def open_view(page: Any, server: Server, view: str) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#documents tbody tr")
    page.click(f"nav button[data-view={view}]")


def test_chat_turns_each_carry_their_own_evidence(
    page: Any, served: Server, tmp_path: Path
) -> None:
    open_view(page, served, "chat")
    for n, message in enumerate((QUESTION, "How does heavy rain change that?"), start=1):
        page.fill("#chat-message", message)
        page.click("#chat-form button[type=submit]")
        page.wait_for_selector(f"#chat-turns li[data-turn='{n}']")
    first, second = (
        page.locator("#chat-turns li[data-turn='1']"),
        page.locator("#chat-turns li[data-turn='2']"),
    )
    assert "93.4%" in first.inner_text()
    assert "78.0%" in second.locator(".turn-answer").inner_text()
    resolved = second.locator(".resolved").inner_text()  # the follow-up searched with turn 1
    assert resolved.startswith("searched as: How does heavy rain change that?")
    assert "classifier" in resolved
    assert first.locator("button.cite").count() >= 1 and second.locator("button.cite").count() >= 1
    # the follow-up's own citation of the rain sentence opens the board on that block
    with served.client() as http:
        blocks = {
            b: http.get(f"/blocks/{b}").json()
            for b in second.locator("button.cite").evaluate_all(
                "ms => ms.map(m => m.dataset.evidence)"
            )
        }
    rain = next(b for b, found in blocks.items() if "78.0%" in found["quote"])
    second.locator(f"button.cite[data-evidence='{rain}']").first.click()
    page.wait_for_selector(f"#ev-box[data-placed='{rain}']")
    assert "78.0%" in page.inner_text("#ev-quote")
    assert page.inner_text("#ev-section") == "Section: 4 Limitations"
    page.screenshot(path=str(screenshot_dir(tmp_path) / "chat.png"))
    page.click("#chat-new")
    assert page.locator("#chat-turns li").count() == 0


def test_compare_shows_a_cited_table_and_its_csv(page: Any, served: Server, tmp_path: Path) -> None:
    open_view(page, served, "compare")
    with served.client() as http:
        titles = {d["title"]: d["id"] for d in http.get("/documents").json()}
    ids = [titles[PAPER_TITLE], titles[BEE_TITLE]]
    for doc in ids:
        page.check(f"#compare-docs input[value='{doc}']")
    page.fill("#compare-aspects", "method, limitations, datasets")
    page.click("#compare-form button[type=submit]")
    page.wait_for_selector("#compare-table tbody tr")
    rows = page.locator("#compare-table tbody tr")
    assert rows.count() == 3
    assert rows.locator("th").all_inner_texts() == ["method", "limitations", "datasets"]
    assert page.locator("#compare-table thead th").count() == 1 + len(ids)
    cell = page.locator("#compare-table td[data-aspect='method'] button.cell-cite").first
    value, block = cell.inner_text(), cell.get_attribute("data-evidence")
    cell.click()
    page.wait_for_selector(f"#ev-box[data-placed='{block}']")
    assert value in page.inner_text("#ev-quote")
    assert page.inner_text("#ev-support") == f"method, {PAPER_TITLE}: {value}"
    page.screenshot(path=str(screenshot_dir(tmp_path) / "compare.png"))
    with page.expect_download() as downloading:
        page.click("#compare-csv")
    rows_csv = list(csv.reader(io.StringIO(Path(downloading.value.path()).read_text())))
    assert rows_csv[0] == ["aspect", "document", "value", "page", "quote"]
    assert ["method", ids[0], value] in [r[:3] for r in rows_csv[1:]]


def test_the_matrix_view_cites_each_cell_and_downloads(
    page: Any, served: Server, tmp_path: Path
) -> None:
    open_view(page, served, "matrix")
    page.fill("#matrix-columns", "method, limitations")
    page.click("#matrix-form button[type=submit]")
    page.wait_for_selector("#matrix-table tbody tr")
    with served.client() as http:
        documents = http.get("/documents").json()
    assert page.locator("#matrix-table tbody tr").count() == len(documents)  # none ticked: all
    assert page.locator("#matrix-table thead th").all_inner_texts()[2:] == ["method", "limitations"]
    assert "% of cells stated" in page.inner_text("#matrix-meta")
    # the hostile paper's title is a row and a picker label as text; nothing of it ran
    assert HOSTILE_TITLE in page.inner_text("#matrix-table")
    assert HOSTILE_TITLE in page.inner_text("#matrix-docs")
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("document.scripts.length") == 4
    stated = page.locator("#matrix-table button.cell-cite")
    assert stated.count() >= 1
    assert page.locator("#matrix-table td.not-stated").count() + stated.count() == 2 * len(
        documents
    )
    cell = stated.first
    value, block = cell.inner_text(), cell.get_attribute("data-evidence")
    cell.click()
    page.wait_for_selector(f"#ev-box[data-placed='{block}']")
    assert value in page.inner_text("#ev-quote")
    page.screenshot(path=str(screenshot_dir(tmp_path) / "matrix.png"))
    with page.expect_download() as downloading:
        page.click("#matrix-csv")
    header = next(csv.reader(io.StringIO(Path(downloading.value.path()).read_text())))
    assert header[3:5] == ["method", "method page"]
    if importlib.util.find_spec("openpyxl") is not None:
        with page.expect_download() as downloading:
            page.click("#matrix-xlsx")
        assert Path(downloading.value.path()).read_bytes().startswith(b"PK")  # a zip: XLSX


def cell_box(pdf: Path, page_number: int, block_bbox: list[float], value: str) -> list[float]:
    """The cell's box (PDF points): where `value` is printed inside the table block."""
    with pymupdf.open(pdf) as doc:
        found = doc[page_number - 1].search_for(value, clip=pymupdf.Rect(block_bbox))
    assert len(found) == 1, found
    r = found[0]
    return [r.x0 - 3, r.y0 - 3, r.x1 + 3, r.y1 + 3]


def cell_coloured(rgb: tuple[int, ...]) -> bool:
    """The cell's crimson over the block's yellow over paper: red high, green held down."""
    r, g, b = rgb[:3]
    return r > 190 and g < 175 and b > 60


def test_a_cited_table_cell_is_boxed_inside_its_block(
    page: Any, served: Server, tmp_path: Path
) -> None:
    """The agreed contract: a citation may carry `cell_bbox` (PDF points, the block's page).
    Where the answer does not yet carry one, the test adds it to the real /ask answer,
    computed from the stored table block and the printed cell."""
    pdf = served.library.parent / "structured.pdf"
    added: dict[str, Any] = {}

    def with_cell(route: Any) -> None:
        answer = route.fetch().json()
        for ev in answer["evidence"]:
            if ev["quote"].split().count(CELL_VALUE) == 1 and "cell_bbox" not in ev:
                ev["cell_bbox"] = cell_box(pdf, ev["page"], ev["bbox"], CELL_VALUE)
        added.update({ev["id"]: ev for ev in answer["evidence"] if "cell_bbox" in ev})
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    page.route("**/ask", with_cell)
    open_view(page, served, "ask")
    page.fill("#question", CELL_QUESTION)
    page.click("#ask-form button[type=submit]")
    page.wait_for_selector("#answer:not([hidden])")
    assert CELL_VALUE in page.inner_text("#answer-text")
    (block_id, cited), *_ = added.items()
    page.click(f"#answer-text button.cite[data-evidence='{block_id}']")
    page.wait_for_selector(f"#ev-cell[data-placed='{block_id}']")
    shot = screenshot_dir(tmp_path) / "evidence-cell.png"
    page.locator("#evidence-board").screenshot(path=str(shot))
    image, block, cell = content(page, "#ev-image"), rect(page, "#ev-box"), rect(page, "#ev-cell")
    scale = image["w"] / PAGE_WIDTH
    x0, y0, x1, y1 = cited["cell_bbox"]
    assert cell["x"] == pytest.approx(image["x"] + x0 * scale, abs=1.5)
    assert cell["y"] == pytest.approx(image["y"] + y0 * scale, abs=1.5)
    assert cell["w"] == pytest.approx((x1 - x0) * scale, abs=1.5)
    assert cell["h"] == pytest.approx((y1 - y0) * scale, abs=1.5)
    # on the block's row (a ruled cell may reach past the text the block's bbox spans)
    assert block["x"] < cell["x"] < block["x"] + block["w"]
    assert block["y"] < cell["y"] + cell["h"] / 2 < block["y"] + block["h"]
    # crimson inside the cell; the rest of the block's row stays yellow, not crimson
    board = rect(page, "#evidence-board")
    pixmap = pymupdf.Pixmap(str(shot))
    assert share(pixels(pixmap, cell, board, inset=4), cell_coloured) > 0.5
    left_of_cell = {**cell, "x": block["x"] + 4, "w": min(cell["x"] - block["x"] - 8, 40)}
    beside = pixels(pixmap, left_of_cell, board, inset=2)
    assert share(beside, cell_coloured) < 0.05 and share(beside, highlighted) > 0.5
    # the in-browser viewer draws the same cell box on the PDF itself
    page.click("#ev-read")
    page.wait_for_selector("#viewer-cell[data-placed='1']")
    viewer_shot = screenshot_dir(tmp_path) / "pdf-viewer-cell.png"
    page.locator("#viewer").screenshot(path=str(viewer_shot))  # scrolls the viewer into view
    canvas, drawn = content(page, "#viewer-canvas"), rect(page, "#viewer-cell")
    scale = canvas["w"] / PAGE_WIDTH
    assert drawn["x"] == pytest.approx(canvas["x"] + x0 * scale, abs=1.5)
    assert drawn["y"] == pytest.approx(canvas["y"] + y0 * scale, abs=1.5)
    assert drawn["w"] == pytest.approx((x1 - x0) * scale, abs=1.5)
    viewer = rect(page, "#viewer")
    inside = pixels(pymupdf.Pixmap(str(viewer_shot)), drawn, viewer, inset=4)
    assert share(inside, cell_coloured) > 0.5


def test_a_sentence_reading_two_cells_boxes_both(page: Any, served: Server) -> None:
    """A computed sentence's operands each carry a cell box: both are drawn, and a
    citation without cells afterwards leaves none behind."""
    with served.client() as http:
        doc = next(d for d in http.get("/documents").json() if d["title"] == STRUCTURED_TITLE)
        table = http.get(f"/documents/{doc['id']}/tables/Table 2").json()
    pdf = served.library.parent / "structured.pdf"
    boxes = [cell_box(pdf, table["page"], table["bbox"], v) for v in ("4.20", CELL_VALUE)]
    open_view(page, served, "ask")
    show = "([id, cells]) => showEvidence(id, 'two cells', null, cells)"
    page.evaluate(show, [table["block"], boxes])
    placed = f"#ev-page .highlight-box.cell[data-placed='{table['block']}']"
    page.wait_for_function("s => document.querySelectorAll(s).length === 2", arg=placed)
    image = content(page, "#ev-image")
    scale = image["w"] / PAGE_WIDTH
    drawn = page.eval_on_selector_all(
        placed, "bs => bs.map(b => { const r = b.getBoundingClientRect(); return r.x; })"
    )
    assert sorted(drawn) == pytest.approx([image["x"] + b[0] * scale for b in boxes], abs=1.5)
    page.evaluate(show, [table["block"], []])
    page.wait_for_selector(f"#ev-box[data-placed='{table['block']}']")
    assert page.locator("#ev-page .highlight-box.cell:visible").count() == 0
