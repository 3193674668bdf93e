"""The matrix cache's version covers every reader and word list that makes a cell, so
editing any of them recomputes cached cells instead of serving stale ones."""

from __future__ import annotations

from citewise.agent.comparison.matrix import extractor_files


def test_the_version_reads_every_reader_module_and_word_list() -> None:
    names = {p.name for p in extractor_files()}
    # readers split out of matrix_settings.py and the lists they load
    assert {"setup_reading.py", "setup_software.py", "matrix_settings.py", "patterns.py"} <= names
    assert {"matrix_cells.txt", "matrix_software.txt", "setup_names.txt"} <= names
    # lists named otherwise: the limitations, method and datasets readers' own, section roles
    assert {"limitation_words.txt", "method_elaboration.txt", "datasets_words.txt"} <= names
    assert "section_roles.yaml" in names
    assert all(p.is_file() for p in extractor_files())
