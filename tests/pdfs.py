"""PDFs the tests write themselves, so expectations are exact."""

from __future__ import annotations

from pathlib import Path

import pymupdf

# A short paper with facts the tests ask about; every sentence is ours.
PAPER_TITLE = "Granite Sorting with Acoustic Probes"
PAPER_SECTIONS = [
    (
        "1 Introduction",
        [
            "Quarries lose money when mixed granite reaches the crusher. We propose acoustic "
            "probes that classify each block before it is cut.",
        ],
    ),
    (
        "2 Method",
        [
            "The probe taps each block forty times and records the echo with a contact "
            "microphone. A gradient boosted classifier labels the block from the echo spectrum.",
            "Training used 1,284 labelled blocks collected at the Bergen quarry over six months.",
        ],
    ),
    (
        "3 Results",
        [
            "The classifier reached an accuracy of 93.4% on the held-out test set of 312 blocks. "
            "Sorting with the probes reduced crusher downtime by 41 hours per month.",
        ],
    ),
    (
        "4 Limitations",
        [
            "Wet blocks dampen the echo, so accuracy drops to 78.0% after heavy rain.",
        ],
    ),
]


def write_paper(
    path: Path, title: str = PAPER_TITLE, sections: list[tuple[str, list[str]]] | None = None
) -> Path:
    """A one-column PDF with a title, numbered bold headings and body paragraphs."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 72.0
    page.insert_text((72, y), title, fontsize=18, fontname="hebo")
    y += 20
    page.insert_text((72, y), "Ada Quarry and Ben Stone", fontsize=11, fontname="helv")
    y += 30
    for heading, paragraphs in sections or PAPER_SECTIONS:
        page.insert_text((72, y), heading, fontsize=12, fontname="hebo")
        y += 18
        for text in paragraphs:
            rect = pymupdf.Rect(72, y, 523, y + 200)
            spare = page.insert_textbox(rect, text, fontsize=10, fontname="helv")
            y += 200 - spare + 10
        y += 6
    doc.save(path)
    doc.close()
    return path
