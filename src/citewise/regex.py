"""Regular expressions compiled on first use.

A module-level `re.compile` runs when the module is imported, for every command that
imports it: `ask` imports the number, unit, table, count and filing readers for every
question, and most questions use few of their patterns (compiling them all took tens of
ms of each `ask`). `lazy(...)` stands where `re.compile(...)` stood and compiles on the
first use; from then on its matching methods are the compiled pattern's own, so a call
costs what it did.
"""

from __future__ import annotations

import re
from typing import cast

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class _Deferred:
    """Compiles `pattern` when an attribute it lacks is first asked for."""

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern  # (what the compiled pattern's `.pattern` says)
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> object:
        # reached only for what is not set yet: the matching methods before the first use,
        # any other attribute of a Pattern (flags, groups, groupindex) every time
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self._flags)
            for method in _METHODS:
                setattr(self, method, getattr(self._compiled, method))
        return getattr(self._compiled, name)


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, compiled on first use. It answers a Pattern's methods
    and attributes; it is no `re.Pattern` instance, so it goes where its methods are called
    (`NAME.search(...)`), not into `re.sub(NAME, ...)` or an isinstance check."""
    return cast("re.Pattern[str]", _Deferred(pattern, flags))
