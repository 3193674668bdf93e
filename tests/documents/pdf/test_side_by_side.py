"""Cells side by side on a PDF page (documents/tables/fusion._side_by_side): units sharing a line
in the same column are cells; the sweep gives the same answer on a large table as the
pairwise reading it replaced, which looked at every later unit for each one."""

from __future__ import annotations

from citewise.documents.pdf import columns
from citewise.documents.pdf.segments import Row, Seg, Unit
from citewise.documents.tables.fusion import _side_by_side


def _unit(x0: float, y0: float, text: str, col: str = "F", height: float = 10.0) -> Unit:
    seg = Seg(x0, y0, x0 + 40, y0 + height, text, 9.0, "Helvetica", False, 0,
              (x0, y0, x0 + 40, y0 + height))  # fmt: skip
    return Unit([Row([seg])], col=col)


def _pairwise(units: list[Unit]) -> set[int]:
    """The reading the sweep replaced: every pair of small units, checked directly."""
    small = [(i, u.bbox) for i, u in enumerate(units) if columns.is_cell_like(u)]
    out: set[int] = set()
    for a, (ax0, ay0, ax1, ay1) in small:
        for b, (bx0, by0, bx1, by1) in small:
            if a == b or units[a].col != units[b].col:
                continue
            overlap = min(ay1, by1) - max(ay0, by0)
            if overlap > 2 and (bx0 > ax1 or ax0 > bx1):
                out.update((a, b))
    return out


def test_cells_on_one_line_are_found_and_a_lone_line_is_not() -> None:
    units = [_unit(72, 100, "Revenue"), _unit(200, 100, "5,200"), _unit(72, 130, "A sentence")]
    assert _side_by_side(units) == {0, 1}


def test_cells_in_other_columns_of_the_page_are_not_paired() -> None:
    units = [_unit(72, 100, "Left", col="L"), _unit(320, 100, "Right", col="R")]
    assert _side_by_side(units) == set()


def test_a_large_table_gives_what_every_pair_gives() -> None:
    units = [_unit(72 + 60 * k, 100 + 12 * r, f"{r}.{k}") for r in range(120) for k in range(8)]
    units += [_unit(600, 100, "note", height=1400)]  # one tall unit beside every line
    units += [_unit(72, 2000, "Closing line")]  # alone on its line
    found = _side_by_side(units)
    assert found == _pairwise(units)
    assert len(units) - 1 not in found  # the closing line
    assert len(found) == 120 * 8 + 1  # every cell, and the tall note beside them
