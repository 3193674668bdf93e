"""PDFs with tables the number tests write themselves: a results paper (a two-level header
table, then two corpus tables on different pages) and a small annual report (financial
statements "in millions" with parenthesized negatives, on two pages)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

LEFT = 72.0

RESULTS_GROUPS = [("Model", 0), ("SciFact", 1), ("NFCorpus", 3)]
RESULTS_SUB = ["nDCG@10", "Recall@100", "nDCG@10", "Recall@100"]
RESULTS_ROWS = [
    ("BM25", "66.5", "90.8", "32.5", "25.0"),
    ("Dense retriever", "64.3", "89.1", "31.9", "24.2"),
    ("BM25 + rerank", "73.2", "93.5", "35.7", "27.9"),
    ("Hybrid fusion", "70.1", "94.0", "34.8", "28.3"),
]
# Table 2 on page 1, Table 3 on page 2: each states one corpus's size.
CORPUS_A = [("Corpus", "Documents", "Queries"), ("Quarry Abstracts", "5,183", "300")]
CORPUS_B = [("Corpus", "Documents", "Queries"), ("Marble Notes", "3,633", "323")]

CASH_FLOW = [
    ("(Millions)", "2018", "2017"),
    ("Net income", "5,363", "4,869"),
    ("Depreciation and amortization", "1,488", "1,544"),
    ("Net cash provided by operating activities", "6,439", "6,240"),
    ("Purchases of property, plant and equipment", "(1,577)", "(1,373)"),
    ("Dividends paid to shareholders", "(3,193)", "(2,803)"),
    ("Net cash used in investing activities", "(2,210)", "(3,086)"),
]
INCOME = [
    ("(Millions)", "2018", "2017"),
    ("Net sales", "32,765", "31,657"),
    ("Cost of sales", "16,682", "16,055"),
    ("Operating income", "7,207", "6,940"),
    ("Net income", "5,363", "4,869"),
]


def _heading(page: pymupdf.Page, y: float, text: str) -> float:
    page.insert_text((LEFT, y), text, fontsize=12, fontname="hebo")
    return y + 20


def _para(page: pymupdf.Page, y: float, text: str) -> float:
    rect = pymupdf.Rect(LEFT, y, 523, y + 120)
    spare = page.insert_textbox(rect, text, fontsize=10, fontname="helv")
    return y + 120 - spare + 12


def _table(
    page: pymupdf.Page, y: float, caption: str, rows: list[tuple[str, ...]], xs: list[float]
) -> float:
    page.insert_text((LEFT, y), caption, fontsize=9)
    y += 18
    for row in rows:
        for x, text in zip(xs, row, strict=True):
            page.insert_text((x, y), text, fontsize=9)
        y += 12
    return y + 16


def write_results_paper(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((LEFT, 80), "Reranking Quarry Literature", fontsize=18, fontname="hebo")
    y = _heading(page, 120, "4 Results")
    y = _para(page, y, "Table 1 compares the retrievers on both benchmarks.")
    page.insert_text((LEFT, y), "Table 1: Retrieval results on SciFact and NFCorpus.", fontsize=9)
    y += 18
    xs = [LEFT, 190, 250, 320, 380]
    for text, col in RESULTS_GROUPS:
        page.insert_text((xs[col] + (35 if col else 0), y), text, fontsize=9)
    y += 12
    for k, text in enumerate(RESULTS_SUB, start=1):
        page.insert_text((xs[k], y), text, fontsize=9)
    y += 16
    for row in RESULTS_ROWS:
        for x, text in zip(xs, row, strict=True):
            page.insert_text((x, y), text, fontsize=9)
        y += 12
    y = _heading(page, y + 24, "5 Corpora")
    y = _para(page, y, "The first corpus is described in Table 2; the second one follows.")
    _table(page, y, "Table 2: The Quarry Abstracts corpus.", CORPUS_A, [LEFT, 220, 320])
    page = doc.new_page(width=595, height=842)
    y = _para(page, 80, "The second corpus, smaller but with more queries, is in Table 3.")
    _table(page, y, "Table 3: The Marble Notes corpus.", CORPUS_B, [LEFT, 220, 320])
    doc.save(path)
    doc.close()
    return path


def write_annual_report(path: Path, with_income: bool = True) -> Path:
    """Granite Corp's 10-K: the cash flow statement on page 1, the income statement on
    page 2 (left out when `with_income` is False, so revenue cannot be found)."""
    doc = pymupdf.open()
    xs = [LEFT, 360, 440]
    page = doc.new_page(width=595, height=842)
    page.insert_text((LEFT, 70), "GRANITE CORP ANNUAL REPORT 2018", fontsize=14, fontname="hebo")
    y = _heading(page, 110, "Granite Corp Consolidated Statement of Cash Flows")
    page.insert_text((LEFT, y), "Years ended December 31", fontsize=9)
    _table(page, y + 14, "", CASH_FLOW, xs)
    page = doc.new_page(width=595, height=842)
    if with_income:
        y = _heading(page, 80, "Granite Corp Consolidated Statement of Income")
        page.insert_text((LEFT, y), "Years ended December 31", fontsize=9)
        _table(page, y + 14, "", INCOME, xs)
    else:
        _para(page, 80, "Management discusses the risks the business faces in this section.")
    doc.save(path)
    doc.close()
    return path
