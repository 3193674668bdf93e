"""The sentence that states a paper's named method (ninth session; named_statement.py): a name
bracketed after the noun an indefinite article introduces ("a model (X) for ...") is stated
with what it is; a name an experiment runs ("we evaluate our X model on three sites") is not.
"""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

BRACKETED = """# Counting Birds on Power Lines

## Abstract

Utilities want to know how many birds rest on their lines. Counting them by eye is slow, \
which led us to propose a network (PerchNet) for counting birds on power lines from drone \
footage. We evaluate our PerchNet model on three sites.

## Footage

We recorded 40 hours of footage over two summers. PerchNet runs on a laptop.
"""

EVALUATED_ONLY = """# Counting Birds on Power Lines

## Abstract

Utilities want to know how many birds rest on their lines. Our PerchNet counts birds from \
drone footage. We evaluate our PerchNet model on three sites.

## Footage

We recorded 40 hours of footage over two summers. PerchNet runs on a laptop.
"""


def _method(tmp_path: Path, paper: str) -> str:
    lib, ids = ingest(tmp_path, {"p": paper})
    return str(cells(lib, ids["p"], "method")["method"]["value"])


def test_a_name_bracketed_after_what_it_is_states_the_method(tmp_path: Path) -> None:
    value = _method(tmp_path, BRACKETED)
    assert value.startswith("a network (PerchNet) for counting birds")


def test_an_experiment_run_on_the_named_method_is_not_its_statement(tmp_path: Path) -> None:
    value = _method(tmp_path, EVALUATED_ONLY)
    assert "evaluate" not in value
