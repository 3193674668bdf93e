"""Is a page's text layer usable? If not, read the page with OCR.

Born-digital PDFs sometimes carry a text layer whose characters are shifted or mapped to
the wrong glyphs ("Opnbddchmfr ne sgd ..."), and scans carry none. Such text must never be
cited. When tesseract's language data is installed, those pages are rendered and read by
OCR (tesseract's TSV output), keeping a box per word so citations still point at a
region; otherwise the pages stay excluded and the reader says why.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
import shutil
import statistics
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import filterfalse
from typing import Any

import pymupdf

from citewise.config import child_environment

FUNCTION_WORDS = frozenset(
    [
        "the",
        "of",
        "and",
        "to",
        "in",
        "a",
        "is",
        "for",
        "that",
        "with",
        "on",
        "as",
        "by",
        "are",
        "we",
        "this",
        "be",
        "from",
        "at",
        "or",
        "an",
        "it",
        "which",
        "was",
        "were",
        "not",
        "can",
        "these",
        "has",
        "have",
        "our",
        "their",
        "its",
        "than",
        "also",
        "been",
        "such",
        "but",
        "into",
        "each",
        "all",
        "more",
        "one",
        "two",
        "when",
        "where",
        "how",
        "both",
        "other",
        "may",
        "if",
        "only",
        "between",
        "using",
        "used",
    ]
)
VOWELS = set("aeiouyAEIOUY")
WORD = re.compile(r"[^\W\d_]+")
INNER_CAPS = re.compile(r"[a-z][A-Z]")


@dataclass(frozen=True)
class TextStats:
    """Signals that separate language from cipher-like noise."""

    tokens: int
    function_share: float  # English function words among word tokens
    voweless_share: float  # non-acronym words of 3+ letters without a vowel ("sgd", "mmtZk")
    inner_caps_share: float  # words with a capital after a lower-case letter ("KZmftZfd")


def text_stats(text: str) -> TextStats:
    words = WORD.findall(text)
    if not words:
        return TextStats(0, 0.0, 0.0, 0.0)
    n = len(words)
    function = sum(map(FUNCTION_WORDS.__contains__, map(str.lower, words)))
    # acronyms (BLAST, HMM) legitimately lack vowels; cipher text is mostly lower-case
    long_words = [w for w in words if len(w) >= 3 and w.isascii() and not w.isupper()]
    voweless = sum(not (set(w) & VOWELS) for w in long_words)
    inner = sum(bool(INNER_CAPS.search(w)) for w in words)
    return TextStats(
        tokens=n,
        function_share=function / n,
        voweless_share=voweless / max(1, len(long_words)),
        inner_caps_share=inner / n,
    )


def page_text_is_garbage(text: str) -> bool:
    """True when a page's text layer looks like noise rather than language.

    Needs a real amount of text to judge (short pages are trusted). Prose in English
    has plenty of function words; text in other languages or code still has word-like
    tokens, so a low function-word share alone is not enough: the tokens must also look
    cipher-like (vowel-less words, capitals inside words).
    """
    if _surely_language(text):
        return False  # the common case, decided without tokenising
    words = WORD.findall(text)
    function = sum(map(FUNCTION_WORDS.__contains__, map(str.lower, words)))
    if len(words) < 40 or function / len(words) >= 0.05:
        return False  # the common case, decided without the other signals
    stats = text_stats(text)
    if stats.tokens < 40 or stats.function_share >= 0.05:
        return False
    # a real page of tables or code still has vowels in its words (< 15% vowel-less here)
    return stats.voweless_share > 0.3 or (
        stats.voweless_share > 0.2 and stats.inner_caps_share > 0.15
    )


def _surely_language(text: str) -> bool:
    """A bound that decides most pages as `page_text_is_garbage`'s first test would, with
    C-speed string methods and no regex. A whitespace-separated token of letters only is
    one WORD, so one that reads as a function word is counted there too. WORDs are runs of
    letters apart from each other: a page holds at most (len(text) + 1) // 2 of them, a
    token with other characters at most (len + 1) // 2. When the function words found are
    >= 5% of such a bound on the WORDs, they are >= 5% of the WORDs themselves."""
    tokens = text.split()
    letters = list(filter(str.isalpha, tokens))
    function = sum(map(FUNCTION_WORDS.__contains__, map(str.lower, letters)))
    if not function:
        return False
    if 20 * function >= (len(text) + 1) // 2:  # integers: no rounding at the 5% line
        return True
    others = filterfalse(str.isalpha, tokens)
    most = len(letters) + (sum(map(len, others)) + len(tokens) - len(letters)) // 2
    return 20 * function >= most


# --- OCR --------------------------------------------------------------------------------

OCR_DPI = 200  # enough for 9-10 pt print; more costs time for little gain
OCR_TIMEOUT = 120.0
MIN_CONFIDENCE = 25.0  # below this tesseract's "words" are specks and rule fragments
INSTALL_HINT = "install tesseract (apt-get install tesseract-ocr, brew install tesseract)"


def tesseract_command(chosen: str | None = None) -> str | None:
    """The tesseract executable (`chosen`: $CITEWISE_TESSERACT, else on PATH), or None."""
    return chosen or shutil.which("tesseract")


def read_by_ocr(
    pages: list[pymupdf.Page],
    flagged: dict[int, str],
    raw: list[dict[str, Any]],
    warnings: list[str],
    tesseract: str | None = None,
    language: str = "eng",
) -> dict[int, str]:
    """OCR the flagged pages in place of their text layer (`raw[n - 1]` is replaced).

    Returns page -> why it was OCR'd, for the pages whose OCR text reads as language.
    Pages that cannot be OCR'd stay flagged (excluded from citation), with a warning.
    """
    command = tesseract_command(tesseract)
    if command is None:
        listed = ", ".join(str(n) for n in sorted(flagged))
        warnings.append(
            f"OCR unavailable: page(s) {listed} have no usable text layer and are excluded "
            f"from citation — {INSTALL_HINT} and ingest again"
        )
        return {}
    done: dict[int, str] = {}
    for number, reason in sorted(flagged.items()):
        try:
            words = ocr_words(pages[number - 1], command, language=language)
        except OcrError as exc:
            warnings.append(f"OCR failed on page {number}: {exc}; the page stays excluded")
            continue
        text = " ".join(w.text for w in words)
        if text_stats(text).tokens < 3 or page_text_is_garbage(text):
            warnings.append(f"OCR found no readable text on page {number}; it stays excluded")
            continue
        raw[number - 1] = words_to_dict(words)
        done[number] = f"OCR ({reason})"
    return done


class OcrError(Exception):
    pass


@dataclass(frozen=True)
class OcrWord:
    """A word tesseract read, with its box in PDF points and its place in a line."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    line: tuple[int, int, int]  # block, paragraph, line
    confidence: float


# MuPDF's colour management (ICC) is off in parse workers (`without_colour_management`): a
# parse reads no colour, and a text page with CMYK text would set up a CMYK-to-RGB transform
# first (~18-25 ms of CPU in every process). Pages rendered for OCR have it, as anywhere else.
_colour_managed = True


def without_colour_management() -> None:
    """Turn MuPDF's colour management off in this process (a parse worker's)."""
    global _colour_managed
    pymupdf.TOOLS.set_icc(False)
    _colour_managed = False


@contextlib.contextmanager
def _colour_management() -> Iterator[None]:
    """Colour management on while a page is rendered, where a worker turned it off."""
    if _colour_managed:
        yield
        return
    pymupdf.TOOLS.set_icc(True)
    try:
        yield
    finally:
        pymupdf.TOOLS.set_icc(False)


def ocr_words(
    page: pymupdf.Page, command: str, dpi: int = OCR_DPI, language: str = "eng"
) -> list[OcrWord]:
    """Render the page and read it with tesseract; word boxes come back in PDF points."""
    with _colour_management():
        image = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY).tobytes("png")
    # one thread: on small machines tesseract's OpenMP threads make it several times slower
    env = child_environment(OMP_THREAD_LIMIT="1")
    try:
        done = subprocess.run(
            [command, "stdin", "stdout", "--dpi", str(dpi), "-l", language, "tsv"],
            input=image,
            capture_output=True,
            timeout=OCR_TIMEOUT,
            env=env,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise OcrError(str(exc)) from exc
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise OcrError(message[-1] if message else f"tesseract exit code {done.returncode}")
    return parse_tsv(done.stdout.decode("utf-8", "replace"), 72.0 / dpi)


def parse_tsv(tsv: str, scale: float) -> list[OcrWord]:
    """Words from tesseract's TSV output (level 5 rows), scaled from pixels to points."""
    words = []
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        text = (row.get("text") or "").strip()
        if row.get("level") != "5" or not text:
            continue
        confidence = float(row["conf"])
        if confidence < MIN_CONFIDENCE:
            continue
        left, top = int(row["left"]) * scale, int(row["top"]) * scale
        width, height = int(row["width"]) * scale, int(row["height"]) * scale
        line = (int(row["block_num"]), int(row["par_num"]), int(row["line_num"]))
        words.append(OcrWord(left, top, left + width, top + height, text, line, confidence))
    return words


def words_to_dict(words: list[OcrWord]) -> dict[str, Any]:
    """OCR words -> a page in PyMuPDF's get_text('dict') shape, for the usual reader.

    Word boxes are ink: 'we' is short, 'Tg' spans ascender to descender (about 0.95 of the
    font size), so the taller words of a line set its size; sizes near the page's usual
    one are snapped to it, since ink heights are noisy. A gap wider than 1.5 sizes is a
    column gutter, where the line is cut.
    """
    lines: dict[tuple[int, int, int], list[OcrWord]] = {}
    for w in words:
        lines.setdefault(w.line, []).append(w)
    sizes = {key: _line_size(found) for key, found in lines.items()}
    usual = statistics.median(sizes.values()) if sizes else 10.0
    blocks: dict[tuple[int, int, int], list[dict[str, Any]]] = {}
    for key, found in sorted(lines.items()):
        found.sort(key=lambda w: w.x0)
        size = usual if abs(sizes[key] - usual) <= 0.15 * usual else sizes[key]
        pieces: list[list[OcrWord]] = [[found[0]]]
        for prev, w in zip(found, found[1:], strict=False):
            if w.x0 - prev.x1 > max(1.5 * size, 8.0):
                pieces.append([])
            pieces[-1].append(w)
        for part, piece in enumerate(pieces):
            box = (
                min(w.x0 for w in piece),
                min(w.y0 for w in piece),
                max(w.x1 for w in piece),
                max(w.y1 for w in piece),
            )
            text = " ".join(w.text for w in piece)
            span = {"text": text, "size": size, "font": "OCR", "flags": 0, "bbox": box}
            line = {"spans": [span], "dir": (1.0, 0.0), "bbox": box, "wmode": 0}
            # a piece past a gutter is another column: a block of its own
            blocks.setdefault((key[0], key[1], part), []).append(line)
    paragraphs = [p for _, found in sorted(blocks.items()) for p in _paragraphs(found)]
    return {
        "blocks": [
            {"type": 0, "number": n, "lines": found, "bbox": found[0]["bbox"]}
            for n, found in enumerate(paragraphs)
        ]
    }


def _paragraphs(lines: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Tesseract runs paragraphs together; an indented line after a finished sentence
    starts a new one."""
    left = min(line["bbox"][0] for line in lines)
    out: list[list[dict[str, Any]]] = [[]]
    for line in lines:
        size = line["spans"][0]["size"]
        prev = out[-1][-1]["spans"][0]["text"] if out[-1] else ""
        if prev.rstrip().endswith((".", "?", "!")) and line["bbox"][0] > left + 0.8 * size:
            out.append([])
        out[-1].append(line)
    return out


def _line_size(words: list[OcrWord]) -> float:
    heights = sorted(w.y1 - w.y0 for w in words)
    return round(heights[(3 * len(heights)) // 4] / 0.95 * 2) / 2
