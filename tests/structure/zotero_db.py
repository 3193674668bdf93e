"""A zotero.sqlite with the real Zotero schema's tables and columns that citewise reads
(a subset of Zotero 7's userdata schema), filled with two papers, a note and a deleted item."""

from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL,
    editable INT NOT NULL, filesEditable INT NOT NULL, version INT NOT NULL DEFAULT 0,
    storageVersion INT NOT NULL DEFAULT 0, lastSync INT NOT NULL DEFAULT 0,
    archived INT NOT NULL DEFAULT 0);
CREATE TABLE groups (groupID INTEGER PRIMARY KEY, libraryID INT NOT NULL UNIQUE,
    name TEXT NOT NULL, description TEXT NOT NULL, version INT NOT NULL);
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT,
    templateItemTypeID INT, display INT DEFAULT 1);
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
    dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
    synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT,
    fieldMode INT, UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL,
    creatorTypeID INT NOT NULL DEFAULT 1, orderIndex INT NOT NULL DEFAULT 0,
    PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex));
CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL,
    parentCollectionID INT DEFAULT NULL,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
    synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL,
    orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (collectionID, itemID));
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE itemTags (itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL,
    PRIMARY KEY (itemID, tagID));
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT,
    contentType TEXT, charsetID INT, path TEXT, syncState INT DEFAULT 0,
    storageModTime INT, storageHash TEXT, lastProcessedModificationTime INT);
CREATE TABLE itemNotes (itemID INTEGER PRIMARY KEY, parentItemID INT, note TEXT, title TEXT);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY,
    dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
"""


def build_zotero(directory: Path, papers: dict[str, Path], userdata_version: int = 120) -> Path:
    """`papers` maps an attachment key to a PDF copied into storage/KEY/."""
    directory.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(directory / "zotero.sqlite")
    db.executescript(SCHEMA)
    db.executemany(
        "INSERT INTO version VALUES (?, ?)",
        [("globalSchema", 36), ("system", 32), ("userdata", userdata_version)],
    )
    db.execute("INSERT INTO libraries VALUES (1, 'user', 1, 1, 0, 0, 0, 0)")
    db.executemany(
        "INSERT INTO itemTypes (itemTypeID, typeName) VALUES (?, ?)",
        [(2, "book"), (3, "attachment"), (22, "journalArticle"), (26, "note")],
    )
    db.executemany(
        "INSERT INTO fields (fieldID, fieldName) VALUES (?, ?)",
        [(1, "title"), (2, "abstractNote"), (6, "date"), (12, "publicationTitle"), (59, "DOI")],
    )
    db.executemany("INSERT INTO creatorTypes VALUES (?, ?)", [(1, "author"), (2, "editor")])
    items = [
        (1, 22, "PARENT01"), (2, 3, "ATTACH01"), (3, 26, "NOTE0001"),
        (4, 22, "PARENT02"), (5, 3, "ATTACH02"), (6, 22, "GONE0001"), (7, 3, "ATTGONE1"),
        (8, 3, "MISSING1"),
    ]  # fmt: skip
    db.executemany(
        "INSERT INTO items (itemID, itemTypeID, libraryID, key) VALUES (?, ?, 1, ?)", items
    )
    values = {
        (1, 1): "Echo Profiles of Quarry Stone", (1, 6): "2022-03-00 March 2022",
        (1, 12): "Journal of Rock Acoustics", (1, 59): "10.5555/echo.2022.1",
        (1, 2): "We tap stone and listen.",
        (4, 1): "Granite Sorting with Acoustic Probes", (4, 6): "2024",
        (6, 1): "A deleted paper", (6, 6): "2020",
    }  # fmt: skip
    for n, ((item, field), value) in enumerate(values.items(), start=1):
        db.execute("INSERT INTO itemDataValues VALUES (?, ?)", (n, value))
        db.execute("INSERT INTO itemData VALUES (?, ?, ?)", (item, field, n))
    db.executemany(
        "INSERT INTO creators VALUES (?, ?, ?, 0)",
        [(1, "Ada", "Quarry"), (2, "Ben", "Stone"), (3, "Cleo", "Editor")],
    )
    db.executemany(
        "INSERT INTO itemCreators VALUES (?, ?, ?, ?)",
        [(1, 2, 1, 1), (1, 1, 1, 0), (1, 3, 2, 2), (4, 1, 1, 0)],
    )
    db.executemany(
        "INSERT INTO collections (collectionID, collectionName, parentCollectionID, libraryID,"
        " key) VALUES (?, ?, ?, 1, ?)",
        [(1, "Thesis", None, "COLL0001"), (2, "Chapter 2", 1, "COLL0002")],
    )
    db.executemany("INSERT INTO collectionItems VALUES (?, ?, 0)", [(2, 1), (1, 4)])
    db.executemany("INSERT INTO tags VALUES (?, ?)", [(1, "acoustics"), (2, "to read")])
    db.executemany("INSERT INTO itemTags VALUES (?, ?, 0)", [(1, 1), (1, 2)])
    keys = list(papers)
    db.executemany(
        "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) "
        "VALUES (?, ?, 0, 'application/pdf', ?)",
        [
            (2, 1, f"storage:{papers[keys[0]].name}"),
            (5, 4, f"storage:{papers[keys[1]].name}"),
            (7, 6, "storage:gone.pdf"),
            (8, None, "storage:missing.pdf"),
        ],
    )
    db.execute(
        "INSERT INTO itemNotes VALUES (3, 1, '<div><p>Check the <b>wet</b> blocks.</p></div>', '')"
    )
    db.execute("INSERT INTO deletedItems (itemID) VALUES (6)")
    db.commit()
    db.close()
    for key, pdf in zip(("ATTACH01", "ATTACH02"), papers.values(), strict=True):
        folder = directory / "storage" / key
        folder.mkdir(parents=True)
        (folder / pdf.name).write_bytes(pdf.read_bytes())
    return directory


# -- edits a user makes in Zotero between two syncs ----------------------------------------


def _value_id(db: sqlite3.Connection, value: str) -> int:
    row = db.execute("SELECT valueID FROM itemDataValues WHERE value = ?", (value,)).fetchone()
    if row:
        return int(row[0])
    (top,) = db.execute("SELECT coalesce(max(valueID), 0) FROM itemDataValues").fetchone()
    db.execute("INSERT INTO itemDataValues VALUES (?, ?)", (top + 1, value))
    return int(top + 1)


def _item_id(db: sqlite3.Connection, key: str) -> int:
    return int(db.execute("SELECT itemID FROM items WHERE key = ?", (key,)).fetchone()[0])


def set_title(directory: Path, item_key: str, title: str) -> None:
    """Edit an item's title, as Zotero does: a new value row, the item's dates bumped."""
    with sqlite3.connect(directory / "zotero.sqlite") as db:
        item = _item_id(db, item_key)
        db.execute("INSERT OR REPLACE INTO itemData VALUES (?, 1, ?)", (item, _value_id(db, title)))
        db.execute(
            "UPDATE items SET dateModified = datetime('now', '+1 minute'), "
            "clientDateModified = datetime('now', '+1 minute') WHERE itemID = ?",
            (item,),
        )


def trash(directory: Path, item_key: str) -> None:
    """Move an item to Zotero's trash (its deletedItems table)."""
    with sqlite3.connect(directory / "zotero.sqlite") as db:
        db.execute("INSERT INTO deletedItems (itemID) VALUES (?)", (_item_id(db, item_key),))


def add_paper(
    directory: Path, item_key: str, attachment_key: str, title: str, pdf: Path, collection: int
) -> None:
    """A new journal article with a PDF attachment stored in storage/ATTACHMENT_KEY/."""
    with sqlite3.connect(directory / "zotero.sqlite") as db:
        (top,) = db.execute("SELECT max(itemID) FROM items").fetchone()
        item, attachment = top + 1, top + 2
        db.executemany(
            "INSERT INTO items (itemID, itemTypeID, libraryID, key) VALUES (?, ?, 1, ?)",
            [(item, 22, item_key), (attachment, 3, attachment_key)],
        )
        db.execute("INSERT INTO itemData VALUES (?, 1, ?)", (item, _value_id(db, title)))
        db.execute("INSERT INTO collectionItems VALUES (?, ?, 0)", (collection, item))
        db.execute(
            "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) "
            "VALUES (?, ?, 0, 'application/pdf', ?)",
            (attachment, item, f"storage:{pdf.name}"),
        )
    folder = directory / "storage" / attachment_key
    folder.mkdir(parents=True)
    (folder / pdf.name).write_bytes(pdf.read_bytes())


def forget_missing(directory: Path) -> None:
    """Remove the attachment whose file was never downloaded (MISSING1)."""
    with sqlite3.connect(directory / "zotero.sqlite") as db:
        item = _item_id(db, "MISSING1")
        db.execute("DELETE FROM itemAttachments WHERE itemID = ?", (item,))
        db.execute("DELETE FROM items WHERE itemID = ?", (item,))


def write_better_bibtex(directory: Path, keys: dict[str, str]) -> None:
    """better-bibtex.sqlite with Better BibTeX's `citationkey` table: item key -> citekey."""
    with sqlite3.connect(directory / "better-bibtex.sqlite") as db:
        db.execute(
            "CREATE TABLE citationkey (itemID NOT NULL PRIMARY KEY, itemKey NOT NULL, "
            "libraryID NOT NULL, citationKey NOT NULL, pinned CHECK (pinned in (0, 1)), "
            "lastPinned)"
        )
        with sqlite3.connect(directory / "zotero.sqlite") as zotero:
            for item_key, citekey in keys.items():
                db.execute(
                    "INSERT INTO citationkey VALUES (?, ?, 1, ?, 0, NULL)",
                    (_item_id(zotero, item_key), item_key, citekey),
                )


def move_to_group(directory: Path, keys: list[str], group_id: int) -> None:
    """Put items in a group library (library 2, Zotero group `group_id`)."""
    with sqlite3.connect(directory / "zotero.sqlite") as db:
        db.execute("INSERT INTO libraries VALUES (2, 'group', 1, 1, 0, 0, 0, 0)")
        db.execute("INSERT INTO groups VALUES (?, 2, 'Lab', '', 0)", (group_id,))
        db.executemany("UPDATE items SET libraryID = 2 WHERE key = ?", [(k,) for k in keys])
