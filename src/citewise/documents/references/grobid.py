"""Optional GROBID backend for bibliographies, for users who run a GROBID server.

Set `CITEWISE_GROBID_URL` (e.g. http://localhost:8070) and ingest sends each PDF to
`/api/processReferences`; the TEI it returns replaces the built-in bibliography parsing.
When the server is down or answers badly, ingest warns and keeps the built-in parse.
"""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from citewise.documents.model import Reference
from citewise.documents.references.entries import TextBlock

if TYPE_CHECKING:
    import httpx

TEI = "{http://www.tei-c.org/ns/1.0}"
TIMEOUT = 120.0


class GrobidError(Exception):
    pass


@dataclass
class GrobidCall:
    """One request, for the audit log."""

    url: str
    status: int | None
    latency_ms: float
    error: str | None = None


class GrobidClient:
    """A GROBID server; `transport` lets tests replay recorded responses."""

    def __init__(self, base_url: str, transport: httpx.BaseTransport | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.transport = transport
        self.calls: list[GrobidCall] = []

    @classmethod
    def from_url(cls, url: str) -> GrobidClient | None:
        """The server at `url` (ParseOptions.grobid_url), or None when none is set."""
        return cls(url.strip()) if url.strip() else None

    def references(self, pdf: bytes, name: str = "paper.pdf") -> list[Reference]:
        """Parsed bibliography of a PDF; GrobidError when the server cannot give one."""
        import httpx  # only with a GROBID server configured: not on every start-up

        url = f"{self.base_url}/api/processReferences"
        started = time.perf_counter()
        try:
            with httpx.Client(transport=self.transport, timeout=TIMEOUT) as client:
                response = client.post(
                    url,
                    files={"input": (name, pdf, "application/pdf")},
                    data={"includeRawCitations": "1", "consolidateCitations": "0"},
                )
        except httpx.HTTPError as exc:
            self.calls.append(GrobidCall(url, None, _ms(started), str(exc)))
            raise GrobidError(f"GROBID unreachable at {self.base_url}: {exc}") from exc
        self.calls.append(GrobidCall(url, response.status_code, _ms(started)))
        if response.status_code != 200:
            raise GrobidError(f"GROBID answered HTTP {response.status_code}")
        try:
            return parse_tei_references(response.text)
        except ET.ParseError as exc:
            raise GrobidError(f"GROBID sent malformed TEI: {exc}") from exc


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def parse_tei_references(tei: str) -> list[Reference]:
    """The `<listBibl>` entries of a GROBID TEI document."""
    root = ET.fromstring(tei)
    bibl = root.find(f".//{TEI}listBibl")
    if bibl is None:
        return []
    out: list[Reference] = []
    for entry in bibl.findall(f"{TEI}biblStruct"):
        analytic = entry.find(f"{TEI}analytic")
        monogr = entry.find(f"{TEI}monogr")
        holder = analytic if analytic is not None else monogr
        title = _text(holder.find(f"{TEI}title") if holder is not None else None)
        venue = _text(monogr.find(f"{TEI}title") if monogr is not None else None)
        if analytic is None:  # a book or report: its title is the monograph's
            venue = _text(entry.find(f"{TEI}note"))
        authors = [_name(a) for a in (holder.findall(f"{TEI}author") if holder is not None else [])]
        date = entry.find(f".//{TEI}date")
        when = (date.get("when") or "") if date is not None else ""
        ids = {(i.get("type") or "").lower(): _text(i) for i in entry.iter(f"{TEI}idno")}
        raw = _text(entry.find(f"{TEI}note[@type='raw_reference']"))
        out.append(
            Reference(
                ordinal=len(out),
                raw=raw or title or "",
                authors=[a for a in authors if a],
                title=title or None,
                year=int(when[:4]) if when[:4].isdigit() else None,
                venue=venue or None,
                doi=ids.get("doi") or None,
                arxiv_id=re.sub(r"^arXiv:", "", ids.get("arxiv", ""), flags=re.I) or None,
            )
        )
    return out


def _text(node: ET.Element | None) -> str:
    return " ".join("".join(node.itertext()).split()) if node is not None else ""


def _name(author: ET.Element) -> str:
    pers = author.find(f"{TEI}persName")
    if pers is None:
        return ""
    parts = [_text(f) for f in pers.findall(f"{TEI}forename")]
    parts += [_text(s) for s in pers.findall(f"{TEI}surname")]
    return " ".join(p for p in parts if p)


def attach_blocks(refs: list[Reference], blocks: Sequence[TextBlock]) -> None:
    """Point each GROBID entry at the reference block that prints it (by its title)."""
    entries = [(b.ordinal, _squash(b.text)) for b in blocks if b.kind == "reference"]
    for ref in refs:
        key = _squash(ref.title or "")[:60]
        if len(key) >= 10:
            ref.block = next((o for o, text in entries if key in text), None)


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())
