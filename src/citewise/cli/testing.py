"""Run a command in-process with its output captured, for tests: `CliRunner().invoke(app,
["list", "--json"])` gives the exit code, stdout, stderr, both interleaved (`output`) and the
exception that ended the command, if one did."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from citewise.cli.parsing import App


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str
    output: str  # stdout and stderr as they were written, interleaved
    exception: BaseException | None


class _Tee(io.StringIO):
    """One stream's text, also written to the interleaved whole."""

    def __init__(self, whole: io.StringIO) -> None:
        super().__init__()
        self.whole = whole

    def write(self, text: str) -> int:
        self.whole.write(text)
        return super().write(text)


@contextmanager
def _environment(env: Mapping[str, str | None] | None) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in env or {}}
    try:
        for name, value in (env or {}).items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class CliRunner:
    def invoke(
        self,
        app: App,
        args: Sequence[str] = (),
        input: str | None = None,  # noqa: A002  # what the command reads on stdin
        env: Mapping[str, str | None] | None = None,
        catch_exceptions: bool = True,
    ) -> Result:
        whole = io.StringIO()
        out, err = _Tee(whole), _Tee(whole)
        streams = sys.stdin, sys.stdout, sys.stderr
        sys.stdin, sys.stdout, sys.stderr = io.StringIO(input or ""), out, err
        code, exception = 0, None
        try:
            with _environment(env):
                app(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if isinstance(exc.code, str):
                err.write(exc.code + "\n")
        except Exception as exc:
            if not catch_exceptions:
                raise
            code, exception = 1, exc
        finally:
            sys.stdin, sys.stdout, sys.stderr = streams
        return Result(code, out.getvalue(), err.getvalue(), whole.getvalue(), exception)
