"""Only line-break hyphenation goes; real compounds keep their hyphen."""

from __future__ import annotations

from functools import cache

import pytest

from citewise.documents.model import Document
from citewise.documents.pdf.hyphenation import join_hyphenated, vocabulary
from citewise.documents.pdf.reader import read_pdf
from tests.documents.conftest import CORPUS


def test_syllable_breaks_join_and_compounds_keep_their_hyphen() -> None:
    vocab = vocabulary(["we detected errors automatically", "a linear model", "hyphen"])
    assert join_hyphenated("of hyphen-", "ation rules", vocab) == "of hyphenation rules"
    assert join_hyphenated("our implemen-", "tation", vocab) == "our implementation"
    assert join_hyphenated("automatically-", "detected spans", vocab) == (
        "automatically-detected spans"
    )
    assert join_hyphenated("the state-of-the-", "art model", vocab) == "the state-of-the-art model"
    assert join_hyphenated("a non-", "linear map", vocab) == "a non-linear map"
    assert join_hyphenated("rule-", "based", vocab) == "rule-based"


def test_the_rest_of_a_broken_word_is_not_a_word_of_the_document() -> None:
    vocab = vocabulary(["they were over-", "whelmed by it", "feed and back"])
    assert "whelmed" not in vocab and "by" in vocab
    assert join_hyphenated("were over-", "whelmed", vocab) == "were overwhelmed"


@cache
def _text(name: str) -> str:
    doc: Document = read_pdf(CORPUS / name)
    return " ".join(b.text for b in doc.blocks)


# compounds the papers set across a line break, and words TeX broke into syllables
KEPT = {
    "2020.acl-main.447.pdf": [
        "automatically-detected", "publicly-available", "aggressively-cleaned",
        "GROBID-parsed", "span-level", "multi-modal", "machine-readable",
    ],
    "N18-3011.pdf": ["non-linearity", "fine-grained", "citation-based"],
    "MullenJSSv18i03.pdf": ["cross-platform", "per-dataset"],
}  # fmt: skip
JOINED = {
    "2020.acl-main.447.pdf": ["corpus", "corresponding", "bibliography", "structured"],
    "N18-3011.pdf": ["literature", "extraction"],
}


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")
@pytest.mark.parametrize("name", sorted(KEPT))
def test_corpus_compounds_keep_their_hyphen(name: str) -> None:
    text = _text(name)
    missing = [w for w in KEPT[name] if w not in text]
    assert missing == [], missing
    broken = [w for w in JOINED.get(name, []) if w not in text]
    assert broken == [], broken
    glued = [w for w in KEPT[name] if w.replace("-", "") in text]
    assert glued == [], glued
