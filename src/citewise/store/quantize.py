"""Binary-quantized vectors: a sign bit per dimension, searched by Hamming distance.

A million 256-d vectors are 32 MB as bits instead of 1 GB as float32, and a scan over
them takes a few milliseconds. Bits only shortlist; the shortlist is rescored with the
exact float vectors, so the final order is exact whenever the true top-k is shortlisted.

Codes are stored word-major (`codes[j]` holds word j of every vector, contiguous), so a
scan is a handful of vectorized passes over contiguous arrays.
"""

from __future__ import annotations

import numpy as np

WORD_BITS = 64


def words_for(dimensions: int) -> int:
    """64-bit words per code of a `dimensions`-d vector."""
    return -(-dimensions // WORD_BITS)


def binary_codes(vectors: np.ndarray) -> np.ndarray:
    """Sign bits of `vectors` (n x d) as a word-major (words x n) uint64 array."""
    vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
    n, d = vectors.shape
    padded = np.zeros((n, words_for(d) * WORD_BITS), dtype=bool)
    padded[:, :d] = vectors > 0
    packed = np.packbits(padded, axis=1)  # n x (words * 8) bytes
    return np.ascontiguousarray(packed.view(np.uint64).T)


def query_code(vector: np.ndarray) -> np.ndarray:
    """Sign bits of one vector as a (words,) uint64 array."""
    return binary_codes(np.asarray(vector).reshape(1, -1))[:, 0]


def hamming_distances(codes: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Bits differing between `query` and each code in word-major `codes` (uint16, n)."""
    n = codes.shape[1]
    distances = np.zeros(n, dtype=np.uint16)
    scratch = np.empty(n, dtype=np.uint64)
    counts = np.empty(n, dtype=np.uint8)
    for word, q in zip(codes, query, strict=True):
        np.bitwise_xor(word, q, out=scratch)
        np.bitwise_count(scratch, out=counts)
        np.add(distances, counts, out=distances)
    return distances


def nearest_codes(distances: np.ndarray, count: int) -> np.ndarray:
    """Positions of (at least) the `count` smallest distances, via a histogram cut.

    Cheaper than a partial sort over millions of small integers: every position at or
    below the cut-off distance is kept (unless that bin is crowded, when it is trimmed).
    """
    if count >= len(distances):
        return np.arange(len(distances))
    histogram = np.bincount(distances)
    cutoff = int(np.searchsorted(np.cumsum(histogram), count))
    kept = np.flatnonzero(distances <= cutoff)
    if len(kept) > 4 * count:  # a crowded cut-off bin (near-identical vectors): trim it
        kept = kept[np.argpartition(distances[kept], count - 1)[:count]]
    return kept


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k highest scores, best first (ties by position)."""
    if k <= 0 or len(scores) == 0:
        return np.zeros(0, dtype=np.int64)
    everything = np.arange(len(scores))
    part = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else everything
    return part[np.lexsort((part, -scores[part]))]


def rescored_top_k(
    codes: np.ndarray,
    matrix: np.ndarray,
    query: np.ndarray,
    k: int,
    shortlist: int,
    positions: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(positions, cosine similarities) of the best k rows of `matrix` for `query`.

    Shortlists at least `shortlist` rows by Hamming distance of sign bits, then ranks
    the shortlist by exact cosine with the float rows (`unit_rows`). `positions`, when given,
    restricts the search to those rows (a filter); small subsets are scored exactly.
    """
    query = np.asarray(query, dtype=np.float32)
    if positions is not None:
        if len(positions) <= shortlist:
            candidates = np.asarray(positions, dtype=np.int64)
        else:
            distances = hamming_distances(codes[:, positions], query_code(query))
            candidates = np.asarray(positions)[nearest_codes(distances, shortlist)]
    elif codes.shape[1] <= shortlist:
        candidates = np.arange(codes.shape[1])
    else:
        candidates = nearest_codes(hamming_distances(codes, query_code(query)), shortlist)
    candidates = np.sort(candidates)  # sequential reads of a memory-mapped matrix
    scores = row_dots(unit_rows(matrix[candidates]), query)
    best = top_k(scores, k)
    return candidates[best], scores[best]


def row_dots(rows: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Each row's dot product with `query`, summed the same way whatever the row's place
    among `rows`: a matrix-vector product (BLAS) rounds rows by their position in its
    blocks, so two copies of one vector could score apart in the last bit and order two
    equal passages by where they happened to be stored."""
    dots: np.ndarray = np.einsum("ij,j->i", rows, np.asarray(query, dtype=rows.dtype))
    return dots


def unit_rows(rows: np.ndarray) -> np.ndarray:
    """`rows` in float32, each divided by its norm: stored float16 rows are unit vectors
    only to ~1e-4, enough for a near-duplicate to outscore a vector's own copy."""
    rows = np.atleast_2d(np.asarray(rows, dtype=np.float32))
    norms = np.sqrt(np.einsum("ij,ij->i", rows, rows))[:, None]  # ~4x np.linalg.norm's speed
    unit: np.ndarray = rows / np.maximum(norms, 1e-12)
    return unit
