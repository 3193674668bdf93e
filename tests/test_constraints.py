"""Locked installs (issue 35): constraints.txt pins every package pyproject.toml names, in the
runtime and in every extra, and the three ways citewise gets installed (the quickstart,
`make test`, CI) install under it. scripts/check_constraints.sh checks that it installs."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# pinned where they are installed: .ci/run installs torch's CPU build and builds llama-cpp-python
PINNED_APART = {"torch", "llama-cpp-python"}


def _name(requirement: str) -> str:
    bare = re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", bare).lower()


def _pins() -> dict[str, str]:
    lines = (ROOT / "constraints.txt").read_text().splitlines()
    return {
        _name(line): line.split("==", 1)[1]
        for line in lines
        if line.strip() and not line.startswith("#")
    }


def test_every_package_pyproject_names_is_pinned() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    named = {_name(r) for r in project["dependencies"]}
    for requirements in project["optional-dependencies"].values():
        named |= {_name(r) for r in requirements}
    named.discard("citewise")  # the extras that name other extras
    pins = _pins()
    assert sorted(named - PINNED_APART - set(pins)) == []
    assert not PINNED_APART & set(pins)
    assert all(re.fullmatch(r"[\w.+!-]+", version) for version in pins.values())


def test_the_quickstart_make_test_and_ci_install_under_the_constraints() -> None:
    quickstart = (ROOT / "examples" / "quickstart.sh").read_text()
    makefile = (ROOT / "Makefile").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    for script in (quickstart, makefile, ci):
        installs = [
            line
            for line in script.splitlines()
            if "pip install" in line and not line.lstrip().startswith("#")
        ]
        assert installs
        # every install of citewise or a package the constraints pin uses them (torch apart)
        for line in installs:
            assert "-c constraints.txt" in line or "torch==" in line, line
