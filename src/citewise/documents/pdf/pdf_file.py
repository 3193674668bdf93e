"""Opening a PDF: read and sniff the bytes, open them with PyMuPDF, unlock an encrypted
file, and refuse a repair that lost page content. Every failure is a BadDocumentError
with a hint (what the file looks like, what to do)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from citewise.documents.options import PASSWORD_ENV
from citewise.errors import BadDocumentError

REPAIR = "re-download or re-export the file"
DAMAGE = ("premature end", "page tree load failed", "missing 'endobj'", "non-page object")


def read_bytes(path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadDocumentError(f"cannot read file: {exc.strerror}", "check the path") from exc
    if not data:
        raise BadDocumentError("empty file (0 bytes)", "re-download the file")
    if b"%PDF-" not in data[:1024]:
        raise BadDocumentError(f"not a PDF ({sniff(data)})", "rename it or export it to PDF")
    return data


def sniff(data: bytes) -> str:
    """A short guess at what a non-PDF file is, for the error message."""
    head = data[:512].lstrip().lower()
    if head.startswith(b"pk"):
        return "looks like a ZIP/Office file"
    if head.startswith((b"<!doctype html", b"<html")):
        return "looks like an HTML page"
    try:
        data[:512].decode("utf-8")
        return "looks like plain text"
    except UnicodeDecodeError:
        return "no %PDF header"


def open_pdf(data: bytes, name: str = "", password: str = "") -> pymupdf.Document:
    # MuPDF prints to stderr by default; errors reach the user through BadDocumentError
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    pymupdf.TOOLS.reset_mupdf_warnings()
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except (RuntimeError, ValueError) as exc:
        raise BadDocumentError(f"corrupt or truncated PDF: {why(data)}", REPAIR) from exc
    if doc.needs_pass:
        unlock(doc, name, password)
    if doc.page_count == 0:
        doc.close()
        raise BadDocumentError("PDF has no pages", REPAIR)
    return doc


def unlock(doc: pymupdf.Document, name: str, password: str) -> None:
    """Open an encrypted PDF with `password` (`ingest --password`, else
    $CITEWISE_PDF_PASSWORD, through ParseOptions.pdf_password)."""
    if not password:
        doc.close()
        raise BadDocumentError(
            "encrypted PDF (password required)",
            f"give it with --password or ${PASSWORD_ENV}, or save an unencrypted copy",
        )
    if not doc.authenticate(password):
        doc.close()
        raise BadDocumentError(
            f"wrong password for encrypted PDF '{name}'",
            f"check --password / ${PASSWORD_ENV} (one password for the whole batch: "
            "ingest files with other passwords apart)",
            code="WRONG_PDF_PASSWORD",
        )


def check_repair(doc: pymupdf.Document, data: bytes) -> None:
    """PyMuPDF repairs broken files silently; refuse when the repair lost page content."""
    warnings = pymupdf.TOOLS.mupdf_warnings()
    if doc.is_repaired and any(d in warnings for d in DAMAGE):
        raise BadDocumentError(f"corrupt or truncated PDF: {why(data)}", REPAIR)


def why(data: bytes) -> str:
    """Truncation shows as a missing end-of-file marker; anything else is damage."""
    return "file is cut short" if b"%%EOF" not in data[-2048:] else "damaged structure"
