"""The fitted prose reader on Markdown papers the tests write: every sentence a candidate with
whole-phrase values, the best by the fitted weights fills the cell, below the threshold the
cell is not stated, related work never fills it, and the shipped weights file is well formed;
the refit script's choice model and threshold on rows the tests make."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from citewise.agent.comparison.aspect_readers.prose_reader import (
    FEATURES,
    WEIGHTS_FILE,
    ColumnModel,
    candidates,
    column_models,
    fitted_findings,
    parse_models,
)
from citewise.agent.comparison.aspects import Paper, load_paper
from citewise.errors import CitewiseError
from citewise.store.factory import open_store
from tests.agent.comparison.test_matrix_cells import ingest
from tests.conftest import load_script

TIDES = """# Forecasting Harbour Tides With Gradient Boosting

## Abstract

Harbour pilots plan berthing around tides, and a late forecast delays ships. We propose a \
gradient-boosted forecaster that reads tide gauges and wind reports. Our forecaster reduces \
the mean absolute error by 18% compared with harmonic analysis.

## Related Work

Harmonic analysis (Doodson, 1921) outperforms neural forecasters by 12% on calm days.

## Conclusion

The forecaster needs two years of gauge readings, which limits it to long-running harbours.
"""


@pytest.fixture(scope="module")
def paper(tmp_path_factory: pytest.TempPathFactory) -> Paper:
    lib, ids = ingest(tmp_path_factory.mktemp("tides"), {"tides": TIDES})
    store = open_store(lib, lib)
    document = next(d for d in store.documents() if d.id == ids["tides"])
    return load_paper(store, document)


def _model(feature: str, weight: float, threshold: float = 0.5) -> ColumnModel:
    """A model that scores sentences by one feature alone."""
    n = len(FEATURES)
    weights = tuple(weight if f == feature else 0.0 for f in FEATURES)
    return ColumnModel((0.0,) * n, (1.0,) * n, weights, 0.0, threshold, False, False, True)


def test_every_prose_sentence_is_a_candidate_with_a_whole_phrase_value(paper: Paper) -> None:
    found = candidates("main result", paper.units)
    quotes = {c.finding.quote for c in found}
    assert any("18%" in q for q in quotes) and any("two years" in q for q in quotes)
    for c in found:
        assert c.finding.value in c.finding.quote
        assert len(c.features) == len(FEATURES)
        end = c.finding.quote.find(c.finding.value) + len(c.finding.value)
        assert end == len(c.finding.quote) or not c.finding.quote[end].isalnum()


def test_the_sentence_the_weights_prefer_fills_the_cell(paper: Paper) -> None:
    best = fitted_findings("main result", paper.units, _model("measured", 4.0))
    assert "18%" in best[0].value
    best = fitted_findings("limitations", paper.units, _model("conclusion", 4.0))
    assert "two years" in best[0].value


def test_below_the_threshold_the_cell_is_not_stated(paper: Paper) -> None:
    assert fitted_findings("main result", paper.units, _model("measured", 4.0, 0.9999)) == []


def test_a_related_work_sentence_never_fills_the_cell(paper: Paper) -> None:
    # a model that would take any sentence citing others still never quotes related work
    found = fitted_findings("main result", paper.units, _model("citation", 8.0))
    assert found and all("Doodson" not in f.quote for f in found)


def test_the_shipped_weights_match_the_readers_features() -> None:
    text = resources.files("citewise.agent").joinpath("data", WEIGHTS_FILE).read_text("utf-8")
    data = json.loads(text)
    assert data["features"] == list(FEATURES) and "dev" in data["from"]
    for column, model in column_models().items():
        assert len(model.weights) == len(FEATURES), column
        assert 0.0 <= model.threshold <= 1.0, column


def test_weights_fitted_on_other_features_are_refused() -> None:
    stale = {"features": ["cue"], "columns": {"method": {"mean": [0], "scale": [1],
             "weights": [1], "bias": 0, "threshold": 0.5}}}  # fmt: skip
    with pytest.raises(CitewiseError) as raised:
        parse_models(json.dumps(stale))
    assert raised.value.code == "WEIGHTS_INVALID"


def _fit_script() -> ModuleType:
    path = Path(__file__).parents[3] / "scripts" / "fit_prose_reader.py"
    return load_script(path, "fit_prose_reader")


def test_the_refit_learns_which_sentence_a_paper_states_its_cell_in() -> None:
    fitting = _fit_script()
    # in every paper the one sentence with the first feature names the gold key
    groups = []
    for n in range(6):
        x = np.array([[1.0, n % 2], [0.0, 1.0], [0.0, 0.0], [0.0, (n + 1) % 2]])
        groups.append((x, np.array([1.0, 0.0, 0.0, 0.0])))
    w = fitting.fit_choice(groups, l2=0.1)
    assert w[1] > 1.0 and abs(w[2]) < w[1]


def test_the_threshold_fills_no_cell_where_the_paper_states_nothing() -> None:
    fitting = _fit_script()
    rows = [
        fitting.PaperRows("stated.md", ["key"], np.zeros((1, 1)), np.ones(1), ["key"], None),
        fitting.PaperRows("silent.md", None, np.zeros((1, 1)), np.zeros(1), ["other"], None),
    ]
    chosen = [(0.9, True), (0.6, False)]
    cut = fitting.threshold(rows, chosen)
    assert 0.6 < cut <= 0.9
    assert fitting.tally(rows, chosen, cut)["made_up"] == 0
