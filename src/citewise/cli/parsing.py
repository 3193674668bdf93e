"""The command line's own small framework: commands are plain functions whose parameters are
declared with `Annotated[type, Option(...)]` or `Argument(...)`; argparse parses.

Only the chosen command is inspected and given a parser: `citewise ask` reads the signature
of `ask` alone, and `--help` lists commands by their docstrings without reading any. (Typer,
used before, built all 36 commands for every run and checked each value through pydantic:
about 0.3 s of each command's start-up.) Help text is rendered in cli/help_text.py.
"""

from __future__ import annotations

import argparse
import inspect
import sys
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from citewise.cli.params import (
    Argument,
    BadParameter,
    Command,
    Context,
    Exit,
    Option,
    Param,
    UsageError,
)

__all__ = [
    "App",
    "Argument",
    "BadParameter",
    "Command",
    "Context",
    "Exit",
    "Option",
    "Param",
    "UsageError",
    "parse",
]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> typing.NoReturn:
        raise UsageError(message[:1].upper() + message[1:] + ".")


def parse(command: Command, args: Sequence[str], prog: str) -> dict[str, Any]:
    """The command's keyword arguments from what the user typed after its name."""
    params = command.params()
    parser = _Parser(prog=prog, add_help=False, allow_abbrev=False)
    for p in params:
        if not p.is_option:
            nargs = ("+" if p.required else "*") if p.many else (None if p.required else "?")
            parser.add_argument(p.name, nargs=nargs, metavar=p.metavar, default=p.default)
        elif p.kind is bool:
            parser.add_argument(*p.opts, dest=p.name, action="store_true", default=p.default)
        else:
            action = "append" if p.many else "store"
            parser.add_argument(
                *p.opts, dest=p.name, action=action, metavar=p.metavar, required=p.required
            )
    try:
        space = parser.parse_intermixed_args(list(args))
    except UsageError as exc:
        raise UsageError(_missing(exc.message, params), command) from None
    values = {}
    for p in params:
        given = getattr(space, p.name)
        if given is None or p.kind is bool:
            values[p.name] = p.default if given is None else given
        elif p.many:
            values[p.name] = [_convert(p, value, command) for value in given]
        else:
            values[p.name] = _convert(p, given, command)
    return values


def _missing(message: str, params: list[Param]) -> str:
    """argparse's "the following arguments are required: QUESTION" as one error a user
    reads the same way for an argument and an option."""
    prefix = "The following arguments are required: "
    if not message.startswith(prefix):
        return message
    first = message[len(prefix) :].rstrip(".").split(", ")[0]
    kind = "option" if first.startswith("-") else "argument"
    return f"Missing {kind} '{first}'."


def _convert(p: Param, text: str, command: Command) -> Any:
    label = "/".join(p.opts) if p.is_option else p.metavar
    if p.kind in (int, float):
        try:
            number = p.kind(text)
        except ValueError:
            kind = "an integer" if p.kind is int else "a number"
            raise UsageError(
                f"Invalid value for '{label}': {text!r} is not {kind}.", command
            ) from None
        low, high = (p.info.min, p.info.max) if isinstance(p.info, Option) else (None, None)
        if (low is not None and number < low) or (high is not None and number > high):
            bounds = f"{low if low is not None else ''}<=x{'<=' if high is not None else ''}"
            bounds += f"{high if high is not None else ''}"
            raise UsageError(f"Invalid value for '{label}': {number} is not in {bounds}.", command)
        return number
    return Path(text) if p.kind is Path else text


Handler = Callable[..., Any]


class App:
    """A group of commands (the `citewise` command itself, or `queue`, `tasks`, `sync`)."""

    def __init__(self, help: str | None = None, no_args_is_help: bool = False) -> None:
        self.help_text = help or ""
        self.no_args_is_help = no_args_is_help
        self.commands: dict[str, Command | App] = {}
        self.options: Command | None = None  # the callback: options given before a command
        self.invoke_without_command = False

    def command(
        self, name: str | None = None
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def register(func: Handler) -> Handler:
            chosen = name or func.__name__.replace("_", "-")
            self.commands[chosen] = Command(chosen, func)
            return func

        return register

    def callback(self, invoke_without_command: bool = False) -> Callable[[Handler], Handler]:
        def register(func: Handler) -> Handler:
            self.options = Command("", func)
            self.invoke_without_command = invoke_without_command
            return func

        return register

    def add_group(self, group: App, name: str) -> None:
        self.commands[name] = group

    def __call__(
        self,
        args: Sequence[str] | None = None,
        standalone_mode: bool = True,
        prog: str = "citewise",
    ) -> int:
        """Run what `args` (default: sys.argv[1:]) asks. Standalone, exit with its code;
        else return it (0) and let a usage error raise."""
        code = 0
        try:
            self.run(list(sys.argv[1:] if args is None else args), prog)
        except Exit as exc:
            code = exc.code
        except UsageError as exc:
            if not standalone_mode:
                raise
            from citewise.cli.help_text import usage_error

            sys.stderr.write(usage_error(exc))
            code = 2
        except KeyboardInterrupt:
            if not standalone_mode:
                raise
            sys.stderr.write("Aborted!\n")
            code = 1
        if standalone_mode:
            sys.exit(code)
        return code

    def run(self, args: list[str], prog: str) -> None:
        try:
            self._run(args, prog)
        except UsageError as exc:
            exc.prog = exc.prog or prog
            raise

    def _run(self, args: list[str], prog: str) -> None:
        from citewise.cli import help_text

        if not args and self.no_args_is_help:
            sys.stdout.write(help_text.group_help(self, prog))
            raise Exit(2)
        own, rest = self._split(args, prog)
        if "--help" in own or "-h" in own:
            sys.stdout.write(help_text.group_help(self, prog))
            raise Exit(0)
        name = rest[0] if rest else None
        chosen = self.commands.get(name) if name is not None else None
        if name is not None and chosen is None:
            raise UsageError(f"No such command '{name}'.")
        if self.options is not None:
            values = parse(self.options, own, prog)
            if "ctx" in inspect.signature(self.options.func).parameters:
                values["ctx"] = Context(name)
            self.options.func(**values)
        if chosen is None:
            if self.invoke_without_command:
                return
            sys.stdout.write(help_text.group_help(self, prog))
            raise Exit(2)
        sub_prog = f"{prog} {name}"
        if isinstance(chosen, App):
            chosen.run(rest[1:], sub_prog)
            return
        sub_args = rest[1:]
        if _asks_help(sub_args):
            sys.stdout.write(help_text.command_help(chosen, sub_prog))
            raise Exit(0)
        try:
            chosen.func(**parse(chosen, sub_args, sub_prog))
        except UsageError as exc:
            exc.command, exc.prog = exc.command or chosen, exc.prog or sub_prog
            raise

    def _split(self, args: list[str], prog: str) -> tuple[list[str], list[str]]:
        """The group's own options (before the command's name) and the rest; eager options
        (--version) act at once."""
        params = self.options.params() if self.options else []
        by_flag = {flag: p for p in params for flag in p.opts}
        own: list[str] = []
        index = 0
        while index < len(args) and args[index].startswith("-") and args[index] != "-":
            flag = args[index].split("=", 1)[0]
            if flag in ("--help", "-h"):
                return [flag], []
            p = by_flag.get(flag)
            if p is None and not flag.startswith("--") and flag[:2] in by_flag:
                flag = flag[:2]  # a short option with its value attached: -Lpath
                args[index : index + 1] = [flag, args[index][2:]]
                p = by_flag[flag]
            if p is None:
                raise UsageError(f"No such option: {flag}")
            if isinstance(p.info, Option) and p.info.is_eager and p.info.callback:
                p.info.callback(True)
            own.append(args[index])
            if p.takes_value and "=" not in args[index]:
                if index + 1 >= len(args):
                    raise UsageError(f"Option '{flag}' requires an argument.")
                own.append(args[index + 1])
                index += 1
            index += 1
        return own, args[index:]


def _asks_help(args: list[str]) -> bool:
    before = args[: args.index("--")] if "--" in args else args
    return "--help" in before or "-h" in before
