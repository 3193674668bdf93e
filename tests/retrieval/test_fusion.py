from __future__ import annotations

import numpy as np

from citewise.retrieval.fusion import mmr, reciprocal_rank_fusion
from citewise.retrieval.terms import content_terms, stem


def test_rrf_rewards_items_both_rankings_agree_on() -> None:
    fused = reciprocal_rank_fusion([[1, 2, 3], [3, 1, 4]])
    assert max(fused, key=fused.__getitem__) == 1
    assert fused[3] > fused[2]
    assert fused[4] < fused[2]


def test_mmr_skips_a_near_duplicate_of_the_top_pick() -> None:
    vectors = np.array([[1.0, 0.0], [0.999, 0.0447], [0.0, 1.0]])
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    order = mmr([10, 11, 12], [1.0, 0.95, 0.8], vectors, k=2, diversity=0.5)
    assert order == [0, 2]


def test_mmr_without_vectors_keeps_relevance_order() -> None:
    assert mmr([1, 2, 3], [0.1, 0.9, 0.5], None, k=2) == [1, 2]


def test_content_terms_drop_stopwords_and_keep_numbers() -> None:
    assert content_terms("How many PDFs were kept in 2020 for the S2ORC corpus?") == [
        "pdfs",
        "kept",
        "2020",
        "s2orc",
        "corpus",
    ]


def test_stem_folds_plurals_and_verb_endings() -> None:
    assert stem("vocabularies") == stem("vocabulary")
    assert stem("resolved") == stem("resolve") or stem("resolved") == "resolv"
    assert stem("analysis") == "analysis"


def test_convex_fusion_keeps_a_strong_keyword_match_ahead_of_lukewarm_agreement() -> None:
    from citewise.retrieval.fusion import convex_fusion

    keyword = {1: 12.0, 2: 6.0, 3: 5.5, 4: 2.0}
    dense = {3: 0.52, 5: 0.61, 4: 0.40}
    fused = convex_fusion([keyword, dense], (0.6, 0.4))
    assert max(fused, key=fused.__getitem__) == 1  # top keyword hit, absent from dense
    assert fused[3] > fused[2]  # agreement still lifts a block above its keyword rank
    assert fused[4] == 0.0  # last in both lists after normalization
    assert convex_fusion([{}, {7: 0.3}], (0.6, 0.4)) == {7: 0.4}
