"""Markdown tables for benchmarks/retrieval.py results (a pure function of the results)."""

from __future__ import annotations

from typing import Any

import numpy as np


def _p(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else 0.0


def _ms(value: float) -> str:
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _size_table(name: str, info: dict[str, Any]) -> list[str]:
    runs = info["runs"]
    hybrid = next(r for r in runs if r["method"] == "hybrid")
    base_p50 = _p(hybrid["search_ms"], 50) or 1e-9
    title = "corpus only" if name == "corpus" else f"{info['blocks']:,} blocks"
    lines = [
        f"#### {title} ({info['blocks']:,} blocks, store {info['store_mb']:.0f} MB)",
        "",
        "| method | recall@5 | recall@10 | MRR | p50 ms | p95 ms | query embed p50 ms "
        "| p50 vs hybrid | index build or load s | peak RSS MB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        q = run["quality"]
        p50, p95 = _p(run["search_ms"], 50), _p(run["search_ms"], 95)
        embed = _p(run["embed_ms"], 50) if any(run["embed_ms"]) else 0.0
        timed = len(run["search_ms"])
        note = f" ({timed} of {run['queries']} timed)" if timed < run["queries"] else ""
        lines.append(
            f"| {run['label']}{note} | {q['recall@5']:.3f} | {q['recall@10']:.3f} "
            f"| {q['mrr']:.3f} | {_ms(p50)} | {_ms(p95)} | {_ms(embed) if embed else '—'} "
            f"| {p50 / base_p50:.1f}× | {run['build_s']:.1f} | {run['rss_mb']:.0f} |"
        )
    return lines


def _floors(results: dict[str, Any]) -> list[str]:
    lines = []
    for name, info in results["sizes"].items():
        runs: dict[str, Any] = {}
        for run in info["runs"]:
            runs.setdefault(run["method"], run)  # the default model's hybrid comes first
        if "hybrid" not in runs:  # --methods left it out
            continue
        hybrid, fts5, seed = runs["hybrid"], runs.get("fts5"), runs.get("seed-000")
        p50 = _p(hybrid["search_ms"], 50)
        r5 = hybrid["quality"]["recall@5"]
        facts = [f"hybrid p50 {p50:.1f} ms", f"peak RSS {hybrid['rss_mb']:,.0f} MB"]
        if seed:
            facts.append(f"{_p(seed['search_ms'], 50) / max(p50, 1e-9):,.0f}× faster than seed-000")
        if fts5:
            facts.append(
                f"recall@5 {r5:.3f} vs BM25-only {fts5['quality']['recall@5']:.3f} "
                f"({r5 - fts5['quality']['recall@5']:+.3f})"
            )
        if seed:
            facts.append(f"vs seed-000 {seed['quality']['recall@5']:.3f}")
        label = "corpus" if name == "corpus" else f"{info['blocks']:,} blocks"
        lines.append(f"- {label}: " + "; ".join(facts))
    return lines


def render(results: dict[str, Any], default_model: str) -> str:
    base = results["base"]
    lines = [
        "## Retrieval",
        "",
        f"Machine: {results['machine']}. Whole run: {results['seconds']:.0f} s. "
        f"Default embedding model: `{default_model}`.",
        "",
        "Libraries: the 8 corpus PDFs alone, then padded with generated filler blocks "
        "(corpus sentences with 25% of words swapped and digits re-drawn). Queries: the 52 "
        "questions of `shared/qa/dev.yaml`; quality counts the answerable ones whose gold "
        "page has trusted text "
        f"({results['sizes']['corpus']['runs'][0]['quality']['judged']}): a hit is any "
        "block from a gold page. Latency excludes query embedding (its own column); each "
        "method runs in a fresh process, so peak RSS includes Python, numpy and the "
        "method's model. `p50 vs hybrid` is the method's p50 over citewise's.",
        "",
        "How citewise stays fast: BM25 runs over memory-mapped postings with precomputed "
        "term-frequency factors (`retrieval/keyword_index.py`), not FTS5, whose BM25 scores "
        "every block matching any query word; dense search shortlists by Hamming distance "
        "over sign bits held in RAM (32 bytes per block) and rescores the shortlist exactly "
        "from a memory-mapped float16 matrix in float32 arithmetic "
        "(`store/sqlite/vector_index.py`). Both index files "
        "follow SQLite through trigger-kept change counters, so a query checks freshness "
        "with one tiny read. Vectors come from a static model distilled offline from the "
        "bundled MiniLM (`embed/static.py`). The two top-50 lists are fused by min-max "
        "normalized scores (0.6 BM25, 0.4 cosine); a keyword candidate the dense shortlist "
        "missed is scored by its exact cosine rather than zero (`retrieval/hybrid.py`).",
        "",
        "Embedding at ingest (the corpus's trusted blocks, model already loaded):",
        "",
        "| model | blocks | seconds | blocks/s | model load s |",
        "|---|---:|---:|---:|---:|",
    ]
    for key, value in base.items():
        if key.startswith("embed:"):
            model = key.split(":", 1)[1]
            lines.append(
                f"| `{model}` | {value['blocks']}{' (sample)' if value.get('sampled') else ''} "
                f"| {value['seconds']:.2f} "
                f"| {value['blocks_per_s']:,.0f} | {base['load:' + model]:.1f} |"
            )
    builds = [(n, i) for n, i in results["sizes"].items() if n != "corpus"]
    if builds:
        lines += [
            "",
            "Building the padded libraries (citewise store; filler only, the corpus is copied):",
            "",
            "| blocks | blocks + FTS5 s | embed s | embed blocks/s | vector files s "
            "| BM25 postings s | store MB |",
            "|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for _, info in builds:
            embed = info["embed"]
            reused = " (earlier run)" if info.get("reused") else ""
            lines.append(
                f"| {info['blocks']:,}{reused} | {info['store_s']:.1f} | {embed['seconds']:.1f} "
                f"| {embed['blocks_per_s']:,.0f} | {info['index_s']:.1f} "
                f"| {info['keywords_s']:.1f} | {info['store_mb']:.0f} |"
            )
    for name, info in results["sizes"].items():
        lines += ["", *_size_table(name, info)]
    lines += ["", "Floors of issue 7, from the tables above:", "", *_floors(results)]
    lines += [
        "",
        f"Reproduce: `{results['command']} --write docs/benchmarks.md` "
        "(add `1M` to the sizes for the million-block library).",
    ]
    return "\n".join(lines)
