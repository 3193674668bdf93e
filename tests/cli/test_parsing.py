"""The command line's own parser (cli/parsing.py): what a user types becomes the command's
arguments, a mistake is one usage error (exit 2), and every citewise command is readable."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import pytest

from citewise.cli import parsing as cli
from citewise.cli.help_text import command_help, group_help
from citewise.cli.testing import CliRunner

seen: dict[str, object] = {}
tool = cli.App(help="A tool to try the parser on.", no_args_is_help=True)
jobs = cli.App(help="Jobs.")
tool.add_group(jobs, name="jobs")


@tool.callback()
def options(
    where: Annotated[str | None, cli.Option("--where", "-W", metavar="DIR")] = None,
) -> None:
    seen["where"] = where


@tool.command()
def take(
    files: Annotated[list[Path], cli.Argument(help="Files to take.")],
    limit: Annotated[int, cli.Option("-n", min=1, max=9, metavar="N", help="At most.")] = 3,
    tag: Annotated[list[str] | None, cli.Option("--tag", help="Repeatable.")] = None,
    as_json: Annotated[bool, cli.Option("--json", help="JSON.")] = False,
    out: Annotated[Path, cli.Option("--out", help="Where to.")] = Path("x"),
) -> None:
    """Take files. Then more words that the listing leaves out."""
    seen.update(files=files, limit=limit, tag=tag, as_json=as_json, out=out)


@tool.command("must-name")
def must_name(out: Annotated[Path, cli.Option("--out")]) -> None:
    """An option without a default is required."""
    seen["out"] = out


@jobs.callback(invoke_without_command=True)
def jobs_list(ctx: cli.Context, as_json: Annotated[bool, cli.Option("--json")] = False) -> None:
    seen["listed"] = ctx.invoked_subcommand is None


@jobs.command("show")
def show(job: Annotated[str, cli.Argument()]) -> None:
    seen["job"] = job


def run(*args: str) -> tuple[int, str, str]:
    seen.clear()
    result = CliRunner().invoke(tool, list(args))
    assert result.exception is None, result.exception
    return result.exit_code, result.stdout, result.stderr


def test_options_and_arguments_mix_in_any_order() -> None:
    code, _, _ = run("-W", "lib", "take", "a.pdf", "--tag", "x", "b.pdf", "-n", "5", "--tag=y")
    assert code == 0
    assert seen == {
        "where": "lib",
        "files": [Path("a.pdf"), Path("b.pdf")],
        "limit": 5,
        "tag": ["x", "y"],
        "as_json": False,
        "out": Path("x"),
    }
    assert run("-Wlib", "take", "c.pdf")[0] == 0 and seen["where"] == "lib"
    run("take", "c.pdf", "--json")
    assert seen["tag"] is None and seen["as_json"] is True and seen["limit"] == 3


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["take", "a", "-n", "0"], "Invalid value for '-n': 0 is not in 1<=x<=9."),
        (["take", "a", "-n", "two"], "Invalid value for '-n': 'two' is not an integer."),
        (["take"], "Missing argument 'FILES'."),
        (["must-name"], "Missing option '--out'."),
        (["take", "a", "--bogus"], "Unrecognized arguments: --bogus."),
        (["nothing"], "No such command 'nothing'."),
        (["--bogus", "take"], "No such option: --bogus"),
    ],
)
def test_a_mistake_is_one_usage_error(args: list[str], error: str) -> None:
    code, out, err = run(*args)
    assert (code, out) == (2, "")
    assert err.startswith("Usage: citewise ") and err.endswith(f"\n\nError: {error}\n"), err
    assert seen.get("files") is None  # the command never ran


def test_help_is_printed_before_anything_is_checked() -> None:
    code, out, _ = run("take", "--help")
    assert code == 0 and "files" not in seen
    assert out.startswith("Usage: citewise take [OPTIONS] FILES...\n")
    assert "-n N" in out and "[default: 3]" in out and "--tag TAG" in out and "--json " in out
    code, out, _ = run()
    assert code == 2 and "\n  take       Take files.\n" in out  # its first sentence only


def test_a_group_runs_its_callback_and_its_commands() -> None:
    assert run("jobs")[0] == 0 and seen["listed"] is True
    assert run("jobs", "--json", "show", "7")[0] == 0
    assert seen == {"where": None, "listed": False, "job": "7"}


def test_every_citewise_command_declares_types_the_parser_reads() -> None:
    from citewise.cli import app

    def walk(group: cli.App, prog: str) -> int:
        count = 0
        for name, sub in group.commands.items():
            if isinstance(sub, cli.App):
                assert group_help(sub, f"{prog} {name}").startswith("Usage:")
                count += walk(sub, f"{prog} {name}")
            else:
                text = command_help(sub, f"{prog} {name}")  # reads the signature
                assert "<" not in text.split("\n\n")[0], text  # no Python type in the usage
                assert all(p.opts or not p.is_option for p in sub.params())
                count += 1
        return count

    assert walk(app, "citewise") > 30
