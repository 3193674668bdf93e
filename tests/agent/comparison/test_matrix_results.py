"""The main-result cell on Markdown papers the test writes: a finding with a number, stated
with the verb of a measured change, not the motivation the abstract opens with."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

MOTIVATED = """# Forecasting Bike Rentals From Weather

## Abstract

Bike-sharing schemes lose money when stations run empty, and better forecasts would improve \
how operators rebalance their fleets. We forecast hourly rentals from weather reports. Our \
forecaster reduces the mean absolute error by 18% compared with a seasonal baseline.
"""


def test_a_main_result_is_a_finding_with_a_number_not_the_motivation(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"bikes": MOTIVATED})
    value = str(cells(lib, ids["bikes"], "main result")["main result"]["value"])
    assert "18%" in value
    assert "lose money" not in value
