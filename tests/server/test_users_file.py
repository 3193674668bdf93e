"""`citewise user NAME --role R >> users.toml`, run as a real process with stdout redirected to
the file, makes a file `serve --users` reads, however narrow the terminal; a bad file is
refused with its line and the fix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from citewise.server.users import BadUsersFileError, load_users, token_digest
from tests.server.conftest import environment

LONG_NAME = "research-group-member-with-a-rather-long-login-name"  # past any narrow width


def add_user(users: Path, name: str, role: str, columns: str = "20") -> tuple[int, str]:
    """`citewise user NAME --role ROLE >> users` (exit code, stderr); COLUMNS narrows Rich."""
    with users.open("a", encoding="utf-8") as appended:
        done = subprocess.run(
            [sys.executable, "-m", "citewise", "user", name, "--role", role],
            stdout=appended,
            stderr=subprocess.PIPE,
            env=environment(COLUMNS=columns, TERM="xterm"),
            timeout=60,
            check=False,
        )
    return done.returncode, done.stderr.decode()


def token_from(stderr: str) -> str:
    return stderr.strip().splitlines()[-1].rsplit(": ", 1)[1]


def test_each_call_appends_one_entry_serve_can_read(tmp_path: Path) -> None:
    users = tmp_path / "users.toml"
    users.write_text('# our lab\n[users.carol]\nrole = "read"\ntoken_sha256 = "' + "a" * 64 + '"')
    tokens = {}
    for name, role in ((LONG_NAME, "write"), ("bob", "read"), ("Dr. Émile Zola", "read")):
        code, stderr = add_user(users, name, role)
        assert code == 0, stderr
        tokens[name] = token_from(stderr)
    known = load_users(users)
    assert {u.name: u.role for u in known.values()} == {
        "carol": "read",
        LONG_NAME: "write",
        "bob": "read",
        "Dr. Émile Zola": "read",
    }
    for name, token in tokens.items():
        assert known[token_digest(token)].name == name
    assert all(len(line) < 120 for line in users.read_text().splitlines())


def test_a_name_that_cannot_be_a_user_is_refused_before_any_token(tmp_path: Path) -> None:
    users = tmp_path / "users.toml"
    code, stderr = add_user(users, "two\nlines", "read")
    assert code != 0 and "control characters" in stderr
    assert users.read_text() == ""


@pytest.mark.parametrize(
    ("text", "line", "fix"),
    [
        # a digest a terminal wrapped onto a line of its own
        ('[users.alice]\nrole = "read"\ntoken_sha256 = "\n' + "b" * 64 + '"\n', 3, "joined"),
        # the same user appended twice
        (2 * ('[users.alice]\nrole = "read"\ntoken_sha256 = "' + "c" * 64 + '"\n'), 4, "twice"),
    ],
)
def test_a_bad_users_file_names_its_line_and_the_fix(
    tmp_path: Path, text: str, line: int, fix: str
) -> None:
    users = tmp_path / "users.toml"
    users.write_text(text)
    with pytest.raises(BadUsersFileError) as refused:
        load_users(users)
    assert f"line {line}" in refused.value.message and fix in refused.value.hint


def test_serve_refuses_a_bad_users_file_with_the_line(tmp_path: Path) -> None:
    users = tmp_path / "users.toml"
    users.write_text('[users.alice]\nrole = "read"\ntoken_sha256 = "\n' + "b" * 64 + '"\n')
    done = subprocess.run(
        [sys.executable, "-m", "citewise", "--library", str(tmp_path / "lib"), "serve"]
        + ["--users", str(users), "--port", "0"],
        capture_output=True,
        env=environment(),
        timeout=60,
        check=False,
    )
    said = done.stderr.decode()
    assert done.returncode == 2  # errors.py: kind invalid
    assert "BAD_USERS_FILE" in said and "line 3" in said and "Traceback" not in said
