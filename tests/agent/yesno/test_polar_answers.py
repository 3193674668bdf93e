"""Yes/no questions (agent/yesno/polar.py): "Yes" or "No" leads the quote only when the quote
settles the question; otherwise the answer is the quote as before. On PDFs the tests write,
asked through the real library."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from citewise.agent.ask.answer import Answer, AnswerSentence, Evidence
from citewise.agent.generation.verify import Verifier
from citewise.agent.numeric.numeric_check import checked
from citewise.agent.yesno.polar import is_polar
from citewise.api import Library
from citewise.report.terminal import print_answer
from tests.agent.ask.test_answers_that_generalize import FILLER, paper_library

ENCODER = "The acoustic encoder is fine-tuned on 12,000 annotated field recordings."
BOOSTED = (
    "GRANOLA does not use a neural network; it labels each block with gradient boosted "
    "trees over the echo spectrum."
)
WET = "The accuracy difference between wet and dry blocks was not significant (p = 0.41)."
HEDGED = "Probe sorting may shorten the crusher maintenance window in winter."
INSTEAD = "The probe records the echo with a contact microphone instead of an air microphone."
FAILS = "The spectral filter fails to remove the conveyor belt noise."
CITED = "Acoustic probes detect hairline cracks in marble slabs (Stone et al., 2015)."
# the paper: a claim a page, after a sentence of its own or the acknowledgements (FILLER)
PAGES = [
    ["GRANOLA classifies granite blocks from the echo of forty probe taps.", ENCODER],
    [FILLER, BOOSTED],
    ["The probe was tested at the Bergen quarry over six months.", WET],
    *([FILLER, claim] for claim in (HEDGED, INSTEAD, FAILS, CITED)),
]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    title = "GRANOLA: Acoustic Sorting of Granite Blocks"
    with paper_library(tmp_path_factory, "granola.pdf", title, PAGES) as lib:
        yield lib


def _verbatim(answer: Answer) -> None:
    """Every sentence is still a verbatim piece of a quote it cites."""
    quotes = {e.id: " ".join(e.quote.split()) for e in answer.evidence}
    for s in answer.sentences:
        assert any(" ".join(s.text.split()) in quotes[c] for c in s.citations), s.text


def test_a_quote_that_states_the_claim_is_led_by_yes(library: Library) -> None:
    answer = library.ask("Is the acoustic encoder fine-tuned on annotated field recordings?")
    assert not answer.refused
    assert (
        answer.answer.startswith("Yes. ") and "12,000 annotated field recordings" in answer.answer
    )
    assert answer.sentences[0].lead == "Yes" and answer.sentences[0].text.startswith("The")
    _verbatim(answer)
    first = answer.to_dict()["sentences"][0]  # type: ignore[index]
    assert first["lead"] == "Yes" and "Yes" not in first["text"]


def test_the_terminal_shows_the_lead_before_the_quote(library: Library) -> None:
    answer = library.ask("Is the acoustic encoder fine-tuned on annotated field recordings?")
    console = Console(record=True, width=200)
    print_answer(console, answer)
    assert "Yes. The acoustic encoder is fine-tuned" in console.export_text()


def test_a_quote_that_negates_the_claim_is_led_by_no(library: Library) -> None:
    answer = library.ask("Does GRANOLA use a neural network to label the blocks?")
    assert not answer.refused and answer.answer.startswith("No. ")
    assert "does not use a neural network" in answer.answer
    _verbatim(answer)
    wet = library.ask("Was the accuracy difference between wet and dry blocks significant?")
    assert wet.answer.startswith("No. ") and "not significant" in wet.answer


def test_a_hedged_quote_stays_a_plain_quote(library: Library) -> None:
    hedged = library.ask("Does probe sorting shorten the crusher maintenance window?")
    assert not hedged.refused and "may shorten" in hedged.answer
    assert not hedged.answer.startswith(("Yes.", "No.")) and hedged.sentences[0].lead == ""


@pytest.mark.parametrize(
    ("question", "quoted"),
    [
        # the quote says "field recordings" where the question says "AudioSet recordings",
        # a name the paper never writes: another thing than the one asked about
        ("Is the acoustic encoder fine-tuned on annotated AudioSet recordings?", "field"),
        # the alternative the paper uses, set against the one asked about
        ("Does the probe record the echo with an air microphone?", "instead of an air"),
        # a negative verb on the claim
        ("Does the spectral filter remove the conveyor belt noise?", "fails to remove"),
    ],
)
def test_a_quote_naming_another_thing_or_a_negative_verb_is_led_by_no(
    library: Library, question: str, quoted: str
) -> None:
    answer = library.ask(question)
    assert not answer.refused and quoted in answer.answer
    assert answer.answer.startswith("No. "), answer.answer
    _verbatim(answer)


def test_a_quote_reporting_another_papers_finding_gets_no_lead(library: Library) -> None:
    answer = library.ask("Do acoustic probes detect hairline cracks in marble slabs?")
    assert not answer.refused and "Stone et al." in answer.answer
    assert not answer.answer.startswith(("Yes.", "No.")), answer.answer


def test_an_either_or_question_and_a_refusal_get_no_lead(library: Library) -> None:
    either = library.ask("Is the acoustic encoder fine-tuned on field recordings or on speech?")
    assert not either.answer.startswith(("Yes.", "No."))
    refused = library.ask("Was the field campaign funded by a national science agency?")
    assert refused.refused and not refused.answer.startswith(("Yes.", "No."))
    assert all(not s.lead for s in refused.withheld)


def test_polar_questions_are_told_from_wh_either_or_and_requests() -> None:
    assert is_polar("Does ProgramFC use BM25 as the retriever? Answer yes or no.")
    assert is_polar("In the open-book setting, is the retriever BM25?")
    assert is_polar("Is the encoder fine-tuned or not?")
    assert not is_polar("Is the encoder fine-tuned on speech or on music?")
    assert not is_polar("What does GRANOLA use as its classifier?")
    assert not is_polar("Does the paper say which optimizer is used?")
    assert not is_polar("Can you list the datasets?")
    # a "than" comparison is polar when its comparative and two sides are found
    # (tests/agent/yesno/test_polar_compare.py); two comparisons, or none named, are not
    assert is_polar("Is GRANOLA more accurate than MARBLET?")
    assert not is_polar("Is GRANOLA more accurate than MARBLET and faster than BASALT?")
    assert not is_polar("Does GRANOLA use taps rather than sound?")
    assert not is_polar("Doesn't GRANOLA use a neural network?")


def test_the_checker_allows_yes_only_as_the_lead_of_a_cited_quote() -> None:
    verifier = Verifier()
    assert verifier.check(f"Yes. {ENCODER}", [ENCODER]).supported
    bare = verifier.check("Yes.", [ENCODER])
    assert not bare.supported and "bare" in bare.reason
    assert not verifier.check("No. The probes run on solar power.", [ENCODER]).supported


def _answer(text: str, lead: str) -> Answer:
    evidence = Evidence("b1", "d1", "GRANOLA", 1, [0, 0, 1, 1], "", ENCODER, "")
    sentence = AnswerSentence(text, ["b1"], 1.0, lead=lead)
    return Answer("q?", False, f"{lead}. {text}", [sentence], [evidence], 1.0)


def test_answer_check_drops_a_lead_that_leads_no_cited_quote() -> None:
    kept = checked(_answer(ENCODER, "Yes"))
    assert kept.sentences[0].lead == "Yes" and kept.answer == f"Yes. {ENCODER}"
    invented = checked(_answer("The encoder is trained on speech.", "Yes"))
    assert (
        invented.sentences[0].lead == "" and invented.answer == "The encoder is trained on speech."
    )
    odd = checked(_answer(ENCODER, "Maybe"))
    assert odd.sentences[0].lead == "" and not odd.answer.startswith("Maybe")


def test_answer_json_has_a_lead_only_when_one_is_given(tmp_path: Path) -> None:
    plain = _answer(ENCODER, "").to_dict()["sentences"][0]  # type: ignore[index]
    assert "lead" not in plain
