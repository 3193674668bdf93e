"""`citewise compare` on two papers the test writes, with known optimizer, schedule and
gradient-clipping settings: exactly those cells, each cited; differences built from them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.agent.comparison.aspects import aspects_in_question
from citewise.api import Library
from citewise.cli import app
from citewise.cli.testing import CliRunner
from tests.pdfs import write_paper

runner = CliRunner()

ADAMW = [
    ("1 Introduction", ["We study sorting of quarry stone from the sound of a tap."]),
    (
        "2 Experimental Setup",
        [
            "We train the echo transformer with the AdamW optimizer and a peak learning rate "
            "of 3e-4. The learning rate follows a cosine decay schedule after 2,000 warmup "
            "steps. We apply gradient clipping with a maximum norm of 1.0.",
        ],
    ),
]
SGD = [
    ("1 Introduction", ["We classify marble blocks from their echo spectra."]),
    (
        "2 Training Details",
        [
            "The network is trained with SGD with momentum of 0.9 and an initial learning "
            "rate of 0.1. We use a step decay schedule that divides the learning rate by 10 "
            "at epochs 30 and 60. Gradients are clipped to a norm of 5.0 during training.",
        ],
    ),
]
ASPECTS = "optimizer,learning rate schedule,gradient clipping"


@pytest.fixture
def two_papers(tmp_path: Path) -> Path:
    lib = tmp_path / "lib"
    pdfs = [
        write_paper(tmp_path / "adamw.pdf", "Echo Transformers for Granite", ADAMW),
        write_paper(tmp_path / "sgd.pdf", "Momentum Networks for Marble", SGD),
    ]
    result = runner.invoke(app, ["-L", str(lib), "ingest", "--no-embed", *map(str, pdfs)])
    assert result.exit_code == 0, result.output
    return lib


def ids(lib: Path) -> list[str]:
    listed = json.loads(runner.invoke(app, ["-L", str(lib), "list", "--json"]).stdout)
    by_file = {Path(d["path"]).name: d["id"] for d in listed}
    return [by_file["adamw.pdf"], by_file["sgd.pdf"]]


def test_compare_returns_exactly_the_stated_settings(two_papers: Path) -> None:
    a, b = ids(two_papers)
    result = runner.invoke(app, ["-L", str(two_papers), "compare", a, b, "--aspects", ASPECTS,
                                 "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["aspects"] == ["optimizer", "schedule", "gradient clipping"]
    cells = {(c["aspect"], c["document"]): c for c in data["cells"]}
    assert {k: c["value"] for k, c in cells.items()} == {
        ("optimizer", a): "AdamW",
        ("optimizer", b): "SGD with momentum of 0.9",
        ("schedule", a): "cosine decay",
        ("schedule", b): "step decay",
        ("gradient clipping", a): "1.0",
        ("gradient clipping", b): "5.0",
    }
    for c in cells.values():
        assert c["stated"] and c["page"] == 1 and c["value"].removesuffix("…") in c["quote"]
    cited = {c["block"] for c in cells.values()}
    assert all(set(d["citations"]) <= cited for d in data["differences"])
    assert (
        "AdamW" in data["key_differences"] and "SGD with momentum of 0.9" in data["key_differences"]
    )


def test_a_setting_a_paper_lacks_is_not_stated(two_papers: Path) -> None:
    a, b = ids(two_papers)
    with Library(two_papers, embeddings=False) as lib:
        comparison = lib.compare([a, b], ["weight decay", "optimizer"])
    assert comparison.cell("weight decay", a).value == "not stated"
    assert comparison.cell("weight decay", b).finding is None
    assert "weight decay" not in comparison.key_differences  # nothing cited, nothing said


def test_unknown_aspect_is_an_error_listing_the_known(two_papers: Path) -> None:
    a, b = ids(two_papers)
    result = runner.invoke(app, ["-L", str(two_papers), "compare", a, b, "--aspects", "optimzer"])
    assert result.exit_code == 1
    assert isinstance(result.exception, Exception) and "UNKNOWN_ASPECT" in str(result.exception)
    assert "optimizer" in str(result.exception)


def test_markdown_and_csv_renderings(two_papers: Path) -> None:
    a, b = ids(two_papers)
    md = runner.invoke(app, ["-L", str(two_papers), "compare", a, b, "--aspects", ASPECTS,
                             "--markdown"]).stdout  # fmt: skip
    assert md.splitlines()[0] == f"| aspect | {a} | {b} |"
    assert "| optimizer | AdamW (p. 1) | SGD with momentum of 0.9 (p. 1) |" in md
    assert "**Key differences.**" in md
    out = runner.invoke(app, ["-L", str(two_papers), "compare", a, b, "--aspects", ASPECTS,
                              "--csv"]).stdout  # fmt: skip
    assert out.splitlines()[0] == "aspect,document,value,page,quote"
    assert len(out.splitlines()) == 7


@pytest.mark.parametrize(
    "question,aspects",
    [
        ("compare the optimizer configurations in zhang2023 and wang2022, especially "
         "learning-rate decay and gradient clipping",
         ["optimizer", "schedule", "gradient clipping"]),
        ("compare the optimizer settings across all papers", ["optimizer"]),
        ("how do A and B differ in their datasets and evaluation metrics?",
         ["datasets", "metrics"]),
        ("compare these papers", []),
    ],
)  # fmt: skip
def test_a_comparative_question_names_its_aspects(question: str, aspects: list[str]) -> None:
    assert aspects_in_question(question) == aspects


def test_the_library_gazetteer_is_cached_per_paper(two_papers: Path) -> None:
    from citewise.agent.comparison.matrix import EXTRACTOR_VERSION, NAMES
    from citewise.store.sqlite.matrix_cache import MatrixCache

    a, b = ids(two_papers)
    with Library(two_papers, embeddings=False) as lib:
        cache = MatrixCache(lib.store.db)
        assert all(NAMES not in cache.cells(d.id, d.sha256, EXTRACTOR_VERSION)
                   for d in lib.documents())  # fmt: skip
        first = lib.gazetteer()
        for d in lib.documents():
            assert set(cache.cells(d.id, d.sha256, EXTRACTOR_VERSION)[NAMES]) == {
                "datasets",
                "model",
                "software",
                "kinds",  # acronyms of a kind of data ("part-of-speech (POS)")
            }
        assert lib.gazetteer().names == first.names
