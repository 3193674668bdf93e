"""Yes/no questions about one paper (agent/yesno/): "Yes" when the paper's body states the
claim, "No" when the quote negates it or the paper names another thing, or when the question
asks past what the paper states; no lead when nothing settles it. On a Markdown paper the
test writes, asked through the real library scoped to that paper."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from citewise.agent.ask.answer import Answer
from citewise.agent.sourced_lists import read_lists
from citewise.agent.yesno.claim import claim_of
from citewise.agent.yesno.cues import cues, parse_cues
from citewise.agent.yesno.features import Features
from citewise.agent.yesno.lead import is_yes_no_question
from citewise.agent.yesno.model import model, parse_model
from citewise.agent.yesno.polar_words import WORDS_FILE, pairs
from citewise.agent.yesno.polar_words import words as polar_words
from citewise.api import Library
from citewise.errors import CitewiseError
from tests.conftest import load_script

PAPER = """# TIDEWAY: Reading Ferry Timetables with a Layout Parser

## Abstract

TIDEWAY reads printed ferry timetables into departure tables.

## Introduction

Timetables of small ferry lines are printed in many layouts.

## Method

We fine-tune the layout parser on 4,000 annotated ferry timetables from Norwegian ports.

The parser does not use a lexicon of harbour names.

The timetable reader may shorten the ticket queue at busy ports.

## Experiments

We evaluate the parser on the Skagerrak timetable corpus.

The parser records departures with a column tagger instead of a row tagger.

## Conclusion

TIDEWAY turns a scanned timetable into a table in one pass.
"""


@pytest.fixture(scope="module")
def paper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Library, str]]:
    folder = tmp_path_factory.mktemp("tideway")
    (folder / "tideway.md").write_text(PAPER, encoding="utf-8")
    lib = Library(folder / "library", embeddings=False)
    assert lib.ingest([folder / "tideway.md"]).failed == []
    try:
        yield lib, lib.documents()[0].id
    finally:
        lib.close()


def _ask(paper: tuple[Library, str], question: str) -> Answer:
    lib, doc = paper
    return lib.ask(question, [doc], review=False)


def _verbatim(answer: Answer) -> None:
    """The lead stands beside a sentence that is still a verbatim piece of what it cites."""
    quotes = {e.id: " ".join(e.quote.split()) for e in answer.evidence}
    for s in answer.sentences:
        assert any(" ".join(s.text.split()) in quotes[c] for c in s.citations), s.text


def test_a_claim_the_body_states_is_led_by_yes(paper: tuple[Library, str]) -> None:
    answer = _ask(paper, "Did the authors fine-tune their parser on annotated ferry timetables?")
    assert not answer.refused and answer.answer.startswith("Yes. "), answer.answer
    assert "4,000 annotated ferry timetables" in answer.answer
    _verbatim(answer)


def test_a_passive_question_is_the_active_sentence_s_relation(
    paper: tuple[Library, str],
) -> None:
    asked = _ask(paper, "Was the layout parser fine-tuned on annotated ferry timetables?")
    assert asked.answer.startswith("Yes. ") and "We fine-tune" in asked.answer, asked.answer
    _verbatim(asked)
    # the same words with the sides swapped: the quote, never a lead either way
    swapped = _ask(paper, "Were annotated ferry timetables fine-tuned on the layout parser?")
    assert not swapped.answer.startswith(("Yes.", "No.")), swapped.answer


def test_a_negated_claim_is_led_by_no(paper: tuple[Library, str]) -> None:
    answer = _ask(paper, "Is a lexicon of harbour names used by the parser?")
    assert answer.answer.startswith("No. ") and "does not use a lexicon" in answer.answer
    _verbatim(answer)


def test_the_alternative_the_paper_uses_is_led_by_no(paper: tuple[Library, str]) -> None:
    instead = _ask(paper, "Does the parser record departures with a row tagger?")
    assert instead.answer.startswith("No. ") and "instead of a row tagger" in instead.answer
    # the same quote affirms the one it uses
    used = _ask(paper, "Does the parser record departures with a column tagger?")
    assert used.answer.startswith("Yes. ") and "instead of a row tagger" in used.answer
    # a name the paper never writes, where the quote writes another
    other = _ask(paper, "Do they evaluate the parser on the OpenFerry timetable corpus?")
    assert other.answer.startswith("No. ") and "Skagerrak" in other.answer
    _verbatim(other)


def test_asking_beyond_the_only_thing_the_paper_names_is_led_by_no(
    paper: tuple[Library, str],
) -> None:
    answer = _ask(paper, "Is the parser evaluated on corpora other than Skagerrak?")
    assert answer.answer.startswith("No. "), answer.answer


def test_a_hedged_claim_gets_no_lead(paper: tuple[Library, str]) -> None:
    answer = _ask(paper, "Does the timetable reader shorten the ticket queue?")
    assert not answer.refused and "may shorten" in answer.answer
    assert not answer.answer.startswith(("Yes.", "No.")) and answer.sentences[0].lead == ""


def test_a_question_that_is_not_yes_or_no_gets_no_lead(paper: tuple[Library, str]) -> None:
    answer = _ask(paper, "Which corpus is the parser evaluated on?")
    assert not answer.answer.startswith(("Yes.", "No."))
    assert is_yes_no_question("In the experiments, is the parser evaluated on Skagerrak?")
    assert not is_yes_no_question("Is the parser evaluated on Skagerrak or on Kattegat?")
    assert not is_yes_no_question("Can you list the corpora?")
    assert not is_yes_no_question("Doesn't the parser use a lexicon?")


def test_a_claim_sets_aside_what_it_excludes_and_notes_its_quantifier() -> None:
    claim = claim_of("Do they test their tagger on any corpora other than Skagerrak?")
    assert claim.excluded == ("skagerrak",) and claim.negative_polarity
    assert "tagger" in claim.terms and "they" not in claim.terms and "any" not in claim.terms
    plain = claim_of("Did the authors build a new corpus?")
    assert plain.terms == ("build", "new", "corpus")
    assert not plain.negative_polarity and not plain.universal
    every = claim_of("Do they always tag every departure?")
    assert every.universal and not every.negative_polarity and every.terms == ("tag", "departure")


def test_a_universal_in_the_question_does_not_turn_a_stated_claim_to_no(
    paper: tuple[Library, str],
) -> None:
    answer = _ask(paper, "Did they fine-tune the layout parser on every annotated ferry timetable?")
    assert answer.answer.startswith("Yes. ") and "4,000 annotated" in answer.answer, answer.answer


def test_a_question_leaning_to_no_is_led_no_unless_the_body_states_its_claim(
    paper: tuple[Library, str],
) -> None:
    # "ever" / "any": the asker leans towards "no", and nothing in the body states the claim
    leaning = _ask(paper, "Was the parser ever tested on timetables of Norwegian ports?")
    assert leaning.answer.startswith("No. "), leaning.answer
    _verbatim(leaning)
    # a sentence of the body that writes every word of the claim outweighs the lean
    stated = _ask(paper, "Did they ever fine-tune the layout parser on annotated timetables?")
    assert stated.answer.startswith("Yes. ") and "We fine-tune" in stated.answer, stated.answer


def test_every_word_list_names_its_source() -> None:
    assert "without" in cues().words("negations")
    assert ("instead", "of") in cues().phrases("contrasts")
    with pytest.raises(CitewiseError) as raised:
        parse_cues("[negations]\nnot\n")
    assert raised.value.code == "CUES_INVALID" and "from:" in raised.value.hint
    # the quote checks' lists (agent/yesno/polar*.py) are read from their own sourced file
    text = resources.files("citewise.agent").joinpath("data", WORDS_FILE).read_text("utf-8")
    lists, sourced = read_lists(text)
    assert lists and set(lists) == sourced
    assert "cannot" in polar_words("negations") and ("better", "worse") in pairs(
        "comparative_pairs"
    )


def test_the_shipped_model_reads_the_features_the_code_computes(tmp_path: Path) -> None:
    fitted = model()
    assert len(fitted.weights) == len(Features.names()) and 0 < fitted.threshold < 1
    stale = {"features": ["coverage"], "weights": [1.0], "bias": 0, "threshold": 0.5}
    with pytest.raises(CitewiseError) as raised:
        parse_model(json.loads(json.dumps(stale)))
    assert raised.value.code == "YES_NO_MODEL_STALE" and "fit_yes_no" in raised.value.hint


def _fit_script() -> ModuleType:
    path = Path(__file__).parents[3] / "scripts" / "fit_yes_no.py"
    return load_script(path, "fit_yes_no")


def test_the_refit_holds_out_a_papers_questions_together() -> None:
    fitting = _fit_script()
    # three questions on one paper say "no" where every other paper's like question says "yes"
    x = np.array([[1.0]] * 3 + [[1.0]] * 4 + [[0.0]] * 4)
    y = np.array([0.0] * 3 + [1.0] * 4 + [0.0] * 4)
    papers = np.array(["a"] * 3 + list("bcdefgh") + ["i"])
    held = fitting.held_out_probabilities(x, y, papers)
    w = fitting.fit(x[3:], y[3:])  # the other papers only
    assert np.allclose(held[:3], 1 / (1 + np.exp(-(w[0] + x[:3] @ w[1:]))))
    one_by_one = fitting.held_out_probabilities(x, y, np.arange(len(y)).astype(str))
    assert held[0] > one_by_one[0]  # one at a time, the paper's other questions vote too
    scored = fitting.scores(np.array([0.9, 0.6, 0.6, 0.2]), np.array([1.0, 1.0, 0.0, 0.0]), 0.5)
    assert scored == {"all": 0.75, "yes": 1.0, "no": 0.5, "auc": 0.875}
