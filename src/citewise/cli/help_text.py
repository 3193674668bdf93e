"""Help and usage errors of the command line (cli/parsing.py): plain text, flags as flags
(`--json`, `--aspects ASPECTS`), arguments by name (`DOCS...`), wrapped to the terminal."""

from __future__ import annotations

import inspect
import shutil
import textwrap
from typing import TYPE_CHECKING, Any, Protocol

from citewise.cli.params import Command, Param, UsageError

if TYPE_CHECKING:
    from collections.abc import Mapping


class App(Protocol):
    """A group of commands as help reads it (cli/parsing.py `App`)."""

    @property
    def commands(self) -> Mapping[str, Any]: ...
    @property
    def options(self) -> Command | None: ...
    @property
    def help_text(self) -> str: ...


HELP_LINE = ("--help", "Show this message and exit.")


def width() -> int:
    return max(40, min(80, shutil.get_terminal_size((80, 24)).columns))


def paragraphs(text: str, indent: str = "  ") -> str:
    """Each blank-line-separated paragraph rewrapped and indented."""
    blocks = [" ".join(block.split()) for block in text.strip().split("\n\n")]
    wrap = width() - len(indent)
    return "\n\n".join(textwrap.fill(b, wrap, initial_indent=indent, subsequent_indent=indent)
                       for b in blocks if b)  # fmt: skip


def rows(items: list[tuple[str, str]]) -> str:
    """Two columns: a name and its help, the help wrapped beside the names."""
    left = min(max((len(name) for name, _ in items), default=0), 30)
    lines = []
    for name, text in items:
        wrapped = textwrap.wrap(text, max(20, width() - left - 6)) or [""]
        if len(name) > left:
            lines.append(f"  {name}")
            first = []
        else:
            first = [f"  {name.ljust(left)}  {wrapped.pop(0)}".rstrip()]
        lines.extend(first + [f"  {'':{left}}  {more}" for more in wrapped])
    return "\n".join(lines)


def short(text: str, room: int) -> str:
    """A command's help shortened for the listing: its first sentence, cut at a word."""
    first = " ".join(text.strip().split("\n\n")[0].split())
    end = first.find(". ")
    if end != -1:
        first = first[: end + 1]
    if len(first) <= room:
        return first
    cut = first[: room - 3].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "..."


def argument_name(p: Param) -> str:
    name = p.metavar + ("..." if p.many else "")
    return name if p.required else f"[{name}]"


def usage_line(prog: str, command: Command | None) -> str:
    if command is None or not command.name:
        return f"Usage: {prog} [OPTIONS] COMMAND [ARGS]..."
    arguments = [argument_name(p) for p in command.params() if not p.is_option]
    return " ".join([f"Usage: {prog} [OPTIONS]", *arguments])


def option_rows(params: list[Param]) -> list[tuple[str, str]]:
    found = []
    for p in params:
        if not p.is_option:
            continue
        name = ", ".join(sorted(p.opts, key=lambda flag: flag.startswith("--")))
        if p.takes_value:
            name += f" {p.metavar}"
        text = p.help or ""
        if p.required:
            text += "  [required]"
        elif p.default not in (None, False, "", ()) and not p.many:
            text += f"  [default: {p.default}]"
        found.append((name, text.strip()))
    return [*found, HELP_LINE]


def command_help(command: Command, prog: str) -> str:
    parts = [usage_line(prog, command), paragraphs(command.help)]
    arguments = [p for p in command.params() if not p.is_option]
    if arguments:
        shown = [(argument_name(p).strip("[]"), f"{p.help or ''}"
                  + ("  [required]" if p.required else "")) for p in arguments]  # fmt: skip
        parts.append("Arguments:\n" + rows([(name, text.strip()) for name, text in shown]))
    parts.append("Options:\n" + rows(option_rows(command.params())))
    return "\n\n".join(part for part in parts if part) + "\n"


def group_help(group: App, prog: str) -> str:
    options = group.options.params() if group.options else []
    parts = [usage_line(prog, None), paragraphs(group.help_text or _doc(group))]
    parts.append("Options:\n" + rows(option_rows(options)))
    if group.commands:
        room = width() - max(len(name) for name in group.commands) - 6
        listed = [(name, short(_help_of(sub), room)) for name, sub in group.commands.items()]
        parts.append("Commands:\n" + rows(listed))
    return "\n\n".join(part for part in parts if part) + "\n"


def _doc(group: App) -> str:
    return (inspect.getdoc(group.options.func) or "") if group.options else ""


def _help_of(sub: Command | App) -> str:
    if isinstance(sub, Command):
        return sub.help
    return sub.help_text or _doc(sub)


def usage_error(error: UsageError) -> str:
    prog = error.prog or "citewise"
    return (
        f"{usage_line(prog, error.command)}\n"
        f"Try '{prog} --help' for help.\n\n"
        f"Error: {error.message}\n"
    )
