"""Where one file's ingest work goes, by resource, for the scaling model (docs/teams.md):

    python benchmarks/worker_costs.py --postgres postgresql://… [--limit N] [DIR]

For each file of DIR (default: the FinanceBench filings), in this one process and one
database connection, one after another: parse (this thread's CPU), store the document
(this thread's CPU and the database backend's CPU, from /proc: a local server only),
encode its blocks with the library's embedding model (CPU) and write their vectors
(client CPU, backend CPU: pgvector's HNSW index grows with each row). Prints each
resource's cost per page or per block and the rates one core sustains.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import psycopg
from worker_ingest import FILINGS, TICK, fresh_schema


def backend_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def measure(url: str, files: list[Path]) -> dict[str, float]:
    from citewise.config import Settings
    from citewise.documents import read_document
    from citewise.embed.settings import embed_settings, open_embedder
    from citewise.ingest import EMBED_BATCH
    from citewise.store.postgres import PostgresLibraryStore

    settings = Settings.load(url, environ={"HF_HUB_OFFLINE": "1"})
    embedder = open_embedder(embed_settings(settings), environ=settings.environ)
    assert embedder is not None, "no embedding model"
    totals = dict.fromkeys(
        ("pages", "blocks", "parse", "store", "store_db", "encode", "save", "save_db"), 0.0
    )
    with PostgresLibraryStore(url, max_connections=1) as store:
        store.vectors.register_model(embedder.name, embedder.dimensions)
        pid = int(store.db.value("SELECT pg_backend_pid()") or 0)
        for path in files:
            cpu = time.thread_time()
            doc = read_document(path)
            doc.path = path.resolve()
            totals["parse"] += time.thread_time() - cpu
            cpu, db = time.thread_time(), backend_cpu(pid)
            doc_id = store.save_document(doc)
            totals["store"] += time.thread_time() - cpu
            totals["store_db"] += backend_cpu(pid) - db
            todo = [(b.rowid, b.text) for b in store.blocks(doc_id) if b.trusted]
            cpu = time.thread_time()
            vectors = embedder.encode([t for _, t in todo], batch_size=EMBED_BATCH)
            totals["encode"] += time.thread_time() - cpu
            cpu, db = time.thread_time(), backend_cpu(pid)
            store.vectors.save_vectors(embedder.name, [r for r, _ in todo], vectors)
            totals["save"] += time.thread_time() - cpu
            totals["save_db"] += backend_cpu(pid) - db
            totals["pages"] += doc.pages
            totals["blocks"] += len(todo)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgres", required=True)
    parser.add_argument("--limit", type=int, default=3)
    parser.add_argument("folder", type=Path, nargs="?", default=FILINGS)
    args = parser.parse_args()
    files = sorted(p for p in args.folder.iterdir() if p.suffix.lower() == ".pdf")[: args.limit]
    url = fresh_schema(args.postgres)
    t = measure(url, files)
    with psycopg.connect(args.postgres, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {url.split('search_path%3D')[1].split('%2C')[0]} CASCADE")
    pages, blocks = t["pages"], t["blocks"]
    print(f"{len(files)} files, {pages:.0f} pages, {blocks:.0f} blocks")
    print("| resource | CPU s | per unit | one core sustains |")
    print("|---|---:|---:|---:|")
    rows = (
        ("parse (worker)", t["parse"], pages, "page"),
        ("store: client (worker)", t["store"], blocks, "block"),
        ("store: database", t["store_db"], blocks, "block"),
        ("encode (worker)", t["encode"], blocks, "block"),
        ("vectors: client (worker)", t["save"], blocks, "block"),
        ("vectors: database (HNSW)", t["save_db"], blocks, "block"),
    )
    for name, cpu, units, unit in rows:
        rate = units / cpu if cpu else float("inf")
        print(
            f"| {name} | {cpu:.2f} | {1000 * cpu / units:.2f} ms/{unit} | {rate:,.0f} {unit}s/s |"
        )


if __name__ == "__main__":
    main()
