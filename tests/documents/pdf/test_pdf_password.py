"""Encrypted PDFs open with `ingest --password` / $CITEWISE_PDF_PASSWORD, and a wrong
password is an error that names the file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from citewise.documents import read_document
from citewise.documents.options import PASSWORD_ENV, ParseOptions
from citewise.errors import BadDocumentError
from tests.documents.conftest import TITLE


def _lock(source: Path, target: Path, password: str) -> Path:
    with pymupdf.open(source) as pdf:
        pdf.save(target, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=password, owner_pw="o")
    return target


def test_the_right_password_opens_the_pdf_and_a_wrong_one_names_the_file(
    granite_pdf: Path, tmp_path: Path
) -> None:
    locked = _lock(granite_pdf, tmp_path / "locked-draft.pdf", "s3same")
    with pytest.raises(BadDocumentError) as missing:
        read_document(locked)
    assert "password required" in missing.value.message and "--password" in missing.value.hint

    with pytest.raises(BadDocumentError) as wrong:
        read_document(locked, ParseOptions(pdf_password="wrong"))
    assert wrong.value.code == "WRONG_PDF_PASSWORD"
    assert "locked-draft.pdf" in wrong.value.message

    opened = read_document(locked, ParseOptions.from_environ({PASSWORD_ENV: "s3same"}))
    plain = read_document(granite_pdf)
    assert opened.title == TITLE
    assert [b.text for b in opened.blocks] == [b.text for b in plain.blocks]


def test_ingest_password_flag_reaches_the_parsing_workers(
    granite_pdf: Path, tmp_path: Path
) -> None:
    (tmp_path / "in").mkdir()
    _lock(granite_pdf, tmp_path / "in" / "good.pdf", "opensesame")
    other = tmp_path / "in" / "other.pdf"
    with pymupdf.open(granite_pdf) as pdf:  # other bytes, another password
        pdf.set_metadata({"title": "Another draft"})
        pdf.save(other, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="different")
    env = {k: v for k, v in os.environ.items() if k != PASSWORD_ENV}
    env["CITEWISE_LIBRARY"] = str(tmp_path / "library")
    done = subprocess.run(
        [sys.executable, "-m", "citewise", "ingest", "--no-embed", "--json"]
        + ["--password", "opensesame", str(tmp_path / "in")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 1  # one file failed
    report = json.loads(done.stdout)
    assert len(report["added"]) == 1
    [failure] = report["failed"]
    assert failure["path"].endswith("other.pdf") and failure["code"] == "WRONG_PDF_PASSWORD"
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "other.pdf" in errors[0] and "wrong password" in errors[0]
