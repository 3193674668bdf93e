"""The bearer token comes from $CITEWISE_TOKEN or --token-file, so it never shows in the
process list; --token still works (with a warning)."""

from __future__ import annotations

from pathlib import Path

from tests.server.conftest import make_library, start

SECRET = "tok-7f3a9c-never-in-ps"


def cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def guarded_cmdline(library: Path, *extra: str, env: dict[str, str] | None = None) -> str:
    """Serve with a token given by `extra` or `env`, check it is required, and return the
    server's command line as `ps` shows it."""
    served = start(library, *extra, env=env)
    server = next(served)
    try:
        with server.client() as anonymous, server.client(SECRET) as http:
            assert anonymous.get("/documents").status_code == 401
            assert http.get("/documents").status_code == 200
        return cmdline(server.process.pid)
    finally:
        served.close()


def test_token_from_the_environment_or_a_file_stays_out_of_ps(tmp_path: Path) -> None:
    library = make_library(tmp_path)
    token_file = tmp_path / "token"
    token_file.write_text(f"{SECRET}\n")
    from_env = guarded_cmdline(library, env={"CITEWISE_TOKEN": SECRET})
    from_file = guarded_cmdline(library, "--token-file", str(token_file))
    assert "serve" in from_env and "--token-file" in from_file
    assert SECRET not in from_env and SECRET not in from_file
