"""citewise.regex.lazy: a module-level pattern compiled on its first use, answering as
re.compile's would."""

from __future__ import annotations

import re

from citewise.regex import lazy

PATTERN = r"(?P<count>\d+)\s+(papers|blocks)"


def test_a_lazy_pattern_answers_as_the_compiled_one() -> None:
    eager, deferred = re.compile(PATTERN, re.I), lazy(PATTERN, re.I)
    text = "12 Papers and 7 blocks, 3 pages"
    assert deferred.pattern == PATTERN
    assert deferred.search(text).groupdict() == eager.search(text).groupdict()  # type: ignore[union-attr]
    assert deferred.findall(text) == eager.findall(text)
    assert [m.span() for m in deferred.finditer(text)] == [m.span() for m in eager.finditer(text)]
    assert deferred.sub("#", text) == eager.sub("#", text)
    assert deferred.split(text) == eager.split(text)
    assert deferred.match(text) is not None and deferred.fullmatch(text) is None
    assert (deferred.flags, deferred.groups, deferred.groupindex) == (
        eager.flags,
        eager.groups,
        eager.groupindex,
    )


def test_it_compiles_on_first_use_only(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    compiled: list[str] = []
    real = re.compile

    def counting(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(re, "compile", counting)
    deferred = lazy(PATTERN)
    assert compiled == []  # importing a module that defines it compiles nothing
    deferred.search("1 papers")
    deferred.search("2 blocks")
    assert compiled == [PATTERN]
