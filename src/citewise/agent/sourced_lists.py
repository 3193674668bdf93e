"""Word lists kept as data files: "[name]" headers, each list with a "# from:" provenance
line, one entry a line (agent/data/*.txt). One reader for every such file."""

from __future__ import annotations

from collections.abc import Iterable

from citewise.errors import CitewiseError

HINT = "give every list a [name] header and a '# from:' provenance line"


def read_lists(text: str) -> tuple[dict[str, list[str]], set[str]]:
    """Each list's entry lines (stripped, in file order), and the names of the lists that
    carry a provenance line."""
    lists: dict[str, list[str]] = {}
    sourced: set[str] = set()
    current: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
            lists[current] = []
        elif line.startswith("# from:") and current is not None:
            sourced.add(current)
        elif line and not line.startswith("#") and current is not None:
            lists[current].append(line)
    return lists, sourced


def sourced_lists(text: str, source: str, required: Iterable[str]) -> dict[str, list[str]]:
    """`read_lists`' lists, after checking every required one is there with its provenance
    (CUES_INVALID naming those that are not)."""
    lists, sourced = read_lists(text)
    missing = [n for n in required if n not in lists or n not in sourced]
    if missing:
        raise CitewiseError(
            f"{source}: the list(s) {', '.join(missing)} are missing or lack a '# from:' line",
            hint=HINT,
            code="CUES_INVALID",
        )
    return lists
