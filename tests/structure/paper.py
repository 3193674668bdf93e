"""A structured paper the structure tests write themselves: numbered sections, a grouped
header table, a ruled table with a merged cell, a text-only table, a numbered equation,
author-year citations and a bibliography with a DOI and an arXiv ID."""

from __future__ import annotations

from pathlib import Path

import pymupdf

TITLE = "Echo Profiles of Quarry Stone"
LEFT = 72.0
BODY = 10.0
LEAD = 13.0

INTRO = [
    "Acoustic sorting of stone goes back to tapping tests in early quarries. Probes that",
    "listen to echoes were introduced by Stone and Quarry (2021), and the first large",
    "field trial was reported soon after (Miller, 2019; Olsen et al., 2022).",
]
METHOD = [
    "Each block is tapped forty times and the echo energy is summed over the spectrum.",
    "The energy of a tap follows the usual relation between mass and echo speed.",
]
RESULTS = [
    "Table 1 lists precision and yield for both stone types and both probe designs.",
    "The ruled summary in Table 2 gives the cost per block at the two quarries.",
]
GROUPED = [  # Table 1: a two-level header over four numeric columns
    ("Probe", 0),
    ("Granite", 1),
    ("Marble", 3),
]
SUB = ["prec.", "yield", "prec.", "yield"]
BODY_ROWS = [
    ("Contact", "91.5", "712", "88.2", "640"),
    ("Laser", "94.4", "928", "90.1", "833"),
]
STONES = [  # Table 3: text only, small print
    ("Stone", "Origin", "Use"),
    ("Granite", "Bergen quarry", "Kerbs and steps"),
    ("Marble", "Carrara hills", "Floors and statues"),
    ("Basalt", "Antrim coast", "Road gravel"),
]
REFERENCES = [
    "Miller, C. 2019. Saw blades and hidden cracks. Quarry Engineering 4:33-41.",
    "Olsen, D., Berg, A., and Lund, K. 2022. Spectral features for stone. arXiv:2201.01234.",
    "Stone, B. and Quarry, A. 2021. Echoes in hard rock. Journal of Rock Acoustics 9:1-12. "
    "doi:10.5555/rock.2021.9",
]


def _lines(page: pymupdf.Page, x: float, y: float, lines: list[str], size: float = BODY) -> float:
    for line in lines:
        page.insert_text((x, y), line, fontsize=size, fontname="helv")
        y += LEAD * size / BODY
    return y


def _heading(page: pymupdf.Page, y: float, text: str, size: float = 12) -> float:
    page.insert_text((LEFT, y), text, fontsize=size, fontname="hebo")
    return y + 20


def write_structured_paper(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((LEFT, 80), TITLE, fontsize=20, fontname="hebo")
    page.insert_text((LEFT, 104), "Ada Quarry and Ben Stone", fontsize=11, fontname="helv")
    y = _heading(page, 140, "1 Introduction")
    y = _lines(page, LEFT, y, INTRO) + 12
    y = _heading(page, y, "2 Method")
    y = _heading(page, y, "2.1 Tapping", size=11)
    y = _lines(page, LEFT, y, METHOD) + 14
    # display equation: symbols in a math font, the number alone at the right margin
    page.insert_text((230, y), "E", fontsize=BODY, fontname="helv")
    page.insert_text((242, y), "= a m u", fontsize=BODY, fontname="symb")
    page.insert_text((282, y), "2", fontsize=7, fontname="helv")
    page.insert_text((505, y), "(1)", fontsize=BODY, fontname="helv")
    y += 30
    y = _heading(page, y, "3 Results")
    y = _lines(page, LEFT, y, RESULTS) + 14
    page.insert_text((LEFT, y), "Table 1: Precision and yield by stone.", fontsize=9)
    y += 18
    xs = [LEFT, 160, 210, 270, 320]
    page.draw_line((LEFT, y - 10), (360, y - 10))
    for text, col in GROUPED:
        x = xs[col] + (20 if col else 0)
        page.insert_text((x, y), text, fontsize=9)
    y += 12
    for k, text in enumerate(SUB, start=1):
        page.insert_text((xs[k], y), text, fontsize=9)
    page.draw_line((LEFT, y + 4), (360, y + 4))
    y += 16
    for row in BODY_ROWS:
        for x, text in zip(xs, row, strict=True):
            page.insert_text((x, y), text, fontsize=9)
        y += 12
    page.draw_line((LEFT, y - 6), (360, y - 6))
    y += 20
    # Table 2: every cell ruled; "Item" spans two rows, "Cost per block" two columns
    page.insert_text((LEFT, y), "Table 2: Cost per block, ruled.", fontsize=9)
    top = y + 8
    cols = [LEFT, 200, 280, 360]
    rows = [top, top + 16, top + 32, top + 48, top + 64]
    for ry in rows:
        page.draw_line((cols[1] if ry == rows[1] else cols[0], ry), (cols[-1], ry))
    for cx in cols:
        page.draw_line((cx, rows[1] if cx == cols[2] else top), (cx, rows[-1]))
    cells = [
        (0, 0, "Item"),
        (0, 1, "Cost per block"),
        (1, 1, "Bergen"),
        (1, 2, "Carrara"),
        (2, 0, "Probe time"),
        (2, 1, "4.20"),
        (2, 2, "5.10"),
        (3, 0, "Saw wear"),
        (3, 1, "12.80"),
        (3, 2, "11.40"),
    ]
    for r, c, text in cells:
        page.insert_text((cols[c] + 4, rows[r] + 11), text, fontsize=9)

    page = doc.new_page(width=595, height=842)
    page.insert_text((LEFT, 80), "Table 3: Stone types and their uses.", fontsize=9)
    y = 98
    for row in STONES:
        for x, text in zip((LEFT, 170, 290), row, strict=True):
            page.insert_text((x, y), text, fontsize=8)
        y += 11
    y = _heading(page, y + 24, "4 Conclusion")
    y = _lines(page, LEFT, y, ["Echoes sort stone well, as Stone and Quarry (2021) expected."])
    y = _heading(page, y + 14, "References")
    for entry in REFERENCES:
        words = entry.split(" ")
        first = " ".join(words[:11])
        rest = " ".join(words[11:])
        page.insert_text((LEFT, y), first, fontsize=9)
        if rest:
            page.insert_text((LEFT + 10, y + 11), rest, fontsize=9)
        y += 26
    doc.set_metadata({"title": TITLE})
    doc.save(path)
    doc.close()
    return path
