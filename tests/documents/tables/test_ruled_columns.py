"""The line finder is asked about a captioned table only when its drawings can bound two
columns: three vertical edges apart. A frame of two sides cannot, a grid can."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citewise.documents.tables.ruled import columns_possible, page_rules


def _page(tmp_path: Path, verticals: list[float], slanted: bool = False) -> pymupdf.Page:
    doc = pymupdf.open()
    page = doc.new_page()
    for y in (100.0, 120.0, 140.0, 160.0):  # rules across the table
        page.draw_line((80, y), (500, y))
    for x in verticals:
        page.draw_line((x, 100), (x, 160))
    if slanted:  # a line neither upright nor level, across the whole region
        page.draw_line((40, 130), (560, 131))
    path = tmp_path / "rules.pdf"
    doc.save(path)
    return pymupdf.open(path)[0]


def test_a_frame_of_two_sides_cannot_bound_two_columns(tmp_path: Path) -> None:
    drawn = page_rules(_page(tmp_path, [80.0, 80.0004, 500.0]))
    assert len(drawn.rules) == 7
    assert not columns_possible(drawn, 78.0, 502.0)


def test_a_grid_of_three_verticals_can(tmp_path: Path) -> None:
    drawn = page_rules(_page(tmp_path, [80.0, 290.0, 500.0]))
    assert columns_possible(drawn, 78.0, 502.0)
    assert not columns_possible(drawn, 200.0, 502.0)  # only two of them in this region


def test_a_slanted_line_cut_at_the_region_side_counts_as_an_edge_there(tmp_path: Path) -> None:
    """The finder keeps a line within 3 pt of level as an edge, cut at the region's
    sides: one that is not exactly level stands as a vertical edge where it is cut."""
    drawn = page_rules(_page(tmp_path, [290.0, 500.0], slanted=True))
    assert drawn.slants == [(40.0, 560.0)]
    assert columns_possible(drawn, 85.0, 502.0)  # 85 (the cut line), 290, 500
    assert not columns_possible(page_rules(_page(tmp_path, [290.0, 500.0])), 85.0, 502.0)
