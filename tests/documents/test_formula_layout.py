"""A display formula that PyMuPDF returns as separate lines (limits, a fraction, the
number, each classified on its own) is gathered into one equation and read left to right:
operator, lower limit, upper limit; numerator, denominator; a matrix row by row."""

from __future__ import annotations

import re

import pytest

from citewise.documents.math.equations import EQ_NUMBER, attach_numbers
from citewise.documents.math.formula_layout import gather_formulas, linear_text, map_delimiters
from citewise.documents.pdf import glyphs
from citewise.documents.pdf.glyphs import symbol_for
from citewise.documents.pdf.layout import Row, Seg, Unit
from tests.documents.equation_bench import PAPER, score

NUMBER = re.compile(r"^\(\d+\)$")


def seg(x0: float, y0: float, text: str, size: float = 10.0, font: str = "CMMI10") -> Seg:
    width = 0.5 * size * len(text)
    return Seg(x0, y0, x0 + width, y0 + size, text, size, font, False, 0)


def unit(kind: str, *segs: Seg, label: str | None = None) -> Unit:
    return Unit([Row([s]) for s in segs], col="F", kind=kind, label=label)


def test_the_fragments_of_a_numbered_formula_join_it() -> None:
    prose = unit(
        "paragraph", seg(72, 150, "the weighted inputs of every unit are summed as", font="CMR10")
    )
    upper = unit("paragraph", seg(178, 182, "n", 7))
    main = unit("paragraph", seg(150, 190, "y = ∑"), seg(190, 190, "w +"))
    lower = unit("table", seg(173, 201, "i=1", 7))
    fraction = unit("equation", seg(212, 184, "a", 9), seg(212, 197, "b", 9))
    number = unit("paragraph", seg(500, 190, "(1)"))
    after = unit("paragraph", seg(72, 230, "where the bias term is added before", font="CMR10"))
    # as the PDF reader runs them: the number joins the formula, then the fragments
    out = gather_formulas(
        attach_numbers([prose, upper, main, lower, fraction, number, after]), 11.0
    )
    assert [u.kind for u in out] == ["paragraph", "equation", "paragraph"]
    formula = out[1]
    assert formula.label == "Eq. (1)"
    assert linear_text(formula.rows, EQ_NUMBER) == "y = ∑ i=1 n w + a b"


def test_a_sentence_beside_a_formula_stays_a_paragraph() -> None:
    formula = unit("equation", seg(150, 190, "x = a + b"), seg(500, 190, "(2)"), label="Eq. (2)")
    words = unit("paragraph", seg(150, 201, "for every input we use = here", font="CMR10"))
    out = gather_formulas([formula, words], 11.0)
    assert [u.kind for u in out] == ["equation", "paragraph"]


def test_a_matrix_reads_row_by_row() -> None:
    cells = [
        seg(x, y, text)
        for y, row in ((100, ("a11", "a12")), (112, ("a21", "a22")), (124, ("a31", "a32")))
        for x, text in zip((200, 240), row, strict=True)
    ]
    rows = [Row([seg(150, 112, "A =")]), *(Row([c]) for c in cells)]
    assert linear_text(rows, NUMBER) == "A = a11 a12 a21 a22 a31 a32"


@pytest.mark.parametrize(
    ("pieces", "expected"),
    [("\uf8ee x \uf8ef \uf8f0", "[ x"), ("\uf8eb a \uf8f6 \uf8f8", "( a )"), ("\ue001b", "b")],
)
def test_tall_delimiter_pieces_read_as_the_delimiter(pieces: str, expected: str) -> None:
    assert " ".join(map_delimiters(pieces).split()) == expected


@pytest.mark.skipif(not PAPER.is_file(), reason="corpus absent")
def test_the_papers_numbered_equations_read_their_symbols_in_order() -> None:
    """Against the hand transcription (tests/documents/data/mullen_equations.yaml): 11 of
    31 before the fragments were gathered and TeX's unmapped glyphs named, 28 now (the
    issue's floor is 90%)."""
    results = score()
    assert len(results) == 31
    assert sum(results.values()) >= 28, [n for n, ok in results.items() if not ok]


def test_tex_extension_glyphs_are_named_from_the_embedded_font() -> None:
    assert symbol_for("summationdisplay") == "∑" and symbol_for("radicalBig") == "√"
    assert symbol_for("parenleftbigg") == "(" and symbol_for("bracketrightBigg") == "]"
    # a tall delimiter: opening read at its top piece, closing at its bottom piece
    assert symbol_for("parenlefttp") == "(" and symbol_for("parenleftbt") == ""
    assert symbol_for("parenrighttp") == "" and symbol_for("parenrightbt") == ")"
    assert symbol_for("bracketleftex") == "" and symbol_for("radicalvertex") == ""
    assert symbol_for("summationtext") == "∑" and symbol_for("notaglyphname") is None


def _eexec(plain: bytes, key: int = 55665) -> bytes:
    """Type 1 eexec encryption (the spec's byte loop), to feed the reader's decryption."""
    out = bytearray()
    for byte in plain:
        cipher = byte ^ (key >> 8)
        out.append(cipher)
        key = ((cipher + key) * 52845 + 22719) & 0xFFFF
    return bytes(out)


def test_glyph_names_come_back_through_eexec_decryption_of_any_length() -> None:
    # past the decryptor's 64 KiB chunk: the key carries across chunk boundaries
    names = [f"glyph{i}" for i in range(9000)] + ["summationdisplay", ".notdef"]
    body = b"".join(b"/%s 3 RD abc ND\n" % n.encode() for n in names)
    private = b"/Private 8 dict dup begin end\n2 index /CharStrings 9002 dict dup begin\n"
    program = b"%!FontType1\n/FontName /CMEX10 def\ncurrentfile eexec\n"
    program += _eexec(b"\x01\x02\x03\x04" + private + body + b"end\n")
    assert len(program) > 2 * 65536
    found = glyphs.type1_glyph_names(program)
    assert found[0] == ".notdef" and found[-1] == "glyph0"  # .notdef swapped to the front
    assert sorted(found) == sorted(names) and "summationdisplay" in found
