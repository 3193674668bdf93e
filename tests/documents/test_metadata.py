"""Metadata from page-1 blocks: the title as printed, minus what a lost logo leaves behind."""

from __future__ import annotations

from citewise.documents.metadata import extract_metadata
from citewise.documents.model import Block


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
