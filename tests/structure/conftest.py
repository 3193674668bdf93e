from __future__ import annotations

from pathlib import Path

import pytest

from tests.structure.paper import write_structured_paper


@pytest.fixture
def structured_pdf(tmp_path: Path) -> Path:
    return write_structured_paper(tmp_path / "echo.pdf")
