"""A comparison in the terminal: aspects as rows, papers as columns, each cell cited.

Used by `citewise compare` and by `ask` when a comparative question is answered with the
table (then each cell also carries the [n] of its evidence).
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from citewise.agent.comparison.compare import Comparison
from citewise.report.safe_text import safe


def comparison_table(comparison: Comparison, numbers: dict[str, int] | None = None) -> Table:
    """Paper text is no markup: "[8]" or "[/b]" in a value prints as is (`safe`)."""
    view = Table("aspect", *[safe(d) for d, _ in comparison.documents], show_lines=True)
    for aspect in comparison.aspects:
        row = [safe(aspect)]
        for doc, _ in comparison.documents:
            c = comparison.cell(aspect, doc)
            if c.finding is None:
                row.append(f"[dim]{c.value}[/]")
                continue
            mark = f" [bold cyan]\\[{numbers[c.finding.block_id]}][/]" if numbers and (
                c.finding.block_id in numbers) else ""  # fmt: skip
            row.append(f"{safe(c.value)}  [dim]p. {c.finding.page}[/]{mark}")
        view.add_row(*row)
    return view


def print_comparison(
    console: Console, comparison: Comparison, numbers: dict[str, int] | None = None
) -> None:
    console.print(comparison_table(comparison, numbers))
    if comparison.key_differences:
        console.print("[bold]Key differences.[/] " + safe(comparison.key_differences))
