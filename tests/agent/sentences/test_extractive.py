from __future__ import annotations

from citewise.agent.ask.question import analyse
from citewise.agent.sentences.extractive import (
    MAX_WORDS,
    Candidate,
    Passage,
    idf_function,
    score_candidates,
    select_answer,
    split_sentences,
)


def test_split_keeps_abbreviations_and_decimals_inside_sentences() -> None:
    text = "The index is 0.536 (Wu et al. 2016). We follow e.g. Fig. 3 closely. Results improve."
    assert split_sentences(text) == [
        "The index is 0.536 (Wu et al. 2016).",
        "We follow e.g. Fig. 3 closely.",
        "Results improve.",
    ]


def test_table_blocks_split_into_rows() -> None:
    assert split_sentences("Filter Count\nNo title 20k\nNot English 15.2M", "table") == [
        "Filter Count",
        "No title 20k",
        "Not English 15.2M",
    ]


def test_question_analysis_finds_type_and_labels() -> None:
    q = analyse("In Table 5, what score did the model get on ChemProt?")
    assert q.type == "numeric"
    assert q.labels == ["Table 5"]
    assert "chemprot" in q.terms
    assert analyse("What does the name TIMP stand for?").type == "definition"
    assert analyse("How were the transcripts analysed?").type == "method"


def _passage(block_id: str, text: str, retrieval: float = 1.0) -> Passage:
    return Passage(block_id, "doc", text, "paragraph", None, "", retrieval)


def test_numeric_question_prefers_the_sentence_with_the_number() -> None:
    q = analyse("What accuracy did the granite classifier reach?")
    passages = [
        _passage(
            "b1",
            "The granite classifier is described in detail below. "
            "The classifier reached an accuracy of 93.4% on held-out blocks.",
        ),
    ]
    idf = idf_function(10, {"accuracy": 1, "granite": 2, "classifier": 2})
    best = select_answer(score_candidates(q, passages, lambda term, _doc: idf(term)), q)
    assert best[0].text == "The classifier reached an accuracy of 93.4% on held-out blocks."


def test_answer_adds_a_second_sentence_for_terms_the_first_misses_but_not_filler() -> None:
    q = analyse("How many blocks were labelled and what accuracy was reached?")
    passages = [
        _passage(
            "b1",
            "Training used 1,284 labelled blocks. "
            "The classifier reached an accuracy of 93.4%. The quarry is in Bergen.",
        ),
    ]
    idf = idf_function(10, {})
    chosen = select_answer(score_candidates(q, passages, lambda term, _doc: idf(term)), q)
    texts = {c.text for c in chosen}
    assert texts == {
        "Training used 1,284 labelled blocks.",
        "The classifier reached an accuracy of 93.4%.",
    }


def test_quantities_ignore_names_years_and_numbers_from_the_question() -> None:
    from citewise.agent.sentences.extractive import quantities

    assert quantities("S2ORC-SciBERT beats F1 baselines (Smith, 2019) on v3 data", "") == set()
    assert quantities("RMS error is .025 on 7,918 families", "How many of 7,918?") == {".025"}
    assert "seven" in quantities("seven came from the rural hospital", "How many?")


def test_attribute_is_the_thing_asked_about() -> None:
    assert analyse("What was the mean age of the participants?").attribute == ["mean", "age"]
    assert analyse("What share of admissions happened at night?").attribute == []
    assert analyse("What happens to accuracy when the blocks are wet?").attribute == []
    assert analyse("How many PDFs per second can it process?").attribute == [
        "pdfs",
        "per",
        "second",
    ]


def test_two_part_questions_split_into_parts() -> None:
    parts = analyse("Who funded the study, and which body approved its protocol?").parts()
    assert [p.text for p in parts] == ["Who funded the study", "which body approved its protocol?"]
    assert analyse("What is the bed capacity?").parts()[0].text == "What is the bed capacity?"


def _fitted(block: str, text: str, score: float, kind: str = "paragraph") -> Candidate:
    return Candidate(block, text, 0.5, 0.5, score, frozenset(), fitted=True, kind=kind)


def test_a_scored_answer_goes_on_past_four_short_sentences_within_its_words() -> None:
    # six likely short sentences (8 words each): the 80-word budget binds, not a count of 4
    question = analyse("Which harbours sent the letters?")
    ranked = [
        _fitted(f"b{n}", f"Letters came from harbour {n} in early spring.", 0.5) for n in range(6)
    ]
    chosen = select_answer(ranked, question)
    assert len(chosen) == 6
    assert sum(len(c.text.split()) for c in chosen) <= MAX_WORDS


def test_a_heading_does_not_go_on_with_a_prose_answer() -> None:
    question = analyse("Which harbours sent the letters?")
    ranked = [
        _fitted("b1", "Most letters came from the Bristol and Cork harbours.", 0.6),
        _fitted("b2", "3 Where the Letters Came From", 0.5, kind="heading"),
        _fitted("b3", "A few came from Lisbon.", 0.4),
    ]
    assert [c.block_id for c in select_answer(ranked, question)] == ["b1", "b3"]
