"""Per-user tokens of a shared server (`citewise serve --users users.toml`).

The file names each user, their role and the SHA-256 of their token, never the token:

    [users.alice]
    role = "write"          # read: ask, search, compare; write: also research; admin: also
                            # sees every user's tasks in GET /tasks
    token_sha256 = "9f86d0…"

`citewise user NAME --role read` prints a fresh token and the lines to add.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import tomllib
from dataclasses import dataclass
from pathlib import Path

from citewise.errors import CitewiseError

ROLES = ("read", "write", "admin")
BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")  # a TOML key that needs no quotes
TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")
MAX_NAME_CHARS = 64


class BadUsersFileError(CitewiseError):
    code = "BAD_USERS_FILE"
    kind = "invalid"


@dataclass(frozen=True)
class User:
    name: str
    role: str

    @property
    def writes(self) -> bool:
        return self.role in ("write", "admin")


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def name_problem(name: str) -> str | None:
    """Why `name` cannot name a user (None when it can)."""
    if not name.strip() or len(name) > MAX_NAME_CHARS:
        return f"a user's name has 1 to {MAX_NAME_CHARS} characters"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return "a user's name has no control characters (tabs, line breaks)"
    return None


def users_entry(name: str, role: str, token: str) -> str:
    """The TOML lines that give `name` the `role` with `token`: one table, after a blank
    line, so appending it to any users file (`>> users.toml`) keeps the file valid."""
    key = name if BARE_KEY.fullmatch(name) else json.dumps(name)  # a TOML basic string
    return f'\n[users.{key}]\nrole = "{role}"\ntoken_sha256 = "{token_digest(token)}"\n'


def _bad_toml(path: Path, text: str, exc: tomllib.TOMLDecodeError) -> BadUsersFileError:
    """The parse error naming the line, what it holds, and how to fix it."""
    found = TOML_POSITION.search(str(exc))
    number = int(found.group(1)) if found else 0
    lines = text.splitlines()
    shown = lines[number - 1][:80] if 0 < number <= len(lines) else ""
    where = f"line {number}: {shown!r}" if number else "the file"
    if "twice" in str(exc):
        hint = (
            f"a user is named twice: keep one of their entries and delete the other "
            f"(the second is at line {number})"
        )
    else:
        hint = (
            f"fix or delete line {number} of '{path}': each user is three lines, "
            '[users.NAME], role = "read" or "write", token_sha256 = "<64 hex digits>"; a '
            "line a terminal broke in two must be joined; make entries with 'citewise user "
            "NAME --role read >> FILE'"
        )
    return BadUsersFileError(
        f"the users file '{path}' is not valid TOML at {where} ({exc})", hint=hint
    )


def load_users(path: Path) -> dict[str, User]:
    """token digest -> user, from a users file (errors name the file and the entry)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadUsersFileError(
            f"cannot read the users file '{path}': {exc}", hint="give a readable UTF-8 file"
        ) from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _bad_toml(path, text, exc) from exc
    users: dict[str, User] = {}
    listed = data.get("users")
    for name, entry in (listed if isinstance(listed, dict) else {}).items():
        entry = entry if isinstance(entry, dict) else {}
        role, digest = entry.get("role", "read"), str(entry.get("token_sha256", "")).lower()
        if role not in ROLES or not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise BadUsersFileError(
                f"users file '{path}': user '{name}' needs role read, write or admin and a "
                "token_sha256 of 64 hex digits",
                hint="make an entry with 'citewise user NAME --role read'",
            )
        users[digest] = User(name, role)
    if not users:
        raise BadUsersFileError(
            f"the users file '{path}' names no user",
            hint="add one with 'citewise user NAME --role read >> FILE'",
        )
    return users
