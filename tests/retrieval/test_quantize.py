from __future__ import annotations

import numpy as np

from citewise.store.quantize import (
    binary_codes,
    hamming_distances,
    nearest_codes,
    query_code,
    rescored_top_k,
    top_k,
)


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _exact_top(matrix: np.ndarray, query: np.ndarray, k: int) -> list[int]:
    return [int(i) for i in np.argsort(-(matrix @ query), kind="stable")[:k]]


def test_hamming_distance_counts_differing_signs_across_word_boundaries() -> None:
    vectors = np.ones((3, 130), dtype=np.float32)  # 130 dims: three 64-bit words, padded
    vectors[1, [0, 64, 129]] = -1.0
    vectors[2] = -1.0
    codes = binary_codes(vectors)
    assert codes.shape == (3, 3) and codes.dtype == np.uint64
    assert list(hamming_distances(codes, query_code(vectors[0]))) == [0, 3, 130]


def test_nearest_codes_keeps_every_tie_at_the_cut_off() -> None:
    distances = np.array([5, 1, 3, 3, 3, 9], dtype=np.uint16)
    assert sorted(nearest_codes(distances, 2)) == [1, 2, 3, 4]
    assert sorted(nearest_codes(distances, 10)) == list(range(6))


def test_top_k_orders_best_first_and_breaks_ties_by_position() -> None:
    scores = np.array([0.1, 0.9, 0.5, 0.9, 0.2])
    assert list(top_k(scores, 3)) == [1, 3, 2]
    assert list(top_k(scores, 9)) == [1, 3, 2, 4, 0]
    assert list(top_k(scores, 0)) == []


def test_rescored_search_agrees_exactly_with_brute_force_on_random_vectors() -> None:
    rng = np.random.default_rng(3)
    # Clustered data like real embeddings: queries sit near some stored vectors.
    centres = rng.standard_normal((40, 96))
    matrix = _unit(centres[rng.integers(0, 40, 5000)] + 0.6 * rng.standard_normal((5000, 96)))
    codes = binary_codes(matrix)
    for _ in range(25):
        query = _unit(centres[rng.integers(0, 40)][None] + 0.6 * rng.standard_normal((1, 96)))[0]
        positions, scores = rescored_top_k(codes, matrix, query, k=10, shortlist=500)
        assert list(positions) == _exact_top(matrix, query, 10)
        assert np.allclose(scores, matrix[positions] @ query)


def test_rescored_search_is_exact_when_the_shortlist_covers_everything() -> None:
    rng = np.random.default_rng(5)
    matrix = _unit(rng.standard_normal((300, 64)))
    query = _unit(rng.standard_normal((1, 64)))[0]
    positions, _ = rescored_top_k(binary_codes(matrix), matrix, query, k=20, shortlist=300)
    assert list(positions) == _exact_top(matrix, query, 20)


def test_rescored_search_never_leaves_the_allowed_rows() -> None:
    rng = np.random.default_rng(9)
    matrix = _unit(rng.standard_normal((2000, 64)))
    codes = binary_codes(matrix)
    query = matrix[7]
    allowed = np.arange(1000, 2000)  # row 7, the best match overall, is filtered out
    small, _ = rescored_top_k(codes, matrix, query, k=5, shortlist=2000, positions=allowed)
    large, _ = rescored_top_k(codes, matrix, query, k=5, shortlist=200, positions=allowed)
    sub = matrix[allowed]
    assert list(small) == [int(allowed[i]) for i in _exact_top(sub, query, 5)]
    assert set(large) <= set(allowed.tolist()) and 7 not in large
