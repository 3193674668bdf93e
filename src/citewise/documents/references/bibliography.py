"""Bibliography: units under a References heading, split into one block per entry."""

from __future__ import annotations

import re

from citewise.documents.pdf.headings import is_known_heading, is_reference_heading
from citewise.documents.pdf.layout import Unit

REF_NUMBER = re.compile(r"^(\[\d{1,3}\]|\d{1,3}\.)\s")


def mark_references(
    units: list[Unit], refs: tuple[float, float] | None
) -> tuple[list[Unit], tuple[float, float] | None]:
    """Units under a References heading become one 'reference' unit per entry.

    `refs` carries (heading size, entry size) across pages; None outside the list.
    """
    out: list[Unit] = []
    for unit in units:
        size = unit.style.size
        if unit.kind == "heading":
            # bold first authors in a bibliography are not sections; appendix titles are
            if refs is not None and size < refs[0] - 0.5 and not is_known_heading(unit.text):
                unit.kind = "paragraph"
            else:
                refs = (size, 0.0) if is_reference_heading(unit.text) else None
        if refs is None or unit.kind not in ("paragraph", "list", "footnote", "code"):
            out.append(unit)
            continue
        if unit.kind == "footnote" and refs[1] and size < refs[1] - 0.6:
            out.append(unit)  # a page footnote below the list
            continue
        refs = (refs[0], refs[1] or size)
        for entry in _entries(unit):
            prev = out[-1] if out else None
            first = entry.rows[0]
            # an entry's indented continuation often comes as a block of its own
            if (
                prev is not None
                and prev.kind == "reference"
                and prev.col == entry.col
                and (first.x0 > prev.rows[0].x0 + 2 or first.text[:1].islower())
                and -2 < first.y0 - prev.rows[-1].y1 < 0.8 * first.style.size
            ):
                prev.rows.extend(entry.rows)
                continue
            out.append(entry)
    return out, refs


def _entries(unit: Unit) -> list[Unit]:
    """Split a bibliography block into entries by numbering or hanging indent."""
    rows = unit.rows
    left = min(r.x0 for r in rows)
    flush = [r.x0 <= left + 1 for r in rows]
    # hanging indent: continuation lines (indented) outnumber entry starts (flush)
    hanging = 0 < sum(flush) <= len(rows) - sum(flush)
    out: list[Unit] = []
    for i, row in enumerate(rows):
        if i == 0 or REF_NUMBER.match(row.text) or (hanging and flush[i]):
            out.append(Unit([], col=unit.col, kind="reference"))
        out[-1].rows.append(row)
    return out
