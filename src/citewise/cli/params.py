"""What a command of the command line is made of: its parameters (`Option`, `Argument`,
`Param`), the command itself, and the ways out (`Exit`, `UsageError`). cli/parsing.py parses
with them and cli/help_text.py renders them; both import this module, neither the other's
types."""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class Exit(Exception):  # noqa: N818  # a way out, not an error
    """Leave the command with this exit code (0 unless given)."""

    def __init__(self, code: int = 0) -> None:
        super().__init__(code)
        self.code = code


class UsageError(Exception):
    """What the user typed cannot run: the usage line, the error, exit code 2."""

    def __init__(self, message: str, command: Command | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.command = command  # whose usage line to show (None: the group's)
        self.prog = ""  # "citewise ask": set where the error is caught


class BadParameter(UsageError):
    """A value a command refuses after parsing, named by `param_hint` (an option) if given."""

    def __init__(self, message: str, param_hint: str | None = None) -> None:
        hint = f" for {param_hint}" if param_hint else ""
        super().__init__(f"Invalid value{hint}: {message}")


@dataclass
class Context:
    """Given to a group's callback that declares it: which subcommand follows, if any."""

    invoked_subcommand: str | None = None


class Option:
    """An option's spellings (`"--library", "-L"`), help, value name and bounds; an eager
    option's callback acts when seen, before anything else is parsed (`--version`)."""

    def __init__(
        self,
        *decls: str,
        help: str | None = None,  # noqa: A002  # the word every CLI library uses
        metavar: str | None = None,
        min: float | None = None,  # noqa: A002
        max: float | None = None,  # noqa: A002
        callback: Callable[[Any], Any] | None = None,
        is_eager: bool = False,
    ) -> None:
        self.decls, self.help, self.metavar = decls, help, metavar
        self.min, self.max, self.callback, self.is_eager = min, max, callback, is_eager


@dataclass(frozen=True)
class Argument:
    help: str | None = None
    metavar: str | None = None


@dataclass
class Param:
    """One parameter of a command as the parser and the help see it."""

    name: str  # the Python parameter
    kind: type  # str, int, float, bool or Path (a list's item type when `many`)
    info: Option | Argument
    default: Any
    required: bool
    many: bool = False

    @property
    def is_option(self) -> bool:
        return isinstance(self.info, Option)

    @property
    def opts(self) -> tuple[str, ...]:
        return self.info.decls if isinstance(self.info, Option) else ()

    @property
    def help(self) -> str | None:
        return self.info.help

    @property
    def metavar(self) -> str:
        """What follows an option in help (`--aspects ASPECTS`), or an argument's name."""
        if self.info.metavar:
            return self.info.metavar
        return self.name.upper().replace("_", "-")

    @property
    def takes_value(self) -> bool:
        return not (self.is_option and self.kind is bool)


@dataclass
class Command:
    name: str
    func: Callable[..., Any]
    _params: list[Param] | None = field(default=None, repr=False)

    @property
    def help(self) -> str:
        return inspect.getdoc(self.func) or ""

    def params(self) -> list[Param]:
        """The function's parameters, read from its signature the first time asked."""
        if self._params is None:
            self._params = _read_params(self.func)
        return self._params


def _read_params(func: Callable[..., Any]) -> list[Param]:
    hints = typing.get_type_hints(func, include_extras=True)
    params = []
    for name, parameter in inspect.signature(func).parameters.items():
        hint = hints.get(name, str)
        if hint is Context:
            continue
        info: Option | Argument | None = None
        if typing.get_origin(hint) is typing.Annotated:
            hint, *extras = typing.get_args(hint)
            info = next((e for e in extras if isinstance(e, Option | Argument)), None)
        empty = parameter.default is inspect.Parameter.empty
        if info is None:
            info = Argument() if empty else Option(f"--{name.replace('_', '-')}")
        kind, many = _kind(hint, func, name)
        default = None if empty else parameter.default
        params.append(Param(name, kind, info, default, required=empty, many=many))
    return params


def _kind(hint: Any, func: Callable[..., Any], name: str) -> tuple[type, bool]:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        if len(args) != 1:
            raise TypeError(f"{func.__name__}({name}): one type or None, not {hint}")
        hint, args = args[0], list(typing.get_args(args[0]))
    if typing.get_origin(hint) is list:
        (item,) = args
        return _kind(item, func, name)[0], True
    if hint in (str, int, float, bool, Path):
        return hint, False
    raise TypeError(f"{func.__name__}({name}): the command line reads no {hint}")
