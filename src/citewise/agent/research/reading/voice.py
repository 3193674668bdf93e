"""The report's voice: how it names a paper ("Lo et al. (2020)") and attributes a quote to
the papers that make its claim ("Lo et al. (2020) write:"). Pure functions."""

from __future__ import annotations

from typing import Any


def short_cite(csl: dict[str, Any]) -> str:
    """ "Lo et al. (2020)" from a CSL item; the title when it names no author."""
    authors = csl.get("author") or []
    year = ((csl.get("issued") or {}).get("date-parts") or [[None]])[0][0]
    if not authors:
        name = str(csl.get("title") or csl.get("id"))
        name = name if len(name) < 60 else name[:57] + "…"
    else:
        first = authors[0].get("family") or authors[0].get("literal") or "Anonymous"
        if len(authors) == 1:
            name = first
        elif len(authors) == 2:
            name = f"{first} and {authors[1].get('family', '')}"
        else:
            name = f"{first} et al."
    return f"{name} ({year})" if year else name


def _plural(name: str) -> bool:
    """Whether a short citation names several authors ("Lo et al. (2020)", "Lo and Wang",
    "the authors of …")."""
    bare = name.split(" (")[0]
    return bare.endswith("et al.") or " and " in bare or bare.lower().startswith("the authors")


def attribution(names: list[str], again: bool = False) -> str:
    """Who says a quote, in the report's voice: "Lo et al. (2020) write:", "... also write:"
    for the same paper's next quote (`again`), or with the papers that make the same claim,
    "Lo et al. (2020) write (and Ammar et al. (2018) likewise):"."""
    first = names[0][0].upper() + names[0][1:]
    verb = "write" if _plural(first) else "writes"
    verb = f"also {verb}" if again else verb
    if len(names) == 1:
        return f"{first} {verb}:"
    others = listed(names[1:])
    return f"{first} {verb} (and {others} likewise):"


def listed(labels: list[str]) -> str:
    return ", ".join(labels[:-1]) + (" and " if len(labels) > 1 else "") + labels[-1]
