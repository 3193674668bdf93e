"""Main-result and limitations cells on Markdown papers the test writes: the paper's own
finding with its number where it sums up, the main clause after a long subordinate one, a
collection's size that is no finding; a plan for the future that cites the work it builds on,
and one stated outside the closing sections."""

from __future__ import annotations

from pathlib import Path

from tests.agent.comparison.test_matrix_cells import cells, ingest

HEADLINE = """# Tagging Dialect Tokens in Song Lyrics

## Abstract

Song lyrics mix dialect spellings with the standard language. Our tagger labels 91.5% of the \
held-out lyric tokens with their correct part of speech.

## Results

The experiments show that the tag of a token at a confidence of 0.3 increases in stability as \
more verses are seen.
"""

SIZE_NOT_FINDING = """# Ranking Product Reviews by Helpfulness

## Abstract

We gather a corpus of 2.5 million product reviews with their helpfulness votes.

## Results

Our experiments show that the ranking model outperforms the keyword baseline on every \
product category.
"""

SUBORDINATE_FIRST = """# Joint Parsing of Three Treebanks

## Abstract

We show that by training the dependency parser jointly on the three treebanks of the shared \
task with one shared sentence encoder, we obtain a large gain in attachment accuracy.
"""

PLAN_CITING = """# Segmenting Legal Contracts Into Clauses

## Abstract

We segment legal contracts into clauses with a sequence labeller.

## Results

The labeller finds 88.2% of clause boundaries.

## Conclusion

In future work we will adapt the segmenter to speech transcripts, as Moreno et al. did for \
news broadcasts.
"""

PLAN_IN_A_GUIDELINE = """# A Treebank of Tweets in Maltese

## Abstract

We annotate two thousand Maltese tweets with dependency trees.

## Annotation Guidelines

Compounds are split into their parts. We plan to revise these guidelines for ambiguous \
compounds in a future version of the treebank.

## Results

Two annotators agree on 86.0% of the attachments.
"""

TITLE_WITH_A_SECTION_WORD = """# Spotting Sarcasm in Reviews With Background Knowledge

## Abstract

We spot sarcastic product reviews with a knowledge-base lookup. Our classifier improves F1 \
by 4.2% over a lexicon baseline.

## Conclusion

In future work we will extend the lookup to reviews written in Spanish.
"""


def test_the_own_finding_with_its_number_where_the_paper_sums_up_wins(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"lyrics": HEADLINE})
    value = str(cells(lib, ids["lyrics"], "main result")["main result"]["value"])
    assert "91.5%" in value
    assert "0.3" not in value


def test_a_collections_size_is_no_finding(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"reviews": SIZE_NOT_FINDING})
    value = str(cells(lib, ids["reviews"], "main result")["main result"]["value"])
    assert "2.5 million" not in value
    assert "outperforms the keyword baseline" in value


def test_a_long_subordinate_clause_gives_way_to_the_main_clause(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"treebanks": SUBORDINATE_FIRST})
    value = str(cells(lib, ids["treebanks"], "main result")["main result"]["value"])
    assert "large gain in attachment accuracy" in value
    assert not value.startswith("by training")


def test_a_plan_citing_the_work_it_builds_on_is_a_limitation(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"contracts": PLAN_CITING})
    value = str(cells(lib, ids["contracts"], "limitations")["limitations"]["value"])
    assert "speech transcripts" in value


def test_a_plan_for_a_future_version_counts_outside_the_conclusion(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"maltese": PLAN_IN_A_GUIDELINE})
    value = str(cells(lib, ids["maltese"], "limitations")["limitations"]["value"])
    assert "revise these guidelines" in value


def test_a_title_naming_a_section_does_not_make_the_paper_others_work(tmp_path: Path) -> None:
    lib, ids = ingest(tmp_path, {"sarcasm": TITLE_WITH_A_SECTION_WORD})
    row = cells(lib, ids["sarcasm"], "main result,limitations")
    assert "4.2%" in str(row["main result"]["value"])
    assert "reviews written in Spanish" in str(row["limitations"]["value"])
