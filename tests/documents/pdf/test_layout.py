"""Pure helpers of the PDF reader: hyphenation, headings, captions, running heads, order."""

from __future__ import annotations

import re

import pytest

from citewise.documents.pdf.captions import caption_label
from citewise.documents.pdf.columns import order_units
from citewise.documents.pdf.headings import heading_candidate, heading_level
from citewise.documents.pdf.hyphenation import clean, join_hyphenated, join_rows, vocabulary
from citewise.documents.pdf.layout import Seg, Unit, group_rows, running_heads
from citewise.documents.tables.fusion import table_rows


def seg(x0: float, y0: float, text: str, size: float = 10.0, width: float | None = None) -> Seg:
    x1 = x0 + (width if width is not None else 5.0 * len(text))
    return Seg(x0, y0, x1, y0 + size, text, size, "Helvetica", False, 0, (x0, y0, x1, y0 + size))


@pytest.mark.parametrize(
    ("left", "right", "joined"),
    [
        ("an implemen-", "tation detail", "an implementation detail"),
        ("the Cita-", "tion graph", "the Citation graph"),
        ("is state-of-the-", "art today", "is state-of-the-art today"),
        ("the S2ORC-", "SciBERT model", "the S2ORC-SciBERT model"),
        ("an F1-", "score of 0.89", "an F1-score of 0.89"),
        ("pages 12-", "15 of the book", "pages 12-15 of the book"),
        ("a dash -", "then more", "a dash - then more"),
        ("no hyphen", "here", "no hyphen here"),
        ("soft\u00ad", "hyphen", "softhyphen"),
    ],
)
def test_join_hyphenated(left: str, right: str, joined: str) -> None:
    assert join_hyphenated(left, right) == joined


def test_document_vocabulary_decides_ambiguous_hyphens() -> None:
    vocab = vocabulary(["we ran MrBayes twice", "a self-attention layer"])
    assert join_hyphenated("and Mr-", "Bayes for trees", vocab) == "and MrBayes for trees"
    assert join_hyphenated("a self-", "attention map", vocab) == "a self-attention map"
    # without the document's word, a known compound part keeps its hyphen
    assert join_hyphenated("a self-", "attention map") == "a self-attention map"
    assert join_hyphenated("the gran-", "ite block") == "the granite block"


def test_join_rows_normalizes_and_skips_blank_lines() -> None:
    assert join_rows(["  first   line ", "", "second-", "ary line"]) == "first line secondary line"


def test_clean_folds_spacing_accents_and_whitespace() -> None:
    assert clean("Saier  and F¨arber\t(2019)") == "Saier and Färber (2019)"


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Table 2: Post-processing filters", "Table 2"),
        ("Fig. 3. Echo spectra", "Figure 3"),
        ("FIGURE 1 Overview", "Figure 1"),
        ("Table IV Results", "Table IV"),
        ("Supplementary Table 1: Extra", "Supplementary Table 1"),
        ("Tables are useful", None),
        ("The Table 2 shows", None),
    ],
)
def test_caption_label(text: str, label: str | None) -> None:
    assert caption_label(text) == label


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("1 Introduction", 1),
        ("2.1 Data", 2),
        ("3.2.1. Details", 3),
        ("A.1 Proofs", 2),
        ("B. Extra results", 1),
        ("IV. Discussion", 1),
        ("Introduction", None),
        ("2019 was dry", 1),
    ],
)
def test_heading_level_from_numbering(text: str, level: int | None) -> None:
    assert heading_level(text) == level


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("1 Introduction", True),
        ("Acknowledgments", True),
        ("Abstract.", True),
        ("This is a sentence.", False),
        ("and continues here,", False),
        ("ΘΨ2", False),
        (
            "Results: the probes win and the baseline loses on all twenty of the fifty-two"
            " block types we tested in the quarry",
            False,
        ),
    ],
)
def test_heading_candidate(text: str, ok: bool) -> None:
    assert heading_candidate(text) is ok


def test_running_heads_repeat_in_margins_and_page_numbers_always_go() -> None:
    pages = []
    for n in range(1, 5):
        pages.append(
            [
                seg(72, 30, f"Journal of Rock Acoustics {n + 10} (2024)"),
                seg(72, 300, f"Body text on page {n} that does not repeat {n * 7}."),
                seg(72, 300 + 12, "Repeated body line that is not in a margin"),
                seg(290, 800, str(n)),
            ]
        )
    drops = running_heads(pages, [842.0] * 4)
    assert drops == [{0, 3}] * 4


def test_single_page_keeps_its_header_but_drops_a_page_number() -> None:
    page = [seg(72, 30, "Proceedings of Something 2024"), seg(290, 800, "Page 7 of 9")]
    assert running_heads([page], [842.0]) == [{1}]


def test_rows_group_segments_sharing_a_baseline() -> None:
    rows = group_rows([seg(200, 100, "right"), seg(72, 101, "left"), seg(72, 120, "next")])
    assert [r.text for r in rows] == ["left right", "next"]


def test_reading_order_bands_then_left_then_right_column() -> None:
    def unit(x0: float, y0: float, col: str, text: str) -> Unit:
        return Unit(group_rows([seg(x0, y0, text, width=200 if col != "F" else 450)]), col=col)

    units = [
        unit(310, 200, "R", "right top"),
        unit(72, 100, "F", "title"),
        unit(72, 400, "L", "left bottom"),
        unit(72, 200, "L", "left top"),
        unit(72, 600, "F", "wide figure"),
        unit(310, 650, "R", "right after figure"),
        unit(72, 650, "L", "left after figure"),
    ]
    assert [u.text for u in order_units(units)] == [
        "title",
        "left top",
        "left bottom",
        "right top",
        "wide figure",
        "left after figure",
        "right after figure",
    ]


def test_table_rows_join_wrapped_cells_but_not_sub_headers() -> None:
    numeric = re.compile(r"^[\d.]+$")
    segs = [
        seg(40, 100, "1", width=5),
        seg(80, 100, "Alignment assessment and", width=100),
        seg(200, 100, "FASTA", width=30),
        seg(80, 110, "phylogeny reconstruction", width=95),
        seg(40, 130, "2", width=5),
        seg(80, 130, "Homology", width=40),
        seg(200, 130, "BLAST", width=30),
    ]
    assert table_rows(segs, numeric) == [
        ["1", "Alignment assessment and phylogeny reconstruction", "FASTA"],
        ["2", "Homology", "BLAST"],
    ]
    header = [
        seg(40, 60, "Approach", width=40),
        seg(120, 60, "CS", width=12),
        seg(100, 72, "prec.", width=20),
        seg(130, 72, "yield", width=20),
        seg(40, 90, "Hybrid", width=30),
        seg(100, 90, "91.5", width=18),
        seg(130, 90, "1990", width=18),
    ]
    assert table_rows(header, numeric)[:2] == [["Approach", "CS"], ["prec.", "yield"]]
