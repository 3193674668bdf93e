"""Figure and table captions: spotting a caption, its label and the table it names."""

from __future__ import annotations

import re

from citewise.documents.pdf.layout import Seg, Unit

CAPTION = re.compile(
    r"^(Table|TABLE|Tab\.|Figure|FIGURE|Fig\.|FIG\.|Supplementary (?:Table|Figure))"
    r"\s*(S?\d+[a-z]?|[IVX]+)\b"
)


def caption_label(text: str) -> str | None:
    """'Fig. 3: ...' -> 'Figure 3'; 'Table 2 ...' -> 'Table 2'; None for other text."""
    m = CAPTION.match(text.strip())
    if not m:
        return None
    kind = m.group(1).lower()
    word = "Figure" if kind.startswith("fig") else "Table"
    if kind.startswith("supplementary"):
        word = "Supplementary " + word
    return f"{word} {m.group(2)}"


def caption_like(text: str) -> bool:
    """A label followed by caption punctuation ('Fig. 3:', 'Table IV.'), not a mention."""
    return bool(re.match(r"^\S+\.?\s*[A-Z]?[\dIVX]+[a-z]?\s*[:.|]", text))


def label_tables(units: list[Unit]) -> None:
    """Give each 'Table N' caption's label to the nearest table on the page."""
    tables = [u for u in units if u.kind == "table"]
    for cap in (u for u in units if u.kind == "caption" and (u.label or "").startswith("Table")):
        cx0, cy0, cx1, cy1 = cap.bbox
        best, dist = None, 1e9
        for t in tables:
            tx0, ty0, tx1, ty1 = t.bbox
            if t.label or min(cx1, tx1) <= max(cx0, tx0):
                continue
            d = min(abs(ty0 - cy1), abs(cy0 - ty1))
            if d < dist:
                best, dist = t, d
        if best is not None and dist < 150:
            best.label = cap.label
            best.data["caption"] = cap.text


def demote_mentions(units: list[Unit], body: Seg) -> list[Unit]:
    """'Table 4. On average, ...' in body type after an unfinished sentence is prose that
    happens to start a line ('... linking in' / 'Table 4. On average'), not a caption.
    Figures and tables may sit between the two halves of the sentence."""
    prose: Unit | None = None  # the last paragraph in reading order
    for unit in units:
        style = unit.style
        if (
            unit.kind == "caption"
            and re.match(r"^\S+\s*[\dIVX]+[a-z]?\.\s", unit.text)  # 'Table 4. On', not 'Table 4:'
            and prose is not None
            and not prose.text.rstrip().endswith((".", ":", "?", "!"))
            and abs(style.size - body.size) <= 0.4
            and style.font == body.font
            and not style.bold
        ):
            unit.kind, unit.label = "paragraph", None
        if unit.kind == "paragraph":
            prose = unit
    return units
