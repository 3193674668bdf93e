"""Per-user tokens of a shared server (`citewise serve --users users.toml`).

The file names each user, their role and the SHA-256 of their token, never the token:

    [users.alice]
    role = "write"          # read: ask, search, read tasks; write: also start/cancel research
    token_sha256 = "9f86d0…"

`citewise user NAME --role read` prints a fresh token and the lines to add.
"""

from __future__ import annotations

import hashlib
import secrets
import tomllib
from dataclasses import dataclass
from pathlib import Path

from citewise.errors import CitewiseError

ROLES = ("read", "write")


class BadUsersFileError(CitewiseError):
    code = "BAD_USERS_FILE"
    kind = "invalid"


@dataclass(frozen=True)
class User:
    name: str
    role: str

    @property
    def writes(self) -> bool:
        return self.role == "write"


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def users_entry(name: str, role: str, token: str) -> str:
    """The TOML lines that give `name` the `role` with `token`."""
    return f'[users.{name}]\nrole = "{role}"\ntoken_sha256 = "{token_digest(token)}"\n'


def load_users(path: Path) -> dict[str, User]:
    """token digest -> user, from a users file (errors name the file and the entry)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BadUsersFileError(
            f"cannot read the users file '{path}': {exc}", hint="see docs/teams.md"
        ) from exc
    users: dict[str, User] = {}
    for name, entry in (data.get("users") or {}).items():
        role, digest = entry.get("role", "read"), str(entry.get("token_sha256", "")).lower()
        if role not in ROLES or len(digest) != 64:
            raise BadUsersFileError(
                f"users file '{path}': user '{name}' needs role read|write and a token_sha256",
                hint="make an entry with 'citewise user NAME --role read'",
            )
        users[digest] = User(name, role)
    if not users:
        raise BadUsersFileError(f"the users file '{path}' names no user", hint="")
    return users
