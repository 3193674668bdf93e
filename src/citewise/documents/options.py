"""How files are parsed: the per-file budget, worker processes, size caps, OCR, GROBID and
the PDF password. `ParseOptions.from_environ` reads the CITEWISE_* variables from the
face's snapshot of the environment (config.Settings.environ); the options travel down,
picklable, to every parse worker process. Nothing under documents/ reads os.environ."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citewise.documents.model import Document

SECONDS_VARIABLE = "CITEWISE_PARSE_SECONDS"
MEMORY_VARIABLE = "CITEWISE_PARSE_MEMORY_MB"
TEXT_OPS_VARIABLE = "CITEWISE_PARSE_TEXT_OPS"
WORKERS_VARIABLE = "CITEWISE_PARSE_WORKERS"
FILE_MB_VARIABLE = "CITEWISE_MAX_FILE_MB"
PASSWORD_ENV = "CITEWISE_PDF_PASSWORD"
TESSERACT_VARIABLE = "CITEWISE_TESSERACT"
OCR_LANGUAGE_VARIABLE = "CITEWISE_OCR_LANGUAGE"
GROBID_VARIABLE = "CITEWISE_GROBID_URL"

# text-showing operators on one page: real pages carry < 10,000; every one becomes a span
# in get_text("dict") (~1.5 KB each), so a bomb of millions costs gigabytes
TEXT_OPS_PER_PAGE = 100_000


@dataclass(frozen=True)
class ParseBudget:
    """What one file may cost: wall-clock seconds (`seconds`, or `seconds_per_page` times
    its pages when that is more: OCR is slow but honest), memory the parse may add to the
    worker's starting size, and text operators on one PDF page."""

    seconds: float = 30.0
    seconds_per_page: float = 2.0
    memory_mb: int = 1024
    text_ops_per_page: int = TEXT_OPS_PER_PAGE

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> ParseBudget:
        """Defaults, overridden by CITEWISE_PARSE_SECONDS, _MEMORY_MB and _TEXT_OPS."""

        def number(name: str, default: float) -> float:
            try:
                value = float(environ.get(name, ""))
            except ValueError:
                return default
            return value if value > 0 else default

        base = cls()
        return cls(
            seconds=number(SECONDS_VARIABLE, base.seconds),
            memory_mb=int(number(MEMORY_VARIABLE, base.memory_mb)),
            text_ops_per_page=int(number(TEXT_OPS_VARIABLE, base.text_ops_per_page)),
        )

    def deadline(self, pages: int) -> float:
        return max(self.seconds, self.seconds_per_page * pages)


@dataclass(frozen=True)
class ParseOptions:
    """Everything configurable about parsing; the defaults are citewise's own."""

    budget: ParseBudget = field(default_factory=ParseBudget)
    workers: int | None = None  # parse processes; None: one per available core
    max_file_mb: float | None = None  # one cap for every file; None: the per-type caps
    tesseract: str | None = None  # the tesseract executable; None: the one on PATH
    ocr_language: str = "eng"
    grobid_url: str = ""  # a GROBID server parsing bibliographies; "" for none
    pdf_password: str = ""  # for encrypted PDFs (`ingest --password`)
    # work on each parsed document done in its worker, under the file's time and memory
    # budget, kept as Document.analysed: what the storing process would otherwise do with
    # the text outside any budget (an ingest's keyword postings: a 1M-row CSV's took the
    # storing process half a minute). A module-level function: spawned workers import it.
    analyse: Callable[[Document], object] | None = None

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> ParseOptions:
        workers = environ.get(WORKERS_VARIABLE, "")
        try:
            cap: float | None = float(environ[FILE_MB_VARIABLE])
        except (KeyError, ValueError):
            cap = None
        return cls(
            budget=ParseBudget.from_environ(environ),
            workers=int(workers) if workers.isdigit() and int(workers) > 0 else None,
            max_file_mb=cap,
            tesseract=environ.get(TESSERACT_VARIABLE) or None,
            ocr_language=environ.get(OCR_LANGUAGE_VARIABLE, "eng"),
            grobid_url=environ.get(GROBID_VARIABLE, "").strip(),
            pdf_password=environ.get(PASSWORD_ENV, ""),
        )
