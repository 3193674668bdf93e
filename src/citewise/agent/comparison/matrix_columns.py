"""The literature matrix's default columns: the sheet a researcher keeps by hand (task,
method, datasets, metrics, main result, limitations), the six the web app's placeholder names.
A plain constant: `citewise matrix --help` shows it without loading the extraction stack."""

from __future__ import annotations

DEFAULT_COLUMNS = ("task", "method", "datasets", "metrics", "main result", "limitations")
