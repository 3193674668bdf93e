"""Metadata from page-1 blocks: the title as printed, minus what a lost logo leaves behind."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citewise.documents.model import Block
from citewise.documents.pdf.metadata import extract_metadata
from citewise.documents.pdf.reader import read_pdf


def block(text: str, size: float = 10.0) -> Block:
    return Block(0, "paragraph", 1, (72.0, 72.0, 500.0, 90.0), text, font_size=size)


def test_a_title_whose_first_word_was_a_logo_loses_the_leading_colon() -> None:
    title = block(": Accelerating the Science of Language Models", 20.0)
    meta = extract_metadata([title, block("Body text of the paper.")], {}, "", title)
    assert meta.title == "Accelerating the Science of Language Models"


def test_an_ordinary_title_is_kept_as_printed() -> None:
    title = block("S2ORC: The Semantic Scholar Open Research Corpus", 20.0)
    meta = extract_metadata([title], {}, "", title)
    assert meta.title == "S2ORC: The Semantic Scholar Open Research Corpus"


def _paper_with_heads(path: Path, head: str, top: list[tuple[str, float]]) -> Path:
    """Three pages under one running head; page 1 opens with the lines `top` (text, size)."""
    doc = pymupdf.open()
    for number in range(1, 4):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 40), head, fontsize=8, fontname="helv")
        page.insert_text((290, 810), str(number), fontsize=9, fontname="helv")
        y = 90.0
        for text, size in top if number == 1 else []:
            page.insert_text((72, y), text, fontsize=size, fontname="helv")
            y += 2 * size
        for line in BODY:
            page.insert_text((72, y + 20), line, fontsize=10, fontname="helv")
            y += 13
    doc.save(path)
    return path


BODY = [
    "Granite blocks ring when struck by the probe and the echo is recorded with",
    "a contact microphone. Wet blocks dampen the echo after heavy rain, so the",
    "probe is used on dry days only at the Bergen quarry site in the spring.",
]


def test_the_title_line_a_running_head_names_beats_a_larger_banner(tmp_path: Path) -> None:
    top = [("PAPERS READ AT THE SPRING MEETING", 16.0), ("On the Rock Echoes of Bergen", 14.0)]
    doc = read_pdf(_paper_with_heads(tmp_path / "p.pdf", "ROCK ECHOES", top))
    assert doc.title == "On the Rock Echoes of Bergen"


def test_a_running_head_naming_a_journal_names_no_title(tmp_path: Path) -> None:
    top = [
        ("Journal of Rock Acoustics, Volume 12, Spring Issue", 12.0),
        ("Echoes in Granite", 18.0),
    ]
    doc = read_pdf(_paper_with_heads(tmp_path / "p.pdf", "Journal of Rock Acoustics", top))
    assert doc.title == "Echoes in Granite"


def _line(text: str, y: float, size: float) -> Block:
    return Block(0, "paragraph", 1, (72.0, y, 500.0, y + 0.7 * size), text, font_size=size)


def test_a_title_that_breaks_after_a_joining_word_takes_the_line_above() -> None:
    upper = _line("ON THE ROCK-ECHOES OF THE BERGEN QUARRY AND", 140.0, 14.0)
    title = _line("SOME LOUD TAPS AT NIGHT.", 160.0, 16.0)
    byline = _line("By A. QUARRY", 190.0, 11.0)
    meta = extract_metadata([upper, title, byline], {}, "", title)
    assert meta.title == "ON THE ROCK-ECHOES OF THE BERGEN QUARRY AND SOME LOUD TAPS AT NIGHT."


def test_a_title_that_ends_on_a_full_word_stands_alone() -> None:
    title = _line("Echoes in Granite", 140.0, 18.0)
    below = _line("Ada Quarry and Ben Stone", 165.0, 14.0)
    above = _line("Notes for the spring meeting of the", 80.0, 16.0)  # far above: a banner
    assert extract_metadata([above, title, below], {}, "", title).title == "Echoes in Granite"
