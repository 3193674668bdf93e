from __future__ import annotations

from citewise.agent.question import analyse
from citewise.llm.extractive import (
    Passage,
    idf_function,
    score_candidates,
    select_answer,
    split_sentences,
)


def test_split_keeps_abbreviations_and_decimals_inside_sentences() -> None:
    text = ("The index is 0.536 (Wu et al. 2016). We follow e.g. Fig. 3 closely. "
            "Results improve.")
    assert split_sentences(text) == [
        "The index is 0.536 (Wu et al. 2016).",
        "We follow e.g. Fig. 3 closely.",
        "Results improve.",
    ]


def test_table_blocks_split_into_rows() -> None:
    assert split_sentences("Filter Count\nNo title 20k\nNot English 15.2M", "table") == [
        "Filter Count", "No title 20k", "Not English 15.2M"]


def test_question_analysis_finds_type_and_labels() -> None:
    q = analyse("In Table 5, what score did the model get on ChemProt?")
    assert q.type == "numeric"
    assert q.labels == ["Table 5"]
    assert "chemprot" in q.terms
    assert analyse("What does the name TIMP stand for?").type == "definition"
    assert analyse("How were the transcripts analysed?").type == "method"


def _passage(block_id: str, text: str, retrieval: float = 1.0) -> Passage:
    return Passage(block_id, text, "paragraph", None, "", retrieval)


def test_numeric_question_prefers_the_sentence_with_the_number() -> None:
    q = analyse("What accuracy did the granite classifier reach?")
    passages = [
        _passage("b1", "The granite classifier is described in detail below. "
                 "The classifier reached an accuracy of 93.4% on held-out blocks."),
    ]
    idf = idf_function(10, {"accuracy": 1, "granite": 2, "classifier": 2})
    best = select_answer(score_candidates(q, passages, idf), q)
    assert best[0].text == "The classifier reached an accuracy of 93.4% on held-out blocks."


def test_answer_adds_a_second_sentence_only_for_terms_the_first_misses() -> None:
    q = analyse("How many blocks were labelled and what accuracy was reached?")
    passages = [
        _passage("b1", "Training used 1,284 labelled blocks. "
                 "The classifier reached an accuracy of 93.4%. The quarry is in Bergen."),
    ]
    idf = idf_function(10, {})
    chosen = select_answer(score_candidates(q, passages, idf), q)
    texts = {c.text for c in chosen}
    assert texts == {"Training used 1,284 labelled blocks.",
                     "The classifier reached an accuracy of 93.4%."}
