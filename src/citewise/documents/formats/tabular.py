"""CSV / TSV files: a schema description block plus the rows, searchable in chunks.

The schema block says what the file holds: each column's inferred type (integer, number,
boolean, date, text), range or distinct values, and share of missing values. Rows follow
as table blocks of ROWS_PER_BLOCK rows (header repeated on top), one row per line with
cells joined by spaces, the same shape as a PDF table's text.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from citewise.documents.model import Block, Document
from citewise.errors import BadDocumentError

ROWS_PER_BLOCK = 25
NULLS = {"", "na", "n/a", "nan", "null", "none", "-", "--", "?"}
TRUE_FALSE = {"true", "false", "yes", "no", "t", "f", "y", "n"}
INTEGER = re.compile(r"^[-+]?\d{1,18}$")
NUMBER = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?$")
NO_BOX = (0.0, 0.0, 0.0, 0.0)


@dataclass
class Column:
    name: str
    type: str  # integer, number, boolean, date, text
    missing: float  # share of rows with no value
    distinct: int
    minimum: str | None = None
    maximum: str | None = None
    examples: list[str] | None = None

    def describe(self) -> str:
        what = self.type
        if self.minimum is not None and self.type in ("integer", "number", "date"):
            what += f", {self.minimum} to {self.maximum}"
        elif self.examples:
            what += f", {self.distinct} distinct: " + ", ".join(self.examples)
        if self.missing:
            what += f", {self.missing:.0%} missing"
        return f"{self.name} ({what})"


NOT_TEXT = "NOT_TEXT"
BINARY_SHARE = 0.1  # control characters past this share of the first 64 KB: not text


def refuse_binary(data: bytes) -> None:
    """Refuse bytes that are not text (a NUL, or a tenth of the first 64 KB control
    characters), whatever store they would go to: NOT_TEXT, with where. UTF-16 with its
    byte-order mark is text."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return
    head = data[:65536]
    nul = data.find(b"\x00")
    controls = sum(head.count(bytes([c])) for c in range(32) if c not in (9, 10, 12, 13))
    if nul >= 0 or controls > BINARY_SHARE * max(len(head), 1):
        where = f"a NUL byte at byte {nul:,}" if nul >= 0 else f"{controls:,} control bytes"
        raise BadDocumentError(
            f"not a text file ({where})",
            "a .txt, .md, .csv, .tsv or .html file must hold text: convert the file, or "
            "give it the extension of what it is",
            code=NOT_TEXT,
        )


def text_of(data: bytes) -> str:
    """Lenient text of a file's bytes (a stray byte becomes U+FFFD); UTF-16 by its
    byte-order mark; binary data refused (refuse_binary)."""
    refuse_binary(data)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8-sig", errors="replace")


def decode(data: bytes) -> str:
    """UTF-8 (with or without BOM), else one legacy 8-bit encoding for the whole file.

    A file that mixes them (some lines UTF-8, others Latin-1) cannot be read right either
    way: BadDocumentError names the first line of each kind.
    """
    refuse_binary(data)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    utf8_line = legacy_line = None
    for number, line in enumerate(data.splitlines(), start=1):
        if line.isascii():
            continue
        try:
            line.decode("utf-8")
            utf8_line = utf8_line or number
        except UnicodeDecodeError:
            legacy_line = legacy_line or number
    if utf8_line and legacy_line:
        raise BadDocumentError(
            f"mixed text encodings: line {utf8_line} is UTF-8 but line {legacy_line} is not",
            "re-save the file with one encoding (UTF-8)",
        )
    return data.decode("cp1252", errors="replace")


def read_table_file(path: Path) -> Document:
    """Parse a .csv or .tsv file into a schema block and row blocks."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadDocumentError(f"cannot read file: {exc.strerror}", "check the path") from exc
    text = decode(data)
    if not text.strip():
        raise BadDocumentError(f"empty file ({len(data)} bytes)", "add rows or remove the file")
    delimiter = "\t" if path.suffix.lower() == ".tsv" else _sniff(text)
    try:
        rows = [r for r in csv.reader(io.StringIO(text), delimiter=delimiter) if any(r)]
    except csv.Error as exc:
        raise BadDocumentError(f"malformed CSV: {exc}", "check quoting in the file") from exc
    header, body = rows[0], rows[1:]
    width = len(header)
    body = [(r + [""] * width)[:width] for r in body]
    columns = infer_columns(header, body)
    blocks = [schema_block(path.name, columns, len(body))]
    for start in range(0, len(body), ROWS_PER_BLOCK):
        chunk = body[start : start + ROWS_PER_BLOCK]
        lines = [" ".join(header)] + [" ".join(c.strip() for c in row) for row in chunk]
        first, last = start + 1, start + len(chunk)
        blocks.append(
            Block(
                len(blocks),
                "table",
                1,
                NO_BOX,
                "\n".join(lines),
                section_path=path.name,
                label=f"Rows {first}-{last}",
                data={"columns": header, "first_row": first, "rows": chunk},
            )
        )
    return Document(
        path=path,
        sha256=hashlib.sha256(data).hexdigest(),
        kind="table",
        pages=1,
        blocks=blocks,
        title=path.stem.replace("_", " "),
    )


def _sniff(text: str) -> str:
    try:
        return csv.Sniffer().sniff(text[:8192], delimiters=",;\t|").delimiter
    except csv.Error:
        return ","


def infer_columns(header: list[str], rows: list[list[str]]) -> list[Column]:
    """Type, range, distinct values and missing share of each column."""
    out = []
    for k, name in enumerate(header):
        values = [r[k].strip() for r in rows]
        present = [v for v in values if v.lower() not in NULLS]
        kind = column_type(present)
        col = Column(
            name=name.strip() or f"column {k + 1}",
            type=kind,
            missing=round(1 - len(present) / len(values), 3) if values else 0.0,
            distinct=len(set(present)),
        )
        if present and kind in ("integer", "number"):
            nums = [float(v) for v in present]
            fmt: Callable[[float], str] = (
                (lambda x: str(int(x))) if kind == "integer" else (lambda x: f"{x:g}")
            )
            col.minimum, col.maximum = fmt(min(nums)), fmt(max(nums))
        elif present and kind == "date":
            col.minimum, col.maximum = min(present), max(present)
        elif present:
            col.examples = list(dict.fromkeys(present))[:5]
        out.append(col)
    return out


def column_type(values: list[str]) -> str:
    if not values:
        return "text"
    if all(INTEGER.match(v) for v in values):
        return "integer"
    if all(NUMBER.match(v) for v in values):
        return "number"
    if all(v.lower() in TRUE_FALSE for v in values):
        return "boolean"
    if all(DATE.match(v) for v in values):
        return "date"
    return "text"


def schema_block(name: str, columns: list[Column], rows: int) -> Block:
    text = f"{name}: {rows} rows, {len(columns)} columns. " + "; ".join(
        c.describe() for c in columns
    )
    return Block(
        0,
        "paragraph",
        1,
        NO_BOX,
        text + ".",
        section_path=name,
        label="Schema",
        data={"rows": rows, "columns": [asdict(c) for c in columns]},
    )
