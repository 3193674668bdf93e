"""How an answer is scored against accepted strings."""

from __future__ import annotations

from citewise.eval.harness import text_is_correct


def test_short_accepted_strings_count_only_as_whole_tokens() -> None:
    assert text_is_correct("we found 2 examples.", ["2"])
    assert not text_is_correct("an improvement of 37.1% on HOVER", ["1"])
    assert not text_is_correct("GPT-4 serves as the base model", ["4"])
    assert text_is_correct("The Jaccard index is 0.536.", ["0.536"])


def test_weak_match_items_ignore_labels_list_markers_and_compounds() -> None:
    assert not text_is_correct("a diagram is not included in Chapter 9", ["9"], whole=True)
    assert not text_is_correct("Section 2.4. 2) the format of feedback", ["2"], whole=True)
    assert not text_is_correct("outperforms one-step retrieval", ["one"], whole=True)
    assert text_is_correct("the Self-Refine strategy", ["Self-Refine"], whole=True)
    assert text_is_correct("By G. A. LEBOUR, M.A., F.G.S.", ["M.A"], whole=True)


def test_answers_over_80_words_never_count() -> None:
    assert not text_is_correct("word " * 81 + "0.536", ["0.536"])
