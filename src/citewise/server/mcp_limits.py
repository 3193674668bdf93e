"""The request limits of `citewise serve`, applied to MCP tool calls (stdio and HTTP alike):
the same caps on a question's length, a topic's, an id's and a list's items, the same bounds
on `k`, and no NUL byte in any text. A call past one is refused before it reaches the
library, with the code HTTP answers for the same request."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from citewise.errors import CitewiseError
from citewise.server.limits import MAX_ID_CHARS, MAX_LIST_ITEMS, MAX_QUESTION_CHARS, MAX_TOPIC_CHARS
from citewise.server.nul_bytes import has_nul, nul_error

TEXTS = {"question": MAX_QUESTION_CHARS, "query": MAX_QUESTION_CHARS, "topic": MAX_TOPIC_CHARS}
IDS = ("document_id", "block_id", "task_id", "document", "label", "number")
ID_LISTS = ("documents",)
# Lists with a cap of their own (as CompareRequest, MatrixRequest); others MAX_LIST_ITEMS
MOST_ITEMS = {"aspects": 50, "columns": 50}
# The largest k each tool takes (as POST /ask and GET /search)
MOST_K = {"ask": 50, "search_library": 100}


class InvalidToolRequestError(CitewiseError):
    code = "INVALID_REQUEST"
    kind = "invalid"


def _long_id(value: object) -> bool:
    return isinstance(value, str) and len(value) > MAX_ID_CHARS


def check_arguments(tool: str, arguments: Mapping[str, Any]) -> None:
    """Refuse `arguments` of `tool` past a limit of the HTTP API (InvalidToolRequestError)
    or holding a NUL byte (NulByteError)."""
    if has_nul(dict(arguments)):
        raise nul_error(f"arguments of {tool}")
    problems = []
    for name, most in TEXTS.items():
        value = arguments.get(name)
        if isinstance(value, str) and len(value) > most:
            problems.append(f"{name} is {len(value)} characters, at most {most}")
    for name in IDS:
        value = arguments.get(name)
        if isinstance(value, str) and len(value) > MAX_ID_CHARS:
            problems.append(f"{name} is over {MAX_ID_CHARS} characters")
    for name, value in arguments.items():
        most = MOST_ITEMS.get(name, MAX_LIST_ITEMS)
        if isinstance(value, list) and len(value) > most:
            problems.append(f"{name} has {len(value)} items, at most {most}")
        elif name in ID_LISTS and isinstance(value, list) and any(_long_id(v) for v in value):
            problems.append(f"an id in {name} is over {MAX_ID_CHARS} characters")
    k, most_k = arguments.get("k"), MOST_K.get(tool)
    if most_k is not None and isinstance(k, int) and not 1 <= k <= most_k:
        problems.append(f"k is {k}, from 1 to {most_k}")
    if problems:
        raise InvalidToolRequestError(
            f"{tool}: {'; '.join(problems)}",
            hint="the same limits as the HTTP API: a shorter question, fewer documents",
        )
