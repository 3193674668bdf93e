"""A Zotero data directory: zotero.sqlite (read from a copy) and the PDFs in storage/.

Better BibTeX citation keys come from better-bibtex.sqlite (its `citationkey` table), else
from a `citationKey` field or a "Citation Key: ..." line in Extra, so the document IDs
match the keys in the user's own bibliography.

Zotero keeps its database open and locked while it runs, so citewise copies the file and
reads the copy, read-only. A write in progress (a hot `zotero.sqlite-journal`) would make
the copy inconsistent, so that is refused with a clear error, as is a database whose
schema version this reader does not know.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from citewise.documents.manifests.manifest import PaperMetadata
from citewise.errors import CitewiseError

# userdata schema versions: Zotero 5.0 shipped 95+, Zotero 6 ~113, Zotero 7 ~120-12x
SUPPORTED_USERDATA = range(80, 200)
DELETED = "deletedItems"


class ZoteroError(CitewiseError):
    code = "ZOTERO_ERROR"


@dataclass
class ZoteroAttachment:
    """A PDF attachment with its parent item's metadata; `problem` when it cannot be read.
    `key` is the attachment's own Zotero key (stable across edits, renames and moves)."""

    path: Path
    metadata: PaperMetadata
    problem: str | None = None
    key: str = ""


def read_zotero(directory: Path) -> list[ZoteroAttachment]:
    """Every PDF attachment in a Zotero data directory (items in the trash left out), with
    its item's metadata; the Better BibTeX citation key, when there is one, as its ID."""
    directory = Path(directory).expanduser()
    source = directory / "zotero.sqlite"
    if not source.is_file():
        raise ZoteroError(
            f"no zotero.sqlite in {directory}",
            "give Zotero's data directory (Zotero: Settings > Advanced > Files and Folders)",
        )
    journal = directory / "zotero.sqlite-journal"
    if journal.is_file() and journal.stat().st_size > 0:
        raise ZoteroError(
            f"{source} is locked: Zotero is writing to it (zotero.sqlite-journal present)",
            "wait a moment or close Zotero, then run the ingest again",
        )
    with tempfile.TemporaryDirectory(prefix="citewise-zotero-") as tmp:
        copy = Path(tmp) / "zotero.sqlite"
        shutil.copyfile(source, copy)
        wal = directory / "zotero.sqlite-wal"
        if wal.is_file():  # committed changes not yet folded into the main file
            shutil.copyfile(wal, Path(tmp) / "zotero.sqlite-wal")
        db = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        db.row_factory = sqlite3.Row
        try:
            _check_schema(db, source)
            found = _attachments(db, directory)
            _citation_keys(db, directory, Path(tmp), found)
            return found
        except sqlite3.DatabaseError as exc:
            raise ZoteroError(
                f"cannot read {source}: {exc}", "close Zotero and run the ingest again"
            ) from exc
        finally:
            db.close()


def _check_schema(db: sqlite3.Connection, source: Path) -> None:
    try:
        row = db.execute("SELECT version FROM version WHERE schema = 'userdata'").fetchone()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc):
            raise
        raise ZoteroError(
            f"{source} is not a Zotero database (no schema version table)",
            "point --zotero at Zotero's data directory",
        ) from exc
    version = int(row[0]) if row else None
    if version not in SUPPORTED_USERDATA:
        raise ZoteroError(
            f"unknown Zotero schema version {version} in {source} (citewise reads userdata "
            f"versions {SUPPORTED_USERDATA.start}-{SUPPORTED_USERDATA.stop - 1})",
            "update citewise, or export the library from Zotero as BibTeX with files",
        )


def _attachments(db: sqlite3.Connection, directory: Path) -> list[ZoteroAttachment]:
    deleted = {r[0] for r in db.execute(f"SELECT itemID FROM {DELETED}")}
    rows = db.execute(
        "SELECT a.itemID, a.parentItemID, a.linkMode, a.path, i.key, i.libraryID "
        "FROM itemAttachments a "
        "JOIN items i ON i.itemID = a.itemID "
        "WHERE a.contentType = 'application/pdf' OR lower(a.path) LIKE '%.pdf' "
        "ORDER BY a.itemID"
    ).fetchall()
    libraries = _library_links(db)
    out = []
    for row in rows:
        parent = row["parentItemID"]
        if row["itemID"] in deleted or parent in deleted:
            continue
        path = _file(row["path"] or "", row["linkMode"], row["key"], directory)
        meta = _metadata(db, parent) if parent is not None else PaperMetadata()
        item_key = _key(db, parent) if parent is not None else row["key"]
        meta.extra["zotero_key"] = item_key
        meta.extra["zotero_attachment"] = row["key"]
        where = libraries.get(row["libraryID"], "library")
        meta.extra["zotero_uri"] = f"zotero://select/{where}/items/{item_key}"
        problem = None
        if path is None:
            problem = f"attachment {row['key']} has no file path (a link to a web page?)"
            path = directory / "storage" / row["key"]
        elif not path.is_file():
            problem = f"attachment file missing: {path}"
        out.append(ZoteroAttachment(path, meta, problem, row["key"]))
    return out


def _library_links(db: sqlite3.Connection) -> dict[int, str]:
    """libraryID -> its part of a zotero://select link: 'library' for the user's own,
    'groups/ID' for a group library."""
    try:
        groups = db.execute("SELECT libraryID, groupID FROM groups").fetchall()
    except sqlite3.OperationalError:  # no groups table: only the user's library
        return {}
    return {int(library): f"groups/{group}" for library, group in groups}


def _citation_keys(
    db: sqlite3.Connection, directory: Path, tmp: Path, found: list[ZoteroAttachment]
) -> None:
    """Set each item's citation key as its wanted document ID: Better BibTeX's database
    first, then the item's own `citationKey` field or "Citation Key:" line in Extra."""
    bbt = _better_bibtex_keys(directory, tmp)
    seen: dict[str, int] = {}
    for attachment in found:
        item = str(attachment.metadata.extra.get("zotero_key") or "")
        key = bbt.get(item) or _own_citation_key(db, item)
        if key:
            attachment.metadata.extra["citation_key"] = key
            # an item's second PDF (a supplement) gets the key with a suffix
            seen[key] = seen.get(key, 0) + 1
            attachment.metadata.id = key if seen[key] == 1 else f"{key}-{seen[key]}"


def _better_bibtex_keys(directory: Path, tmp: Path) -> dict[str, str]:
    """Zotero item key -> Better BibTeX citation key (empty when BBT is not installed or its
    database is unreadable: the keys are a convenience, the sync goes on without them)."""
    source = directory / "better-bibtex.sqlite"
    if not source.is_file():
        return {}
    copy = tmp / "better-bibtex.sqlite"
    shutil.copyfile(source, copy)
    db = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT itemKey, citationKey FROM citationkey").fetchall()
    except sqlite3.DatabaseError:
        return {}
    finally:
        db.close()
    return {str(item): str(key) for item, key in rows if item and key}


CITATION_KEY_LINE = re.compile(r"^\s*Citation Key:\s*(\S+)\s*$", re.I | re.M)


def _own_citation_key(db: sqlite3.Connection, item_key: str) -> str | None:
    rows = dict(
        db.execute(
            "SELECT f.fieldName, v.value FROM items i JOIN itemData d ON d.itemID = i.itemID "
            "JOIN fields f ON f.fieldID = d.fieldID JOIN itemDataValues v ON v.valueID = d.valueID "
            "WHERE i.key = ? AND f.fieldName IN ('citationKey', 'extra')",
            (item_key,),
        ).fetchall()
    )
    if rows.get("citationKey"):
        return str(rows["citationKey"]).strip() or None
    line = CITATION_KEY_LINE.search(str(rows.get("extra") or ""))
    return line.group(1) if line else None


def _file(stored: str, link_mode: int | None, key: str, directory: Path) -> Path | None:
    """Where an attachment lives: storage:NAME is in storage/KEY/, linked files elsewhere."""
    if stored.startswith("storage:"):
        return directory / "storage" / key / stored[len("storage:") :]
    if stored.startswith("attachments:"):  # relative to the linked-attachment base folder
        return directory / stored[len("attachments:") :]
    if stored and link_mode == 2:
        return Path(stored)
    return None


def _key(db: sqlite3.Connection, item: int) -> str:
    row = db.execute("SELECT key FROM items WHERE itemID = ?", (item,)).fetchone()
    return row[0] if row else ""


def _metadata(db: sqlite3.Connection, item: int) -> PaperMetadata:
    fields = dict(
        db.execute(
            "SELECT f.fieldName, v.value FROM itemData d JOIN fields f ON f.fieldID = d.fieldID "
            "JOIN itemDataValues v ON v.valueID = d.valueID WHERE d.itemID = ?",
            (item,),
        ).fetchall()
    )
    creators = db.execute(
        "SELECT c.firstName, c.lastName FROM itemCreators ic "
        "JOIN creators c ON c.creatorID = ic.creatorID "
        "JOIN creatorTypes t ON t.creatorTypeID = ic.creatorTypeID "
        "WHERE ic.itemID = ? AND t.creatorType IN ('author', 'editor', 'contributor') "
        "ORDER BY ic.orderIndex",
        (item,),
    ).fetchall()
    year = re.match(r"(\d{4})", str(fields.get("date", "")))
    venue = (
        fields.get("publicationTitle") or fields.get("proceedingsTitle") or fields.get("bookTitle")
    )
    kind = db.execute(
        "SELECT t.typeName FROM items i JOIN itemTypes t ON t.itemTypeID = i.itemTypeID "
        "WHERE i.itemID = ?",
        (item,),
    ).fetchone()
    return PaperMetadata(
        title=fields.get("title") or None,
        authors=[" ".join(p for p in (c[0], c[1]) if p) for c in creators],
        year=int(year.group(1)) if year else None,
        doi=fields.get("DOI") or None,
        venue=venue or None,
        abstract=fields.get("abstractNote") or None,
        extra={
            "item_type": kind[0] if kind else None,
            "collections": _collections(db, item),
            "tags": [
                r[0]
                for r in db.execute(
                    "SELECT t.name FROM itemTags it JOIN tags t ON t.tagID = it.tagID "
                    "WHERE it.itemID = ? ORDER BY t.name",
                    (item,),
                )
            ],
            "notes": [
                _plain(r[0])
                for r in db.execute(
                    "SELECT note FROM itemNotes WHERE parentItemID = ? ORDER BY itemID", (item,)
                )
            ],
        },
    )


def _collections(db: sqlite3.Connection, item: int) -> list[str]:
    """Collections holding the item, as paths: 'Thesis / Chapter 2'."""
    parents = {
        r[0]: (r[1], r[2])
        for r in db.execute(
            "SELECT collectionID, collectionName, parentCollectionID FROM collections"
        )
    }
    out = []
    for (cid,) in db.execute("SELECT collectionID FROM collectionItems WHERE itemID = ?", (item,)):
        names: list[str] = []
        seen: set[int] = set()
        while cid in parents and cid not in seen:
            seen.add(cid)
            name, cid = parents[cid]
            names.append(name)
        out.append(" / ".join(reversed(names)))
    return sorted(out)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _plain(note: str) -> str:
    """Zotero notes are HTML; keep their text."""
    parser = _Text()
    parser.feed(note or "")
    return " ".join(" ".join(parser.parts).split())
