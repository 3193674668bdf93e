"""Plain-text and Markdown reader: paragraphs split on blank lines, '#' headings."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from citewise.documents.formats.tabular import text_of
from citewise.documents.model import Block, Document
from citewise.documents.tables.grid import grid_from_rows, title_rows
from citewise.errors import BadDocumentError

ATX_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^(```|~~~)")
LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
NO_BOX = (0.0, 0.0, 0.0, 0.0)


def read_text(path: Path) -> Document:
    """Read a .txt or .md file; Markdown headings become heading blocks and section paths."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadDocumentError(f"cannot read file: {exc.strerror}", "check the path") from exc
    text = text_of(data)  # a stray byte does not lose the file; binary data is refused
    if not text.strip():
        raise BadDocumentError(f"empty file ({len(data)} bytes)", "add text or remove the file")
    markdown = path.suffix.lower() in (".md", ".markdown")
    blocks = parse_markdown(text) if markdown else parse_plain(text)
    headings = [b.text for b in blocks if b.kind == "heading"]
    first_line = next(line.strip() for line in text.splitlines() if line.strip())
    return Document(
        path=path,
        sha256=hashlib.sha256(data).hexdigest(),
        kind="markdown" if markdown else "text",
        pages=1,
        blocks=blocks,
        title=headings[0] if headings else first_line[:200],
    )


def _paragraphs(lines: list[str]) -> list[str]:
    """Runs of non-blank lines."""
    out: list[str] = []
    current: list[str] = []
    for line in lines + [""]:
        if line.strip():
            current.append(line)
        elif current:
            out.append("\n".join(current))
            current = []
    return out


def _block(ordinal: int, kind: str, text: str, section: str) -> Block:
    if kind not in ("code", "table"):
        text = " ".join(text.split())
    return Block(ordinal, kind, 1, NO_BOX, text, section_path=section)


_RULE = re.compile(r"^\s*\|[\s|:-]+\|?\s*$")


def pipe_grid(lines: list[str]) -> dict[str, object]:
    """A Markdown pipe table's stored grid: the rows above its `|---|` line are the header
    (then any leading rows that name columns, documents/tables/grid.title_rows)."""
    rule = next((i for i, ln in enumerate(lines) if _RULE.match(ln)), 0)
    rows = [
        [c.strip() for c in ln.strip().strip("|").split("|")] for ln in lines if not _RULE.match(ln)
    ]
    return {"rows": rows, **grid_from_rows(rows, title_rows(rows, rule))}


def parse_plain(text: str) -> list[Block]:
    """One paragraph block per blank-line-separated run."""
    return [_block(i, "paragraph", p, "") for i, p in enumerate(_paragraphs(text.splitlines()))]


DISPLAY_MATH = re.compile(r"^\s*\$\$(?P<tex>.+?)\$\$\s*$", re.DOTALL)
TAG = re.compile(r"\\tag\*?\{\s*(?P<n>[^{}]{1,12}?)\s*\}")
LATEX_FROM_MARKDOWN = "markdown"  # the equation's LaTeX is the file's own $$ ... $$ source


def display_math(paragraph: str) -> tuple[str, str | None] | None:
    """A paragraph that is one `$$ ... $$` display equation: (its LaTeX source, the number
    its `\\tag{N}` gives or None); None for any other paragraph."""
    m = DISPLAY_MATH.match(paragraph)
    if m is None or "$$" in m.group("tex"):
        return None
    tex = m.group("tex").strip()
    tag = TAG.search(tex)
    return (tex, tag.group("n") if tag else None) if tex else None


def equation_block(ordinal: int, equation: tuple[str, str | None], section: str) -> Block:
    """An equation block whose LaTeX is known, not guessed (`citewise formula`)."""
    tex, number = equation
    block = Block(ordinal, "equation", 1, NO_BOX, tex, section_path=section)
    block.label = f"Eq. ({number})" if number else None
    block.data = {"number": number, "latex": tex, "latex_from": LATEX_FROM_MARKDOWN}
    return block


def parse_markdown(text: str) -> list[Block]:
    """Headings drive section_path; fenced code stays verbatim; lists and tables keep lines."""
    blocks: list[Block] = []
    stack: list[tuple[int, str]] = []
    pending: list[str] = []
    in_fence = False

    def path() -> str:
        return " > ".join(t for _, t in stack)

    def flush() -> None:
        for para in _paragraphs(pending):
            lines = para.splitlines()
            kind = "paragraph"
            equation = display_math(para)
            if equation is not None:
                blocks.append(equation_block(len(blocks), equation, path()))
                continue
            if all(line.lstrip().startswith("|") for line in lines):
                kind = "table"
                para = "\n".join(ln for ln in lines if not re.match(r"^\s*\|[\s|:-]+\|?\s*$", ln))
            elif LIST_ITEM.match(lines[0]):
                kind = "list"
            block = _block(len(blocks), kind, para, path())
            if kind == "table":
                block.data = pipe_grid(lines)
            blocks.append(block)
        pending.clear()

    code: list[str] = []
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            if in_fence:
                blocks.append(_block(len(blocks), "code", "\n".join(code), path()))
                code = []
            else:
                flush()
            in_fence = not in_fence
            continue
        if in_fence:
            code.append(line)
            continue
        m = ATX_HEADING.match(line)
        if m:
            flush()
            level, title = len(m.group(1)), m.group(2).strip()
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, title))
            blocks.append(_block(len(blocks), "heading", title, path()))
            continue
        pending.append(line)
    if in_fence and code:
        blocks.append(_block(len(blocks), "code", "\n".join(code), path()))
    flush()
    return blocks
