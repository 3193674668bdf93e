"""Literature matrices and comparisons as CSV, XLSX, Markdown and JSON.

CSV and XLSX columns: document, title, year, then per column C: C, "C page", "C quote".
In the XLSX each cited value links to its PDF page and carries its quote as a comment.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from citewise.agent.comparison.compare import Comparison
from citewise.agent.comparison.matrix import Matrix
from citewise.errors import CitewiseError

FORMATS = ("csv", "xlsx", "md", "json")


class MatrixFormatError(CitewiseError):
    code = "UNSUPPORTED_FORMAT"


def header(matrix: Matrix) -> list[str]:
    out = ["document", "title", "year"]
    for c in matrix.columns:
        out += [c, f"{c} page", f"{c} quote"]
    return out


def table_rows(matrix: Matrix) -> list[list[object]]:
    rows: list[list[object]] = []
    for r in matrix.rows:
        row: list[object] = [r.document, r.title, r.year if r.year is not None else ""]
        for cell in r.cells:
            f = cell.finding
            row += [cell.value, f.page if f else "", f.quote if f else ""]
        rows.append(row)
    return rows


def to_csv(matrix: Matrix) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header(matrix))
    writer.writerows(table_rows(matrix))
    return buffer.getvalue()


def page_link(path: str, page: int) -> str:
    return Path(path).resolve().as_uri() + f"#page={page}"


def write_xlsx(matrix: Matrix, out: Path) -> None:
    try:
        from openpyxl import Workbook
        from openpyxl.comments import Comment
        from openpyxl.styles import Font
    except ImportError as exc:  # pragma: no cover - depends on the extra
        raise MatrixFormatError(
            "writing .xlsx needs openpyxl", hint="pip install 'citewise[matrix]'"
        ) from exc
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "matrix"
    sheet.append(header(matrix))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for n, (row, values) in enumerate(zip(matrix.rows, table_rows(matrix), strict=True), 2):
        sheet.append(values)
        for k, cell in enumerate(row.cells):
            if cell.finding is None or not row.path:
                continue
            target = sheet.cell(row=n, column=4 + 3 * k)
            target.hyperlink = page_link(row.path, cell.finding.page)
            target.font = Font(color="0563C1", underline="single")
            target.comment = Comment(cell.finding.quote[:2000], "citewise")
    sheet.freeze_panes = "D2"
    book.save(out)


def _md(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def to_markdown(matrix: Matrix) -> str:
    lines = [
        "| document | title | year | " + " | ".join(matrix.columns) + " |",
        "|---" * (3 + len(matrix.columns)) + "|",
    ]
    for r in matrix.rows:
        cells = [_md(c.value) + (f" (p. {c.finding.page})" if c.finding else "") for c in r.cells]
        year = r.year if r.year is not None else ""
        lines.append(f"| {r.document} | {_md(r.title)} | {year} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_matrix(matrix: Matrix, out: Path) -> None:
    """Write by the file's extension: .csv, .xlsx, .md or .json."""
    suffix = out.suffix.lower().lstrip(".")
    if suffix == "xlsx":
        write_xlsx(matrix, out)
    elif suffix == "csv":
        out.write_text(to_csv(matrix), encoding="utf-8")
    elif suffix in ("md", "markdown"):
        out.write_text(to_markdown(matrix), encoding="utf-8")
    elif suffix == "json":
        out.write_text(json.dumps(matrix.to_dict(), ensure_ascii=False, indent=2) + "\n", "utf-8")
    else:
        raise MatrixFormatError(
            f"cannot write '{out.name}'", hint="use a .csv, .xlsx, .md or .json file name"
        )


def comparison_markdown(comparison: Comparison) -> str:
    """Aspects as rows, papers as columns; the key differences below."""
    ids = [d for d, _ in comparison.documents]
    lines = ["| aspect | " + " | ".join(ids) + " |", "|---" * (1 + len(ids)) + "|"]
    for aspect in comparison.aspects:
        cells = []
        for doc in ids:
            c = comparison.cell(aspect, doc)
            cells.append(_md(c.value) + (f" (p. {c.finding.page})" if c.finding else ""))
        lines.append(f"| {aspect} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    if comparison.key_differences:
        text += "\n**Key differences.** " + comparison.key_differences + "\n"
    return text


def comparison_csv(comparison: Comparison) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["aspect", "document", "value", "page", "quote"])
    for c in comparison.cells:
        f = c.finding
        writer.writerow([c.aspect, c.document, c.value, f.page if f else "", f.quote if f else ""])
    return buffer.getvalue()
