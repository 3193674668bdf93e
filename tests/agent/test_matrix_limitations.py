"""The limitations cell on Markdown papers the test writes: what the paper says its own work
cannot do, its own future work even where it cites others, never a sentence that only
announces a discussion of limitations."""

from __future__ import annotations

from pathlib import Path

from tests.agent.test_matrix_cells import cells, ingest

ANNOUNCED = """# Parsing Tweets With Few Labels

## Abstract

We present a dependency parser for tweets trained on two hundred annotated posts.

## Limitations and Strengths

To reveal the limitations and strengths of the parser, we analyse its errors by sentence length.

## Conclusion

Although the parser runs fast on a laptop, it does not handle coordination inside hashtags.
"""

CITED_PLAN = """# Tagging Old Spanish Letters

## Abstract

We train a part-of-speech tagger for letters written in sixteenth-century Spanish.

## Conclusion and Future Work

The tagger reaches 91.2% accuracy on held-out letters. Our future work includes adding a \
morphological lexicon to the tagger, following the design of Ortega et al. (2019).
"""

INABILITY = """# Word Swaps as Noise for Denoising Translation

## Abstract

We propose adding local word swaps as noise when training a denoising autoencoder.

## Analysis

Local swaps help most for adjectives. This noise cannot handle movement of whole clauses \
across a sentence, which remains a source of errors.
"""


def test_a_sentence_announcing_limitations_is_none_and_a_concession_states_one(
    tmp_path: Path,
) -> None:
    lib, ids = ingest(tmp_path, {"tweets": ANNOUNCED})
    value = str(cells(lib, ids["tweets"], "limitations")["limitations"]["value"])
    assert "does not handle coordination" in value
    assert "To reveal" not in value


def test_the_authors_future_work_counts_where_it_cites_others(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"letters": CITED_PLAN})
    value = str(cells(lib, ids["letters"], "limitations")["limitations"]["value"])
    assert value.startswith("Our future work includes adding a morphological lexicon")


def test_what_the_papers_own_method_cannot_do_is_a_limitation(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"swaps": INABILITY})
    value = str(cells(lib, ids["swaps"], "limitations")["limitations"]["value"])
    assert "cannot handle movement of whole clauses" in value
