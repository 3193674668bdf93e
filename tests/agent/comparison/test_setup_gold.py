"""`citewise setup` against gold setups written by reading two corpus papers (gold/*.yaml):
precision >= 0.90 and recall >= 0.70; every value occurs in its quote."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from citewise.api import Library
from citewise.eval.setup_score import SetupScore, score_setup
from tests.conftest import CORPUS

GOLD = Path(__file__).parents[1] / "gold"
GOLD_FILES = sorted(GOLD.glob("*.yaml"))


@pytest.fixture(scope="module")
def corpus_library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    files = [CORPUS / yaml.safe_load(g.read_text())["file"] for g in GOLD_FILES]
    if not all(f.exists() for f in files):
        pytest.skip("shared corpus not available")
    lib = Library(tmp_path_factory.mktemp("setup-gold"), embeddings=False)
    report = lib.ingest(files)
    assert not report.failed
    yield lib
    lib.close()


def _score(lib: Library, gold_file: Path) -> SetupScore:
    gold = yaml.safe_load(gold_file.read_text())
    (doc,) = [d for d in lib.documents() if Path(d.path).name == gold["file"]]
    setup = lib.setup(doc.id)
    for item in setup.items:
        for f in item.findings:
            assert f.value in f.quote
    values = {i.aspect: [f.value for f in i.findings] for i in setup.items}
    return score_setup(values, gold["aspects"])


def test_setup_meets_the_gold_floors(corpus_library: Library) -> None:
    total = SetupScore()
    for gold_file in GOLD_FILES:
        score = _score(corpus_library, gold_file)
        print(f"{gold_file.stem}: P={score.precision:.3f} R={score.recall:.3f} "
              f"wrong={score.wrong} missed={score.missed}")  # fmt: skip
        total = total.add(score)
    print(f"all: P={total.precision:.3f} R={total.recall:.3f}")
    assert total.precision >= 0.90, total.wrong
    assert total.recall >= 0.70, total.missed


def test_setup_says_not_stated_for_settings_a_paper_lacks(corpus_library: Library) -> None:
    (doc,) = [d for d in corpus_library.documents() if Path(d.path).name == "test6.pdf"]
    setup = corpus_library.setup(doc.id)
    for aspect in ("optimizer", "learning rate", "batch size", "gradient clipping", "dropout"):
        assert not setup.item(aspect).stated
        assert setup.to_dict()["aspects"][aspect] == {"stated": False, "values": []}
