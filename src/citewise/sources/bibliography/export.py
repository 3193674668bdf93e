"""Writing records out: CSL-JSON (for pandoc, Zotero), BibTeX and RIS."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from citewise.errors import CitewiseError, Kind
from citewise.sources.csl import display_name, fold, parse_name
from citewise.sources.record import SearchRecord, make_record
from citewise.store.protocols import DocumentRepository

FORMATS = ("csl-json", "bibtex", "ris")
EXTENSION_FORMATS = {".json": "csl-json", ".bib": "bibtex", ".ris": "ris"}


class ExportFormatError(CitewiseError):
    """An export format, or a file extension, that names none of FORMATS."""

    code = "BAD_EXPORT_FORMAT"
    kind: Kind = "invalid"


def format_for(fmt: str | None, path: Path | None) -> str:
    """The export format: `fmt` when given, else the one `path`'s extension names (CSL-JSON
    for stdout); an unknown format or extension is an ExportFormatError."""
    if fmt:
        if fmt not in FORMATS:
            raise ExportFormatError(f"unknown format '{fmt}'", hint=f"use {', '.join(FORMATS)}")
        return fmt
    if path is None:
        return "csl-json"
    chosen = EXTENSION_FORMATS.get(path.suffix.lower())
    if chosen is None:
        raise ExportFormatError(
            f"cannot tell the format from '{path.name}'",
            hint="name the file .json, .bib or .ris, or give --format csl-json|bibtex|ris",
        )
    return chosen


def export(records: list[SearchRecord], fmt: str) -> str:
    """The records in `fmt` (one of FORMATS)."""
    if fmt == "csl-json":
        return to_csl_json(records)
    if fmt == "bibtex":
        return to_bibtex(records)
    if fmt == "ris":
        return to_ris(records)
    raise ValueError(f"unknown export format {fmt!r}")


def to_csl_json(records: Iterable[SearchRecord]) -> str:
    return json.dumps([r.csl for r in records], ensure_ascii=False, indent=2) + "\n"


# ---------------------------------------------------------------- BibTeX

BIBTEX_TYPE = {
    "article-journal": "article",
    "paper-conference": "inproceedings",
    "chapter": "incollection",
    "book": "book",
    "thesis": "phdthesis",
    "report": "techreport",
}
CONTAINER_FIELD = {"article": "journal", "inproceedings": "booktitle", "incollection": "booktitle"}
_BIBTEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_BIBTEX_ESCAPE = re.compile("|".join(re.escape(c) for c in _BIBTEX_SPECIAL))


def bibtex_escape(text: str) -> str:
    return _BIBTEX_ESCAPE.sub(lambda m: _BIBTEX_SPECIAL[m.group(0)], text)


def citation_keys(records: list[SearchRecord]) -> list[str]:
    """Readable, unique keys: family name + year + first significant title word
    (`keller2021graph`, then `keller2021grapha`, ...)."""
    keys: list[str] = []
    used: set[str] = set()
    for record in records:
        family = fold(record.first_author_family).replace(" ", "") or "anon"
        words = [w for w in fold(record.title).split() if len(w) > 3] or ["untitled"]
        base = re.sub(r"[^a-z0-9]", "", f"{family}{record.year or 'nd'}{words[0]}") or "ref"
        key, suffix = base, 0
        while key in used:
            key = base + chr(ord("a") + suffix % 26) + ("" if suffix < 26 else str(suffix // 26))
            suffix += 1
        used.add(key)
        keys.append(key)
    return keys


def _bibtex_names(names: list[dict[str, str]]) -> str:
    parts = []
    for name in names:
        if "literal" in name:
            parts.append("{" + name["literal"] + "}")
        else:
            family = " ".join(
                p for p in (name.get("non-dropping-particle"), name.get("family")) if p
            )
            parts.append(f"{family}, {name['given']}" if name.get("given") else family)
    return " and ".join(parts)


def to_bibtex(records: list[SearchRecord]) -> str:
    entries = []
    for record, key in zip(records, citation_keys(records), strict=True):
        csl = record.csl
        arxiv = record.ids.get("arxiv")
        entry_type = BIBTEX_TYPE.get(csl.get("type", ""), "misc")
        fields: list[tuple[str, Any]] = [
            ("title", csl.get("title")),
            ("author", _bibtex_names(csl.get("author") or [])),
            ("year", record.year),
            (CONTAINER_FIELD.get(entry_type, "howpublished"), csl.get("container-title")),
            ("volume", csl.get("volume")),
            ("number", csl.get("issue")),
            ("pages", str(csl.get("page") or "").replace("-", "--") or None),
            ("publisher", csl.get("publisher") if entry_type != "misc" or not arxiv else None),
            ("doi", record.doi),
            ("url", csl.get("URL")),
            ("issn", csl.get("ISSN")),
            ("eprint", arxiv),
            ("archiveprefix", "arXiv" if arxiv else None),
            ("pmid", record.ids.get("pmid")),
            ("zotero", csl.get("zotero_uri")),  # the Zotero item (a library synced from it)
            ("abstract", record.abstract),
        ]
        lines = [f"@{entry_type}{{{key},"]
        for name, value in fields:
            if value:
                text = str(value) if name == "author" else bibtex_escape(str(value))
                if name == "author":
                    text = bibtex_escape(text).replace(r"\{", "{").replace(r"\}", "}")
                lines.append(f"  {name} = {{{text}}},")
        lines.append("}")
        entries.append("\n".join(lines))
    return "\n\n".join(entries) + ("\n" if entries else "")


# ---------------------------------------------------------------- RIS

RIS_TYPE = {
    "article-journal": "JOUR",
    "paper-conference": "CPAPER",
    "article": "UNPB",
    "chapter": "CHAP",
    "book": "BOOK",
    "thesis": "THES",
    "report": "RPRT",
    "dataset": "DATA",
}


def to_ris(records: list[SearchRecord]) -> str:
    out: list[str] = []
    for record in records:
        csl = record.csl
        lines: list[tuple[str, Any]] = [("TY", RIS_TYPE.get(csl.get("type", ""), "GEN"))]
        lines.append(("TI", csl.get("title")))
        for name in csl.get("author") or []:
            if "literal" in name:
                lines.append(("AU", name["literal"]))
            else:
                lines.append(
                    ("AU", ", ".join(p for p in (name.get("family"), name.get("given")) if p))
                )
        parts = ((csl.get("issued") or {}).get("date-parts") or [[]])[0]
        if parts:
            lines.append(("PY", str(parts[0])))
            lines.append(("DA", "/".join(f"{p:02d}" if i else str(p) for i, p in enumerate(parts))))
        lines.append(("T2", csl.get("container-title")))
        lines.append(("VL", csl.get("volume")))
        lines.append(("IS", csl.get("issue")))
        page = str(csl.get("page") or "")
        if page:
            first, _, last = page.partition("-")
            lines += [("SP", first), ("EP", last)]
        lines.append(("PB", csl.get("publisher")))
        lines.append(("SN", csl.get("ISSN")))
        lines.append(("DO", record.doi))
        lines.append(("UR", csl.get("URL")))
        lines.append(("L2", csl.get("zotero_uri")))  # the Zotero item, as a link
        lines.append(("AB", record.abstract))
        lines.append(("LA", csl.get("language")))
        lines.append(("N1", csl.get("note")))
        lines.append(("ID", record.key))
        for tag, value in lines:
            if value:
                out.append(f"{tag}  - {' '.join(str(value).split())}")
        out.append("ER  - ")
        out.append("")
    return "\r\n".join(out)


# ---------------------------------------------------------------- the library's own documents


def library_records(store: DocumentRepository) -> list[SearchRecord]:
    """The library's documents as records (their stored CSL where ingest saved one)."""
    records = []
    for doc in sorted(store.documents(), key=lambda d: d.id):
        record = make_record(
            "library",
            csl_type="article-journal" if doc.venue else "article",
            title=doc.title or "",
            names=[parse_name(a) for a in doc.authors if isinstance(a, str)],
            issued=[int(doc.year)] if doc.year else None,
            ids={"doi": doc.doi, "arxiv": doc.arxiv_id, "pmid": doc.pmid},
            abstract=doc.abstract or "",
            container=doc.venue,
            url=None,
        )
        if isinstance(doc.csl, dict):
            stored = doc.csl
            record.csl = {**stored, **{k: v for k, v in record.csl.items() if k not in stored}}
        # The document ID is the citation key users see in answers and reports.
        record.key = record.csl["id"] = doc.id
        record.csl.pop("source", None)
        record.authors = [display_name(n) for n in record.csl.get("author") or []]
        records.append(record)
    return records
