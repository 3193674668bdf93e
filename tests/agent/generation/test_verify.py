"""Sentence verification: numbers, coverage, similarity, judge."""

from __future__ import annotations

from citewise.agent.generation.verify import (
    Verifier,
    content_coverage,
    numbers,
    unsupported_numbers,
)
from citewise.llm.client import ModelClient
from tests.conftest import has_embedder
from tests.llm.scripted import ScriptedModel

SOURCE = (
    "The classifier reached an accuracy of 93.4% on the held-out test set of 312 blocks. "
    "Training used 1,284 labelled blocks collected over six months."
)


def test_numbers_are_read_in_digits_and_words() -> None:
    assert numbers("1,284 blocks, 93.4%, .5 and six months; F1 and S2ORC are names") == {
        1284.0, 93.4, 0.5, 6.0,
    }  # fmt: skip


def test_every_stated_number_must_be_in_the_cited_text() -> None:
    assert unsupported_numbers("Accuracy was 93.4% on 312 blocks.", SOURCE) == []
    assert unsupported_numbers("It used 1284 blocks over 6 months.", SOURCE) == []
    assert unsupported_numbers("Accuracy was 97.5% on 312 blocks.", SOURCE) == ["97.5"]
    assert unsupported_numbers("Accuracy was 0.934.", SOURCE) == []  # a share as a fraction
    # A number the question itself states is not the model's claim.
    assert unsupported_numbers("In 2019 it was 93.4%.", SOURCE, "What was it in 2019?") == []


def test_coverage_counts_content_words_found_in_the_evidence() -> None:
    assert content_coverage("The classifier reached an accuracy of 93.4%.", SOURCE) == 1.0
    assert content_coverage("The telescope observed a supernova.", SOURCE) == 0.0
    assert 0 < content_coverage("The classifier observed a supernova.", SOURCE) < 1


def test_verdicts_give_reasons() -> None:
    verifier = Verifier()
    assert verifier.check("Accuracy reached 93.4% on held-out blocks.", [SOURCE]).supported
    no_cite = verifier.check("Accuracy reached 93.4%.", [])
    assert not no_cite.supported and no_cite.reason == "it cites no evidence"
    wrong = verifier.check("Accuracy reached 99.1%.", [SOURCE])
    assert not wrong.supported and "99.1" in wrong.reason
    unrelated = verifier.check("The telescope observed a bright supernova remnant.", [SOURCE])
    assert not unrelated.supported and "does not say" in unrelated.reason


def test_embedding_similarity_separates_paraphrase_from_unrelated_text() -> None:
    if not has_embedder():
        return
    from citewise.embed.base import load_default_embedder

    verifier = Verifier(load_default_embedder())
    kept = verifier.check("The classifier was 93.4% accurate on the held-out blocks.", [SOURCE])
    assert kept.supported and kept.support > 0.7
    dropped = verifier.check("The quarry exports granite to builders abroad.", [SOURCE])
    assert not dropped.supported and dropped.support < 0.4


def test_a_judge_can_reject_what_the_code_lets_through() -> None:
    judge = ScriptedModel(['{"supported": false, "reason": "reverses the claim"}'])
    verifier = Verifier(judge=ModelClient(judge, role="judge"))
    verdict = verifier.check("The classifier reached an accuracy of 93.4%.", [SOURCE])
    assert not verdict.supported and "reverses the claim" in verdict.reason
    # The judge is only asked about sentences that pass the plain checks.
    verifier.check("The classifier reached 99%.", [SOURCE])
    assert len(judge.calls) == 1
