"""Building postgres_scale.py's libraries: the corpus once in SQLite, then per size a
PostgreSQL schema with the corpus migrated in and filler blocks added through the store."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from retrieval_data import BLOCKS_PER_DOCUMENT, FillerWriter, trusted_texts

from citewise.api import Library
from citewise.api.migrate import migrate_library
from citewise.embed.base import DEFAULT_MODEL, load_embedder
from citewise.ingest import embed_missing
from citewise.store.postgres import PostgresLibraryStore
from citewise.store.postgres.vectors import HnswSettings
from citewise.store.sqlite.library import LibraryStore

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CITEWISE_SHARED") or ROOT.parent / "shared")
if not SHARED.is_dir():
    SHARED = Path("/work/shared")
EMBED_CHUNK = 20_000


def build_corpus(corpus: Path, log: Callable[[str], None]) -> None:
    """The 8 corpus PDFs parsed and embedded into a SQLite library (once)."""
    if (corpus / "build.json").exists():
        return
    log("parsing the corpus into SQLite")
    with Library(corpus, embeddings=False) as lib:
        lib.ingest(sorted((SHARED / "corpus").glob("*.pdf")))
        embedder = load_embedder(DEFAULT_MODEL)
        assert embedder is not None
        embed_missing(lib.store, embedder)
        blocks = lib.store.stats()["blocks"]
    (corpus / "build.json").write_text(json.dumps({"blocks": blocks}))


def corpus_texts(corpus: Path) -> list[str]:
    """The corpus's trusted block texts, the filler's material."""
    store = LibraryStore(corpus)
    try:
        return trusted_texts(store.db)
    finally:
        store.close()


def fresh_schema(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        schema = conn.execute("SELECT current_setting('search_path')").fetchone()
        name = str(schema[0] if schema else "").split(",")[0].strip()
        conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        conn.execute(f"CREATE SCHEMA {name}")


def analyze(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ANALYZE")


def add_filler(
    store: PostgresLibraryStore, writer: FillerWriter, size: int, log: Callable[[str], None]
) -> int:
    """Filler documents through the store's own write path until it holds `size` blocks."""
    have = store.stats()["blocks"]
    added, number, step = 0, 0, max(size // 10, 10_000)
    while have + added < size:
        count = min(BLOCKS_PER_DOCUMENT, size - have - added)
        store.save_document(writer.document(number, count))
        before, added, number = added, added + count, number + 1
        if added // step != before // step:
            log(f"  {have + added:,} blocks")
    return added


def embed_filler(store: PostgresLibraryStore, log: Callable[[str], None]) -> dict[str, float]:
    """Embed every block without a vector; vectors written with the store's bulk COPY."""
    embedder = load_embedder(DEFAULT_MODEL)
    assert embedder is not None
    todo = store.vectors.blocks_without_vectors(DEFAULT_MODEL)
    embed_s = copy_s = 0.0
    for start in range(0, len(todo), EMBED_CHUNK):
        chunk = todo[start : start + EMBED_CHUNK]
        t0 = time.perf_counter()
        vectors = embedder.encode([text for _, text in chunk], batch_size=256)
        t1 = time.perf_counter()
        store.vectors.copy_vectors(DEFAULT_MODEL, [rowid for rowid, _ in chunk], vectors)
        embed_s, copy_s = embed_s + t1 - t0, copy_s + time.perf_counter() - t1
        if (start // EMBED_CHUNK) % 10 == 9:
            log(f"  {start + len(chunk):,} vectors")
    return {"embedded": len(todo), "embed_s": embed_s, "copy_s": copy_s}


def build_library(
    data: Path,
    corpus: Path,
    url: str,
    size: int,
    settings: HnswSettings,
    reuse: bool,
    log: Callable[[str], None],
) -> dict[str, Any]:
    """Build (or with `reuse`, find) the `size`-block library at `url`; the timings."""
    record = data / f"build-n{size}.json"
    if reuse and record.exists():
        info: dict[str, Any] = json.loads(record.read_text())
        info["reused"] = True
        return info
    build_corpus(corpus, log)
    log(f"n{size}: migrating the corpus")
    fresh_schema(url)
    t0 = time.perf_counter()
    migrate_library(corpus, url)
    info = {"migrate_s": time.perf_counter() - t0}
    store = PostgresLibraryStore(url, directory=data / f"n{size}-cache")
    store.vectors.drop_index(DEFAULT_MODEL)  # built once, after the load
    writer = FillerWriter(corpus_texts(corpus))
    log(f"n{size}: adding filler blocks")
    t0 = time.perf_counter()
    info["filler_blocks"] = add_filler(store, writer, size, log)
    info["blocks_s"] = time.perf_counter() - t0
    log(f"n{size}: embedding ({info['blocks_s']:.0f} s for blocks)")
    info.update(embed_filler(store, log))
    t0 = time.perf_counter()
    analyze(url)
    info["analyze_s"] = time.perf_counter() - t0
    log(f"n{size}: building HNSW {settings}")
    t0 = time.perf_counter()
    store.vectors.build_index(DEFAULT_MODEL, settings)
    info["hnsw_s"] = time.perf_counter() - t0
    info["hnsw"] = asdict(settings)
    info["load_s"] = info["migrate_s"] + info["blocks_s"] + info["copy_s"] + info["analyze_s"]
    info["build_s"] = info["load_s"] + info["embed_s"] + info["hnsw_s"]
    store.close()
    record.write_text(json.dumps(info, indent=1))
    log(f"n{size}: built {json.dumps(info)}")
    return info
