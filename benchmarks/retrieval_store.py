"""Store size of a library, part by part, and dense recall@10 against exact float32 search.

    python benchmarks/retrieval_store.py LIB [LIB ...] [--reference F32_LIB] [--page-sizes 8192]
    python benchmarks/retrieval_store.py OLD_LIB_COPY --migrate   # upgrade in place, then VACUUM

Bytes per block: library.db by table (SQLite's `dbstat`, pages in use; free pages apart),
the vector files (`vectors/`) and the keyword postings (`keywords/`). `--page-sizes` copies
library.db, rebuilds it with each page size (`VACUUM`) and reports the size it comes to.
Recall: the dev questions' dense top-10 (sign-bit shortlist, rescoring) of each library
against the exact top-10 of a float32 brute force over `--reference` (a library holding the
same blocks, e.g. the same build made before vectors were stored as float16).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval_data import BLOCKS_PER_PAGE  # noqa: E402

K = 10
GROUPS = {
    "block_vectors": ("block_vectors", "sqlite_autoindex_block_vectors_1"),
    "blocks": ("blocks",),
    "blocks indexes": (
        "sqlite_autoindex_blocks_1",
        "sqlite_autoindex_blocks_2",
        "blocks_document_page",
    ),
}


def database_parts(db_path: Path) -> dict[str, int]:
    """Bytes of library.db by part: the groups above, everything else, free pages."""
    db = sqlite3.connect(db_path)
    try:
        rows = db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall()
        (page_size,) = db.execute("PRAGMA page_size").fetchone()
        (free,) = db.execute("PRAGMA freelist_count").fetchone()
    finally:
        db.close()
    by_name = {str(name): int(size) for name, size in rows}
    parts = {group: sum(by_name.pop(n, 0) for n in names) for group, names in GROUPS.items()}
    parts["other tables and indexes"] = sum(by_name.values())
    parts["free pages"] = int(free) * int(page_size)
    return parts


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else 0


def store_report(library: Path) -> dict[str, object]:
    """Bytes per block of each part of `library`, and the whole."""
    db = sqlite3.connect(library / "library.db")
    (blocks,) = db.execute("SELECT count(*) FROM blocks").fetchone()
    (pages,) = db.execute("SELECT coalesce(sum(pages), 0) FROM documents").fetchone()
    db.close()
    parts: dict[str, int] = database_parts(library / "library.db")
    parts["library.db (file)"] = (library / "library.db").stat().st_size
    parts["vector files"] = folder_bytes(library / "vectors")
    parts["keyword postings"] = folder_bytes(library / "keywords")
    whole = sum(p.stat().st_size for p in library.rglob("*") if p.is_file())
    parts["whole library"] = whole
    return {
        "library": str(library),
        "blocks": int(blocks),
        "pages": int(pages),
        "bytes": parts,
        "bytes_per_block": {k: v / max(blocks, 1) for k, v in parts.items()},
        # The filler has no real pages: BLOCKS_PER_PAGE blocks make one (retrieval_data.py).
        "mb_per_1000_pages": whole / 1e6 / max(pages, blocks / BLOCKS_PER_PAGE) * 1000,
    }


def vacuumed_bytes(library: Path, page_size: int) -> int:
    """Size of library.db rebuilt by VACUUM with `page_size` (on a copy)."""
    with tempfile.TemporaryDirectory(dir=library.parent) as tmp:
        copy = Path(tmp) / "library.db"
        source = sqlite3.connect(library / "library.db")
        target = sqlite3.connect(copy)
        source.backup(target)
        source.close()
        target.execute("PRAGMA journal_mode = DELETE")  # a WAL file keeps its page size
        target.execute(f"PRAGMA page_size = {int(page_size)}")
        target.execute("VACUUM")
        target.close()
        return copy.stat().st_size


def migrate_in_place(library: Path) -> dict[str, object]:
    """Open an older library (its migrations run), refresh its vector index, measure, then
    VACUUM it and measure again: what an existing user's library comes to."""
    import time

    from citewise.embed.base import DEFAULT_MODEL
    from citewise.store.sqlite.library import LibraryStore
    from citewise.store.sqlite.vector_index import VectorIndex

    started = time.perf_counter()
    store = LibraryStore(library)
    migrated = time.perf_counter() - started
    VectorIndex(store.directory, DEFAULT_MODEL).refresh(store.db)
    rebuilt = time.perf_counter() - started - migrated
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    report: dict[str, object] = {"migration_s": migrated, "index_rebuild_s": rebuilt}
    report["migrated"] = store_report(library)
    started = time.perf_counter()
    store.db.execute("VACUUM")
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    report["vacuum_s"] = time.perf_counter() - started
    store.close()
    report["vacuumed"] = store_report(library)
    return report


def _query_vectors(qa: Path, model: str) -> np.ndarray:
    import yaml

    from citewise.embed.base import load_embedder

    embedder = load_embedder(model)
    if embedder is None:
        raise SystemExit(f"embedding model {model} is not available")
    texts = [str(item["question"]) for item in yaml.safe_load(qa.read_text(encoding="utf-8"))]
    return np.asarray(embedder.encode(texts), dtype=np.float32)


def _exact_float32(reference: Path, model: str) -> tuple[np.ndarray, np.ndarray]:
    """(rowids, float32 matrix) of the reference library's trusted vectors, decoded as stored."""
    db = sqlite3.connect(reference / "library.db")
    rows = db.execute(
        "SELECT v.block_rowid, v.vector FROM block_vectors v JOIN blocks b "
        "ON b.rowid = v.block_rowid WHERE v.model = ? AND b.trusted = 1 ORDER BY 1",
        (model,),
    ).fetchall()
    (dimensions,) = db.execute(
        "SELECT dimensions FROM embedding_models WHERE name = ?", (model,)
    ).fetchone()
    db.close()
    rowids = np.array([r[0] for r in rows], dtype=np.int64)
    width = len(rows[0][1]) // int(dimensions)
    dtype = np.float32 if width == 4 else np.float16
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=dtype)
    return rowids, matrix.reshape(len(rows), -1).astype(np.float32)


def dense_recall(library: Path, reference: Path, qa: Path, model: str) -> dict[str, float]:
    """Mean overlap of the library's dense top-10 with the exact float32 top-10."""
    from citewise.store.sqlite.library import LibraryStore
    from citewise.store.sqlite.vector_index import VectorIndex

    queries = _query_vectors(qa, model)
    rowids, matrix = _exact_float32(reference, model)
    store = LibraryStore(library)
    index = VectorIndex(store.directory, model)
    index.refresh(store.db)
    overlap, same_order = [], 0
    for query in queries:
        sims = matrix @ query
        exact = [int(rowids[i]) for i in np.argsort(-sims, kind="stable")[:K]]
        found, _ = index.search(query, K)
        got = [int(r) for r in found]
        overlap.append(len(set(got) & set(exact)) / K)
        same_order += got == exact
    store.close()
    return {
        "recall@10 vs exact float32": float(np.mean(overlap)),
        "queries": len(queries),
        "same top-10 order": same_order,
    }


def main() -> None:
    from citewise.embed.base import DEFAULT_MODEL

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("libraries", nargs="+", type=Path)
    parser.add_argument("--reference", type=Path, default=None, help="float32 library")
    parser.add_argument("--qa", type=Path, default=None, help="questions (dev.yaml)")
    parser.add_argument("--page-sizes", default="", help="e.g. 4096,8192,16384")
    parser.add_argument("--out", type=Path, default=None, help="write the JSON here too")
    parser.add_argument(
        "--migrate", action="store_true", help="upgrade each (copied!) library in place first"
    )
    args = parser.parse_args()
    reports = []
    for library in args.libraries:
        report = migrate_in_place(library) if args.migrate else store_report(library)
        sizes = [int(s) for s in args.page_sizes.split(",") if s]
        if sizes:
            report["vacuumed library.db"] = {s: vacuumed_bytes(library, s) for s in sizes}
        if args.reference and args.qa:
            report["dense"] = dense_recall(library, args.reference, args.qa, DEFAULT_MODEL)
        print(json.dumps(report, indent=1), flush=True)
        reports.append(report)
    if args.out:
        args.out.write_text(json.dumps(reports, indent=1))


if __name__ == "__main__":
    main()
