"""Retrieval at scale: citewise hybrid vs BM25-only, dense-only, the seed-000 design and
the BM25 peers `bm25s` and `rank_bm25`, on the same libraries in the same run.

    python benchmarks/retrieval.py [--sizes 10k,100k] [--write docs/benchmarks.md]
    python benchmarks/retrieval.py --sizes 10k,100k,1M --write docs/benchmarks.md

Libraries: the shared corpus (8 PDFs), alone and padded with generated filler blocks to
each size (see retrieval_data.py). Queries: every question of shared/qa/dev.yaml; quality
is judged on the answerable ones against the blocks of their gold pages. Each method runs
in its own process, so its peak RSS is its own.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval_data import (  # noqa: E402
    Query,
    add_filler,
    copy_library,
    load_queries,
    parse_size,
    store_megabytes,
)
from retrieval_methods import METHODS, EmbeddingCache, Method  # noqa: E402
from retrieval_report import render  # noqa: E402

from citewise.api import Library  # noqa: E402
from citewise.embed.base import DEFAULT_MODEL, MINILM, load_embedder  # noqa: E402
from citewise.embed.static import STATIC_MODEL  # noqa: E402
from citewise.ingest import embed_missing  # noqa: E402
from citewise.retrieval.keyword_index import KeywordIndex  # noqa: E402
from citewise.store.sqlite.library import LibraryStore  # noqa: E402
from citewise.store.sqlite.vector_index import VectorIndex  # noqa: E402
from citewise.store.sqlite.vectors import blocks_without_vectors, register_model, save_vectors

ROOT = Path(__file__).resolve().parents[1]
BENCH_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "citewise/bench"
SHARED = Path(os.environ.get("CITEWISE_SHARED") or ROOT.parent / "shared")
if not SHARED.is_dir():
    SHARED = Path("/work/shared")
# rank_bm25 scores every block in Python per query term: beyond this it takes minutes.
RANK_BM25_MAX = 100_000
MINILM_SAMPLE = 256  # corpus blocks MiniLM embeds on the clock
WARM_UP = "warm-up question about language model training data and evaluation"


def peak_rss_mb() -> float:
    """This process's peak resident set (VmHWM; ru_maxrss would include the parent's)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


# -- worker: one method on one library, in a fresh process ------------------------------


def run_worker(args: argparse.Namespace) -> None:
    store = LibraryStore(Path(args.library))
    embedder = load_embedder(args.model) if args.model else None
    method = METHODS[args.worker](store, embedder)
    if args.cache:
        method.cache = EmbeddingCache(Path(args.cache))
    started = time.perf_counter()
    method.prepare()
    build = time.perf_counter() - started
    method.search(WARM_UP, method.embed(WARM_UP))
    queries = json.loads(Path(args.queries).read_text())
    rankings, search_ms, embed_ms = [], [], []
    for n, text in enumerate(queries):
        method.use_cache = n >= args.timed
        t0 = time.perf_counter()
        qvec = method.embed(text)
        t1 = time.perf_counter()
        ranked = method.search(text, qvec)
        t2 = time.perf_counter()
        rankings.append(ranked)
        if n < args.timed:
            embed_ms.append((t1 - t0) * 1000)
            search_ms.append((t2 - t1) * 1000)
    peak = peak_rss_mb()
    result = {"build_s": build, "rss_mb": peak, "search_ms": search_ms, "embed_ms": embed_ms}
    result["rankings"] = rankings
    Path(args.out).write_text(json.dumps(result))


def run_method(
    method: str,
    library: Path,
    model: str | None,
    queries: list[Query],
    timed: int,
    work: Path,
    cache: str,
) -> dict[str, object]:
    qfile, out = work / "queries.json", work / f"result-{method}.json"
    qfile.write_text(json.dumps([q.text for q in queries]))
    command = [sys.executable, __file__, "--worker", method, "--library", str(library)]
    command += ["--queries", str(qfile), "--out", str(out), "--timed", str(timed)]
    command += ["--cache", cache]
    if model:
        command += ["--model", model]
    subprocess.run(command, check=True)
    result: dict[str, object] = json.loads(out.read_text())
    out.unlink()
    return result


# -- quality ------------------------------------------------------------------------------


def quality(rankings: list[list[int]], queries: list[Query]) -> dict[str, float]:
    """recall@5, recall@10 and MRR@10 over answerable queries with gold blocks."""
    judged = [(r, q) for r, q in zip(rankings, queries, strict=True) if q.relevant]
    hits5 = sum(any(b in q.relevant for b in r[:5]) for r, q in judged)
    hits10 = sum(any(b in q.relevant for b in r[:10]) for r, q in judged)
    rr = 0.0
    for ranking, query in judged:
        first = next((i for i, b in enumerate(ranking[:10], 1) if b in query.relevant), None)
        rr += 1 / first if first else 0.0
    n = len(judged) or 1
    return {"recall@5": hits5 / n, "recall@10": hits10 / n, "mrr": rr / n, "judged": len(judged)}


# -- orchestration ------------------------------------------------------------------------


def embed_timed(store: LibraryStore, model: str) -> dict[str, float]:
    embedder = load_embedder(model)
    if embedder is None:
        raise SystemExit(f"embedding model {model} is not available")
    started = time.perf_counter()
    blocks = embed_missing(store, embedder)
    seconds = time.perf_counter() - started
    return {"blocks": blocks, "seconds": seconds, "blocks_per_s": blocks / max(seconds, 1e-9)}


def embed_sampled(store: LibraryStore, model: str, cache: str, sample: int) -> dict[str, float]:
    """Embed every block with a slow model, timing the first `sample` blocks only; the rest
    come from the benchmark's vector cache when an earlier run computed them."""
    embedder = load_embedder(model)
    if embedder is None:
        raise SystemExit(f"embedding model {model} is not available")
    register_model(store.db, model, embedder.dimensions)
    todo = blocks_without_vectors(store.db, model)
    timed, rest = todo[:sample], todo[sample:]
    started = time.perf_counter()
    save_vectors(store.db, model, [r for r, _ in timed], embedder.encode([t for _, t in timed]))
    seconds = time.perf_counter() - started
    method = Method(store)
    method.cache, method.use_cache = (EmbeddingCache(Path(cache)) if cache else None), True
    for start in range(0, len(rest), 256):
        chunk = rest[start : start + 256]
        vectors = method.encode_blocks(embedder, [t for _, t in chunk])
        save_vectors(store.db, model, [r for r, _ in chunk], vectors)
    blocks = len(timed)
    speed = blocks / max(seconds, 1e-9)
    return {"blocks": blocks, "seconds": seconds, "blocks_per_s": speed, "sampled": 1.0}


def index_timed(store: LibraryStore, model: str) -> float:
    started = time.perf_counter()
    VectorIndex(store.directory, model).refresh(store.db)
    return time.perf_counter() - started


def keywords_timed(store: LibraryStore) -> float:
    started = time.perf_counter()
    KeywordIndex(store.directory).refresh(store)
    return time.perf_counter() - started


def reused(target: Path) -> dict[str, object] | None:
    """What an earlier run with the same --work folder recorded when it built `target`."""
    try:
        info: dict[str, object] = json.loads((target / "build.json").read_text())
    except (OSError, ValueError):
        return None
    info["reused"] = True
    info["store_mb"] = store_megabytes(target)
    return info


def recorded(target: Path, info: dict[str, object]) -> dict[str, object]:
    (target / "build.json").write_text(json.dumps(info))
    return info


def build_base(work: Path, pdfs: list[Path], cache: str) -> dict[str, object]:
    base = work / "corpus"
    earlier = reused(base)
    if earlier:
        return earlier
    with Library(base, embeddings=False) as lib:
        lib.ingest(pdfs)
        store = lib.store
        info: dict[str, object] = {"blocks": store.stats()["blocks"]}
        for model in dict.fromkeys([DEFAULT_MODEL, MINILM, STATIC_MODEL]):
            started = time.perf_counter()
            load_embedder(model)  # loading (or a first-use distillation) is not embedding
            info[f"load:{model}"] = time.perf_counter() - started
            if model == MINILM:  # ~50 blocks/s: time a sample, reuse earlier runs' vectors
                info[f"embed:{model}"] = embed_sampled(store, model, cache, MINILM_SAMPLE)
            else:
                info[f"embed:{model}"] = embed_timed(store, model)
            info[f"index:{model}"] = index_timed(store, model)
        info["keywords_s"] = keywords_timed(store)
    return recorded(base, info)


def build_size(work: Path, size: int) -> dict[str, object]:
    target = work / f"n{size}"
    earlier = reused(target)
    if earlier:
        return earlier
    copy_library(work / "corpus", target)
    store = LibraryStore(target)
    started = time.perf_counter()
    added = add_filler(store, size)
    filler_s = time.perf_counter() - started
    embedded = embed_timed(store, DEFAULT_MODEL)
    index_s = index_timed(store, DEFAULT_MODEL)
    keywords_s = keywords_timed(store)
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    blocks = store.stats()["blocks"]
    store.close()
    info = {
        "blocks": blocks,
        "filler_blocks": added,
        "store_s": filler_s,
        "embed": embedded,
        "index_s": index_s,
        "keywords_s": keywords_s,
        "store_mb": store_megabytes(target),
    }
    return recorded(target, info)


def plan(size: int | None) -> list[tuple[str, str | None, str]]:
    """(method, model, label) to run on a library (None size: the corpus alone)."""
    runs: list[tuple[str, str | None, str]] = [("hybrid", DEFAULT_MODEL, "")]
    if size is None:
        other = MINILM if DEFAULT_MODEL != MINILM else STATIC_MODEL
        runs.append(("hybrid", other, f"citewise hybrid, `{other}` vectors"))
        if DEFAULT_MODEL != MINILM:
            runs.append(("hybrid-rescored", DEFAULT_MODEL, ""))
    runs += [
        ("fts5", None, ""),
        ("dense-binary", DEFAULT_MODEL, ""),
        ("dense-exact", DEFAULT_MODEL, ""),
        ("seed-000", MINILM, ""),
        ("bm25s", None, ""),
    ]
    if (size or 0) <= RANK_BM25_MAX:
        runs.append(("rank-bm25", None, ""))
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10k,100k", help="library sizes in blocks")
    parser.add_argument("--write", type=Path, default=None, help="update this Markdown file")
    parser.add_argument(
        "--work", type=Path, default=None, help="keep libraries here; reuse those built before"
    )
    parser.add_argument("--seed-timed", type=int, default=8, help="seed-000 queries timed")
    parser.add_argument(
        "--methods", default="", help="run only these methods (e.g. hybrid,dense-binary)"
    )
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--library", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--model", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--queries", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--out", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--timed", type=int, default=10**9, help=argparse.SUPPRESS)
    parser.add_argument(
        "--cache",
        default=str(BENCH_CACHE / "vectors.sqlite"),
        help="block vectors reused by untimed seed-000 queries ('' for none)",
    )
    args = parser.parse_args()
    if args.worker:
        run_worker(args)
        return

    began = time.perf_counter()
    load_before = os.getloadavg()[0]
    work = args.work or Path(tempfile.mkdtemp(prefix="citewise-retrieval-"))
    work.mkdir(parents=True, exist_ok=True)
    pdfs = sorted((SHARED / "corpus").glob("*.pdf"))
    print(f"building corpus library in {work}", flush=True)
    base = build_base(work, pdfs, args.cache)
    store = LibraryStore(work / "corpus")
    queries = load_queries(store, SHARED / "qa" / "dev.yaml")
    store.close()
    results: dict[str, object] = {"base": base, "sizes": {}}
    sizes: list[int | None] = [None, *(parse_size(s) for s in args.sizes.split(",") if s)]
    for size in sizes:
        name = "corpus" if size is None else f"n{size}"
        if size is None:
            info: dict[str, object] = {"blocks": base["blocks"]}
            info["store_mb"] = store_megabytes(work / "corpus")
        else:
            print(f"building {size:,}-block library", flush=True)
            info = build_size(work, size)
        runs = []
        only = {m for m in args.methods.split(",") if m}
        for method, model, label in plan(size):
            if only and method not in only:
                continue
            print(f"  {name}: {label or method}", flush=True)
            slow = method in ("seed-000", "hybrid-rescored")
            timed = args.seed_timed if slow else len(queries)
            result = run_method(method, work / name, model, queries, timed, work, args.cache)
            rankings = result.pop("rankings")
            assert isinstance(rankings, list)
            result["quality"] = quality(rankings, queries)
            result["queries"] = len(rankings)
            result["method"], result["model"] = method, model
            result["label"] = label or METHODS[method].name
            runs.append(result)
        info["runs"] = runs
        results["sizes"][name] = info  # type: ignore[index]
        if size is not None and not args.work:
            shutil.rmtree(work / name, ignore_errors=True)
    results["seconds"] = time.perf_counter() - began
    results["machine"] = (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}; load average {load_before:.1f} at start, "
        f"{os.getloadavg()[0]:.1f} at end"
    )
    results["command"] = "python benchmarks/retrieval.py --sizes " + args.sizes
    (work / "results.json").write_text(json.dumps(results, indent=1))
    table = render(results, DEFAULT_MODEL)
    print(table)
    if args.write:
        text = args.write.read_text() if args.write.exists() else "# Benchmarks\n"
        begin, end = "<!-- retrieval-benchmark:begin -->", "<!-- retrieval-benchmark:end -->"
        pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.DOTALL)
        block = f"{begin}\n{table}\n{end}"
        text = (
            pattern.sub(lambda _: block, text)
            if pattern.search(text)
            else (text.rstrip() + "\n\n" + block)
        )
        args.write.write_text(text + ("" if text.endswith("\n") else "\n"))
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
