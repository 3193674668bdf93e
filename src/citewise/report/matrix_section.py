"""The literature-matrix section of a research report: the library papers the report cites
x the default matrix columns, each cell a value cited by page and block, or "not stated".

Built by the same code as `citewise matrix` (agent/comparison/matrix.py, cached in the library) and
set into the rendered report just before its references, as a table only: table rows are
not report sentences (agent/research/statistics.py SENTENCE_COUNTING), so the counts
stand as they were.
"""

from __future__ import annotations

from html import escape as html_escape

from citewise.agent.comparison.matrix import Matrix
from citewise.agent.research.chinese import heading
from citewise.agent.research.model import EvidenceItem, Report
from citewise.report.markdown import escape

HEADING = "Literature matrix"
HTML_BEFORE = '<section id="references">'


def report_papers(report: Report, evidence: list[EvidenceItem]) -> list[str]:
    """The library documents whose passages the report's claims cite, in the order of its
    references (remote records, cited by their abstracts, have no blocks to read)."""
    cited = {i for c in report.claims() for i in c.evidence}
    local = {e.paper for e in evidence if e.id in cited and e.block_id}
    ordered = [str(r.get("id")) for r in report.references]
    return [k for k in ordered if k in local] + sorted(local - set(ordered))


def _markdown_cell(document: str, cell_value: str, page: int | None, block: str | None) -> str:
    if page is None:
        return f"*{cell_value}*"
    return f"{escape(cell_value)} [@{document}, p. {page}, {block}]"


def matrix_markdown(matrix: Matrix, lang: str = "") -> list[str]:
    """The section's lines: heading, then one row per paper (nothing when no paper)."""
    if not matrix.rows:
        return []
    paper = heading("paper", lang)
    lines = [
        f"## {heading(HEADING, lang)}",
        "",
        f"| {paper} | " + " | ".join(matrix.columns) + " |",
    ]
    lines.append("|---" * (1 + len(matrix.columns)) + "|")
    for row in matrix.rows:
        cells = [
            _markdown_cell(row.document, c.value, c.finding.page if c.finding else None,
                           c.finding.block_id if c.finding else None)
            for c in row.cells
        ]  # fmt: skip
        lines.append(f"| {escape(row.title or row.document)} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def matrix_html(matrix: Matrix, lang: str = "") -> str:
    if not matrix.rows:
        return ""
    head = "".join(f"<th>{html_escape(c)}</th>" for c in matrix.columns)
    rows = []
    for row in matrix.rows:
        cells = []
        for c in row.cells:
            if c.finding is None:
                cells.append(f'<td class="muted">{html_escape(c.value)}</td>')
                continue
            quote = html_escape(c.finding.quote, quote=True)
            cells.append(
                f'<td title="{quote}">{html_escape(c.value)} <small>'
                f"[{html_escape(row.document)}, p. {c.finding.page}, "
                f"{html_escape(c.finding.block_id)}]</small></td>"
            )
        title = html_escape(row.title or row.document)
        rows.append(f"<tr><td>{title}</td>{''.join(cells)}</tr>")
    return (
        f'<section id="literature-matrix"><h2>{html_escape(heading(HEADING, lang))}</h2>'
        f"<table><tr><th>{html_escape(heading('paper', lang))}</th>{head}</tr>"
        f"{''.join(rows)}</table></section>"
    )


def _insert(text: str, before: str, section: str) -> str:
    at = text.find(before)
    return text[:at] + section + text[at:] if at >= 0 else text + section


def with_matrix_section(
    markdown: str, html: str, matrix: Matrix, lang: str = ""
) -> tuple[str, str]:
    """The rendered report with the matrix section before its references (headings in the
    report's language)."""
    lines = matrix_markdown(matrix, lang)
    if not lines:
        return markdown, html
    return (
        _insert(markdown, f"## {heading('References', lang)}", "\n".join(lines) + "\n"),
        _insert(html, HTML_BEFORE, matrix_html(matrix, lang)),
    )
