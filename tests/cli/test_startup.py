"""The faces load only what a command needs: importing the CLI (all it takes for `--help`)
pulls no PDF parser, no model stack, no web framework, no HTTP client and not the agent.
Checked on a fresh interpreter's sys.modules, so it holds whatever the test run imported."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).parents[2] / "src"
HEAVY = (
    "fitz",
    "pymupdf",
    "torch",
    "sentence_transformers",
    "fastapi",
    "uvicorn",
    "httpx",
    "psycopg",
    "numpy",
    "pydantic",
    "citewise.agent.ask.qa",
    "citewise.api.library",
    "citewise.documents.pdf.reader",
    "citewise.store.sqlite.library",
)


def modules_after(statement: str) -> set[str]:
    probe = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(done.stdout))


def loaded_after(statement: str, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    modules = modules_after(statement)
    return [name for name in heavy if name in modules]


def test_importing_the_cli_loads_no_parser_model_server_or_agent() -> None:
    assert loaded_after("import citewise.cli.app") == []
    assert loaded_after("import citewise.cli") == []  # every command module registered
    # Rich (~0.1 s) is imported by what prints through it, never by `--help` or `--version`
    assert loaded_after("import citewise.cli", ("rich", "rich.console", "rich.progress")) == []


def test_the_cli_takes_from_the_api_only_its_constants_at_start_up() -> None:
    # the faces import api/ only (tests/test_layers.py); what `--help` shows before any work
    # (default columns, source names) comes from api/names.py, which loads no library
    loaded = sorted(m for m in modules_after("import citewise.cli") if m.startswith("citewise.api"))
    assert loaded == ["citewise.api", "citewise.api.names"]


def test_the_help_of_every_command_is_built_without_them() -> None:
    # the help of a command reads that command's signature alone
    for argv in (["--help"], ["search", "--help"], ["matrix", "--help"], ["ask", "--help"]):
        statement = (
            "import contextlib, io\n"
            "from citewise.cli import app\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    app({argv!r}, standalone_mode=False)"
        )
        assert loaded_after(statement, (*HEAVY, "rich")) == [], argv


def command_on(library_dir: Path, paper: Path, argv: list[str]) -> str:
    """A statement running `citewise -L LIB ARGV` in-process (after `paper` is ingested
    there) and checking that its output names the paper's granite."""
    from citewise.api import Library

    with Library(library_dir, embeddings=False) as lib:
        assert not lib.ingest([paper]).failed
    return (
        "import contextlib, io\n"
        "from citewise.cli import app\n"
        "shown = io.StringIO()\n"
        "with contextlib.redirect_stdout(shown):\n"
        f"    app(['-L', {str(library_dir)!r}, *{argv!r}], standalone_mode=False)\n"
        "assert 'granite' in shown.getvalue().lower(), shown.getvalue()"
    )


def test_listing_a_library_loads_no_numpy_parser_or_agent(paper: Path, library_dir: Path) -> None:
    statement = command_on(library_dir, paper, ["list", "--json"])
    # `list` opens the store and reads the documents table: no vectors, no structure
    # readers (rapidfuzz, documents.structure), no agent, no pydantic.
    light = (*(n for n in HEAVY if n not in ("citewise.api.library",
    "citewise.store.sqlite.library")),
             "citewise.agent.ask.chat", "citewise.agent.comparison.aspects",
             "citewise.documents.structure",
             "citewise.store.sqlite.vectors", "citewise.ingest", "rapidfuzz")  # fmt: skip
    assert loaded_after(statement, light) == []


def test_asking_loads_no_pdf_parser_or_ingest_pipeline(paper: Path, library_dir: Path) -> None:
    question = "What does the granite classifier reach?"
    statement = command_on(library_dir, paper, ["ask", "--json", question])
    # the answer reads stored blocks: PyMuPDF, the parse pool and the ingest pipeline stay out
    heavy = (
        "pymupdf",
        "citewise.documents.pdf.reader",
        "citewise.documents.pool.parallel",
        "citewise.ingest",
    )
    assert loaded_after(statement, heavy) == []


# What a plain English question has no use for: the Chinese bridge and dictionary, the
# comparison table, the tool registry and planner (ask --trace), the generated-answer path.
NOT_FOR_AN_ENGLISH_QUESTION = (
    "citewise.lang.zh",
    "citewise.lang.zh_labels",
    "citewise.agent.bridge.crosslingual",
    "citewise.agent.comparison.compare_answer",
    "citewise.agent.comparison.aspects",
    "citewise.agent.actions.tool_plan",
    "citewise.agent.actions.tools",
    "citewise.agent.generation.generate",
    "citewise.agent.generation.verify",
)


def test_an_english_question_loads_no_chinese_comparison_tool_or_generation_code(
    paper: Path, library_dir: Path
) -> None:
    statement = command_on(library_dir, paper, ["ask", "What does the granite classifier reach?"])
    assert loaded_after(statement, NOT_FOR_AN_ENGLISH_QUESTION) == []


def test_a_chinese_or_comparative_question_loads_its_own_code(
    paper: Path, library_dir: Path
) -> None:
    # (so the test above is not vacuous: these questions do take those paths)
    from citewise.api import Library

    with Library(library_dir, embeddings=False) as lib:
        assert not lib.ingest([paper]).failed
    for question, needed in (
        (
            "花岗岩分类器的准确率是多少？",
            ("citewise.lang.zh", "citewise.agent.bridge.crosslingual"),
        ),
        (
            "Compare the classifiers across all papers",
            ("citewise.agent.comparison.compare_answer",),
        ),
    ):
        statement = (
            "from citewise.api import Library\n"
            f"with Library({str(library_dir)!r}, embeddings=False) as lib:\n"
            f"    lib.ask({question!r})"
        )
        assert loaded_after(statement, needed) == list(needed), question


def test_the_library_answers_without_pydantic_or_numpy_ma(paper: Path, library_dir: Path) -> None:
    # with vectors (the index's rows are sampled against SQLite when it opens) and no
    # citewise.toml: the settings are plain dataclasses, and np.unique (numpy.ma) is not used
    from citewise.api import Library

    with Library(library_dir) as lib:
        assert not lib.ingest([paper]).failed
    statement = (
        "import os\n"
        "os.environ['CITEWISE_CONFIG'] = os.devnull\n"
        "from citewise.api import Library\n"
        f"with Library({str(library_dir)!r}) as lib:\n"
        "    assert lib.store.vectors.any_vectors()\n"
        "    answer = lib.ask_with_model('What does the granite classifier reach?')\n"
        "assert not answer.refused, answer.answer"
    )
    assert loaded_after(
        statement, ("pydantic", "numpy.ma", "numpy", *NOT_FOR_AN_ENGLISH_QUESTION)
    ) == ["numpy"]


def test_parsing_a_document_model_does_not_load_pymupdf() -> None:
    assert "pymupdf" not in loaded_after("import citewise.documents.model")
    assert "pymupdf" not in loaded_after("import citewise.ingest")


def test_a_command_that_reads_pdfs_goes_without_pymupdfs_layout_model() -> None:
    # PyMuPDF imports its ONNX layout analyser when installed; the CLI's process never uses it
    statement = "import citewise.cli\nimport pymupdf\nimport citewise.documents.pdf.reader"
    assert loaded_after(statement, ("pymupdf", "citewise.documents.pdf.reader")) == [
        "pymupdf",
        "citewise.documents.pdf.reader",
    ]
    heavy = ("onnxruntime", "pymupdf4llm.helpers", "pymupdf.layout.onnx")
    assert loaded_after(statement, heavy) == []
    # a library user's import of citewise leaves PyMuPDF as it is (its layout analyser loads)
    if importlib.util.find_spec("pymupdf4llm") and importlib.util.find_spec("pymupdf.layout"):
        assert loaded_after("import citewise.api\nimport pymupdf", heavy) == list(heavy)


def test_reading_a_ruled_table_prints_no_layout_hint(tmp_path: Path) -> None:
    import pymupdf

    pdf = tmp_path / "ruled.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "Table 1: Probe counts per quarry.", fontsize=10)
    for row in range(4):
        y = 100 + row * 20
        page.draw_line((72, y), (372, y))
        for col, text in enumerate(("Quarry", "Probes", "Hits") if row == 0 else ("B", "12", "7")):
            page.insert_text((80 + col * 100, y + 14), text, fontsize=10)
    for x in (72, 172, 272, 372):
        page.draw_line((x, 100), (x, 160))
    doc.save(pdf)
    statement = (
        "import citewise.cli\n"
        "from pathlib import Path\n"
        "from citewise.documents.pdf.reader import read_pdf\n"
        f"document = read_pdf(Path({str(pdf)!r}), ocr=False)\n"
        "assert any(b.kind == 'table' for b in document.blocks), [b.kind for b in document.blocks]"
    )
    done = subprocess.run(
        [sys.executable, "-c", statement],
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""  # PyMuPDF's "Consider using the pymupdf_layout package" stays out
