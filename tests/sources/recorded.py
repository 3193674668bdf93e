"""Reading the recorded responses in ../shared/fixtures/literature, whatever their format:
arxiv.py golden JSON, vcrpy cassettes (gzip bodies included), R vcr cassettes, raw bodies."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests.conftest import SHARED

LITERATURE = SHARED / "fixtures" / "literature"
CSL_SCHEMA = LITERATURE / "schema" / "csl-data.json"


@dataclass(frozen=True)
class Recorded:
    """One recorded HTTP exchange."""

    url: str
    status: int
    headers: dict[str, str]
    body: bytes


def fixture_files() -> list[Path]:
    """Every recorded response file (the schema and notes excluded)."""
    if not LITERATURE.is_dir():
        return []
    return sorted(
        p
        for p in LITERATURE.rglob("*")
        if p.is_file()
        and p.suffix in {".json", ".xml", ".yaml", ".yml"}
        and "schema" not in p.parts
    )


def _headers(raw: dict[str, Any] | None) -> dict[str, str]:
    out = {}
    for key, value in (raw or {}).items():
        out[key.lower()] = value[0] if isinstance(value, list) and value else str(value)
    return out


def _bytes(value: Any, headers: dict[str, str]) -> bytes:
    data = value if isinstance(value, bytes) else str(value or "").encode("utf-8")
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data


def load(path: Path) -> list[Recorded]:
    """The exchanges recorded in one file."""
    name = path.name
    if name.endswith(".vcr.yaml"):
        data = yaml.safe_load(path.read_text("utf-8"))
        out = []
        for item in data["interactions"]:
            request, response = item["request"], item["response"]
            status = response.get("status", response.get("status_code"))
            code = status["code"] if isinstance(status, dict) else int(status)
            headers = _headers(response.get("headers"))
            raw = response["body"]["string"] if "body" in response else response.get("content")
            out.append(
                Recorded(
                    request.get("uri") or request.get("url"), code, headers, _bytes(raw, headers)
                )
            )
        return out
    if name.endswith(".rvcr.yml"):
        data = yaml.safe_load(path.read_text("utf-8"))
        out = []
        for item in data["http_interactions"]:
            request, response = item["request"], item["response"]
            headers = _headers(response.get("headers"))
            out.append(
                Recorded(
                    request["uri"],
                    int(response["status"]["status_code"]),
                    headers,
                    _bytes(response["body"].get("string"), headers),
                )
            )
        return out
    if path.parent.name == "arxiv" and path.suffix == ".json":
        data = json.loads(path.read_text("utf-8"))
        # arxiv.py stores the raw bytes decoded as latin-1.
        return [
            Recorded(
                data["url"],
                data["status_code"],
                {"content-type": "application/atom+xml"},
                data["body"].encode("latin-1"),
            )
        ]
    content_type = "application/json" if path.suffix == ".json" else "application/xml"
    return [Recorded(str(path), 200, {"content-type": content_type}, path.read_bytes())]
