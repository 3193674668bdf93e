"""Fitted values shipped as data files (agent/data/*.json: weights, thresholds and bins that the
fitting scripts write). One reader for such a file, one way to turn its malformed contents into
the file's own CitewiseError, and one stack through which a fitting script or a test puts
another fitted value in use inside a block."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Any, Generic, TypeVar

from citewise.errors import CitewiseError

T = TypeVar("T")


def shipped_text(name: str) -> str:
    """The text of the data file `name` shipped in agent/data/."""
    return resources.files("citewise.agent").joinpath("data", name).read_text("utf-8")


def shipped_json(name: str) -> Any:
    """The parsed JSON of the data file `name` shipped in agent/data/."""
    return json.loads(shipped_text(name))


@dataclass(frozen=True)
class FittedFile:
    """A shipped JSON file of fitted values and the one error its readers raise: `code`, and a
    `hint` naming the script that refits it."""

    name: str  # in agent/data/
    malformed: str  # the message's start when a value is missing or of the wrong kind
    code: str
    hint: str

    def read(self) -> Any:
        """The file's parsed JSON."""
        return shipped_json(self.name)

    @contextmanager
    def parsing(self) -> Iterator[None]:
        """Inside the block, a missing key or a value of the wrong kind (KeyError, TypeError,
        ValueError, AssertionError) is this file's error, naming what went wrong."""
        try:
            yield
        except (KeyError, TypeError, ValueError, AssertionError) as exc:
            raise CitewiseError(f"{self.malformed}: {exc}", code=self.code, hint=self.hint) from exc

    def mismatch(self, message: str) -> CitewiseError:
        """This file's error for values that parse but do not fit together or with the code
        (`message` says how)."""
        return CitewiseError(message, code=self.code, hint=self.hint)


class InUse(Generic[T]):
    """The fitted value readers use: `shipped()`'s, unless `holding` has put another in use."""

    def __init__(self, shipped: Callable[[], T]) -> None:
        self._shipped = shipped
        self._stack: list[T] = []

    def current(self) -> T:
        """The value put in use last, else the shipped one."""
        return self._stack[-1] if self._stack else self._shipped()

    @contextmanager
    def holding(self, value: T) -> Iterator[T]:
        """A block inside which `value` is in use (blocks nest; the outer value is back after)."""
        self._stack.append(value)
        try:
            yield value
        finally:
            self._stack.pop()
