"""Writes the example library in examples/papers/ (already committed; rerun to regenerate).

The two short "papers" are fictional and written for this example: one single-column,
one two-column with a table, so the quickstart shows page-level citations on both layouts.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

HERE = Path(__file__).resolve().parent / "papers"

GRANITE = {
    "title": "Granite Sorting with Acoustic Probes",
    "authors": "Ada Quarry and Ben Stone",
    "sections": [
        (
            "Abstract",
            "Quarries lose money when mixed granite reaches the crusher. We present "
            "acoustic probes that classify each block before it is cut, and report a field trial "
            "at one quarry.",
        ),
        (
            "1 Introduction",
            "Sorting granite by eye is slow and error-prone. Mixed loads damage "
            "crushers and lower the price of the product. Acoustic testing is cheap, fast and "
            "needs no sample preparation.",
        ),
        (
            "2 Method",
            "The probe taps each block forty times and records the echo with a "
            "contact microphone. A gradient boosted classifier labels the block from the echo "
            "spectrum. Training used 1,284 labelled blocks collected at the Bergen quarry over "
            "six months.",
        ),
        (
            "3 Results",
            "The classifier reached an accuracy of 93.4% on the held-out test set "
            "of 312 blocks. Sorting with the probes reduced crusher downtime by 41 hours per "
            "month.",
        ),
        (
            "4 Limitations",
            "Wet blocks dampen the echo, so accuracy drops to 78.0% after heavy "
            "rain. The trial covered a single quarry and a single granite type.",
        ),
    ],
}

BIRDS = {
    "title": "Low-Power Bird Song Detection on Field Recorders",
    "authors": "Carla Wren and Dev Finch",
    "left": [
        (
            "Abstract",
            "Autonomous recorders fill their memory cards with silence. We detect "
            "bird song on the device itself and store only the minutes that contain it.",
        ),
        (
            "1 Introduction",
            "Acoustic monitoring of birds needs months of recordings from "
            "remote sites. Batteries and memory cards limit how long a recorder can stay in "
            "the field. On-device detection keeps only useful audio.",
        ),
        (
            "2 Detector",
            "The detector is a four-layer convolutional network on mel "
            "spectrograms of one-second windows. It runs on a Cortex-M4 microcontroller at "
            "80 MHz and draws 11 mW while listening.",
        ),
    ],
    "right": [
        (
            "3 Evaluation",
            "We recorded 420 hours at three forest sites. The detector found "
            "96.1% of the song segments marked by two ornithologists. Battery life grew from "
            "9 to 31 days because the recorder stores 71% less audio.",
        ),
        ("Table 1: Detection recall per site.", None),
        (
            "4 Discussion",
            "Rain and wind cause most false detections. A second stage that "
            "checks the frequency band of the song could remove them.",
        ),
    ],
    "table": [
        ("Site", "Hours", "Recall"),
        ("Birch hill", "150", "97.0%"),
        ("Fern valley", "140", "95.8%"),
        ("Pine ridge", "130", "95.4%"),
    ],
}


def _write_section(
    page: pymupdf.Page, x0: float, x1: float, y: float, heading: str, body: str | None
) -> float:
    page.insert_text(
        (x0, y), heading, fontsize=11 if body else 9, fontname="hebo" if body else "helv"
    )
    y += 14
    if body:
        rect = pymupdf.Rect(x0, y, x1, y + 300)
        spare = page.insert_textbox(rect, body, fontsize=9.5, fontname="helv")
        y += 300 - spare + 12
    return y


def write_granite(path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), GRANITE["title"], fontsize=17, fontname="hebo")
    page.insert_text((72, 102), GRANITE["authors"], fontsize=11, fontname="helv")
    y = 140.0
    for heading, body in GRANITE["sections"]:
        y = _write_section(page, 72, 523, y, heading, body)
    doc.set_metadata({"title": GRANITE["title"], "author": GRANITE["authors"]})
    doc.save(path)


def write_birds(path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((60, 80), BIRDS["title"], fontsize=16, fontname="hebo")
    page.insert_text((60, 100), BIRDS["authors"], fontsize=11, fontname="helv")
    y = 135.0
    for heading, body in BIRDS["left"]:
        y = _write_section(page, 60, 287, y, heading, body)
    y = 135.0
    for heading, body in BIRDS["right"]:
        y = _write_section(page, 308, 535, y, heading, body)
        if body is None:  # the table under its caption, one row per line
            for row in BIRDS["table"]:
                for col, cell in enumerate(row):
                    page.insert_text((308 + col * 80, y), cell, fontsize=9, fontname="helv")
                y += 13
            y += 12
    doc.set_metadata({"title": BIRDS["title"], "author": BIRDS["authors"]})
    doc.save(path)


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    write_granite(HERE / "granite-sorting.pdf")
    write_birds(HERE / "bird-song-detection.pdf")
    print(f"wrote {sorted(p.name for p in HERE.glob('*.pdf'))}")
