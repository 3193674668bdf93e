"""`citewise formula` shows LaTeX only where the file holds a LaTeX source: a Markdown file's
`$$ ... $$` display equation is read as an equation with its source as LaTeX (numbered by its
\\tag); a PDF's equation shows its text, and `--json` says there is no LaTeX for it."""

from __future__ import annotations

import json
from pathlib import Path

from citewise.api import Library
from citewise.cli import app
from citewise.cli.testing import CliRunner
from citewise.documents.formats.text import display_math

runner = CliRunner()
NOTES = """# Heat in the quarry face

The heat a block takes up follows the usual law.

$$
Q = m \\, c \\, \\Delta T \\tag{2}
$$

Here c is the specific heat of granite.
"""


def test_a_display_equation_is_recognised_with_its_tag() -> None:
    assert display_math("$$ a^{2} + b^{2} = c^{2} \\tag{4} $$") == (
        "a^{2} + b^{2} = c^{2} \\tag{4}",
        "4",
    )
    assert display_math("$$ x $$") == ("x", None)
    assert display_math("costs $$5 and $$6") is None
    assert display_math("$$ a $$ and $$ b $$") is None


def test_formula_prints_the_markdown_source_as_latex_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "heat.md").write_text(NOTES)
    library = tmp_path / "lib"
    with Library(library, embeddings=False) as lib:
        assert not lib.ingest([tmp_path / "heat.md"]).failed
        doc_id = lib.documents()[0].id
    shown = runner.invoke(app, ["--library", str(library), "formula", doc_id, "eq2", "--json"])
    assert shown.exit_code == 0, shown.output
    printed = json.loads(shown.output)
    assert printed["latex"] == "Q = m \\, c \\, \\Delta T \\tag{2}"
    assert printed["latex_from"] == "markdown"
    assert printed["after"].startswith("Here c is the specific heat")
    text = runner.invoke(app, ["--library", str(library), "formula", doc_id, "2"])
    assert "LaTeX (from the Markdown source): Q = m \\, c \\, \\Delta T" in text.output
