"""Generated answers with a scripted backend: exact verification cases over a real library."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.agent.ask.qa import REFUSAL, Evidence
from citewise.agent.generation.drafting import (
    NumberedEvidence,
    excerpt,
    fit_to_context,
    normalize_citation,
)
from citewise.agent.generation.generate import GeneratedAnswerer
from citewise.agent.generation.verify import Verifier
from citewise.api import Library
from citewise.llm.client import ModelClient
from tests.llm.scripted import Reply, ScriptedModel
from tests.pdfs import write_paper

QUESTION = "What accuracy did the classifier reach?"
GOOD = "The classifier reached an accuracy of 93.4% on the held-out test set."


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    folder = tmp_path_factory.mktemp("generate")
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([write_paper(folder / "granite.pdf")])
    yield lib
    lib.close()


def answerer(library: Library, replies: list[Reply], **options: object) -> GeneratedAnswerer:
    model = ScriptedModel(replies)
    client = ModelClient(model, library.store.audit, role="write", use_cache=False)
    return GeneratedAnswerer(library.answerer, [client], Verifier(), **options)  # type: ignore[arg-type]


def draft(*sentences: tuple[str, list[str]], refused: bool = False) -> dict[str, object]:
    return {
        "sentences": [{"text": t, "citations": c} for t, c in sentences],
        "refused": refused,
    }


def scripted(gen: GeneratedAnswerer) -> ScriptedModel:
    model = gen.writers[0].model
    assert isinstance(model, ScriptedModel)
    return model


def test_a_supported_sentence_is_kept_with_its_block_id(library: Library) -> None:
    gen = answerer(library, [draft((GOOD, ["E1"]))])
    answer = gen.ask(QUESTION)
    assert not answer.refused
    assert answer.answer == GOOD
    assert answer.backend == "scripted:script-1"
    (sentence,) = answer.sentences
    assert sentence.citations == [answer.evidence[0].id]
    assert sentence.support >= 0.9
    assert "93.4%" in answer.evidence[0].quote
    assert set(answer.to_dict()) == {
        "question", "refused", "answer", "sentences", "evidence", "support_score", "backend",
        "timings_ms", "refusal_kind", "scope", "signals", "withheld", "lang", "translation",
    }  # fmt: skip


def test_a_sentence_citing_a_non_existent_id_is_dropped(library: Library) -> None:
    gen = answerer(
        library,
        [
            draft((GOOD, ["E1"]), ("The probes were 99% accurate in winter.", ["E9"])),
            draft(refused=True),  # the repair round gives up
        ],
    )
    answer = gen.ask(QUESTION)
    assert answer.answer == GOOD
    assert gen.last_log.unknown_citations == ["E9"]
    assert [s for s, _ in gen.last_log.dropped] == ["The probes were 99% accurate in winter."]
    offered = {e.id for e in answer.evidence}
    assert all(c in offered for s in answer.sentences for c in s.citations)


def test_a_number_not_in_the_evidence_is_repaired_once_then_dropped(library: Library) -> None:
    wrong = "The classifier reached an accuracy of 97.5% on the held-out test set."
    gen = answerer(library, [draft((wrong, ["E1"])), draft((wrong, ["E1"]))])
    answer = gen.ask(QUESTION)
    model = scripted(gen)
    assert len(model.calls) == 2  # the answer, and one repair round
    assert "97.5, not in the cited evidence" in model.calls[1][0][-1]["content"]
    assert answer.refused and answer.answer == REFUSAL
    assert answer.sentences == [] and answer.evidence  # closest passages are shown
    assert gen.last_log.dropped == [(wrong, "it states 97.5, not in the cited evidence")]


def test_the_repair_round_can_fix_a_sentence(library: Library) -> None:
    wrong = "The classifier reached an accuracy of 97.5% on the held-out test set."
    gen = answerer(library, [draft((wrong, ["E1"])), draft((GOOD, ["E1"]))])
    answer = gen.ask(QUESTION)
    assert answer.answer == GOOD and gen.last_log.repaired == 1


def test_unsupported_sentences_are_marked_when_asked(library: Library) -> None:
    wrong = "Sorting cut downtime by 90 hours per month."
    gen = answerer(
        library,
        [draft((GOOD, ["E1"]), (wrong, ["E1"])), draft(refused=True)],
        mark_unsupported=True,
    )
    answer = gen.ask(QUESTION)
    assert [s.text for s in answer.sentences] == [GOOD, wrong + " [unsupported]"]
    assert answer.sentences[1].support == 0.0


def test_inline_markers_become_citations(library: Library) -> None:
    gen = answerer(library, [draft((GOOD + " [E1]", []))])
    answer = gen.ask(QUESTION)
    assert answer.answer == GOOD and answer.sentences[0].citations


def test_malformed_json_is_retried_with_the_error_then_falls_back(library: Library) -> None:
    gen = answerer(library, ["the answer is 93.4%", '{"sentences": [{"text": 1}]}'])
    answer = gen.ask(QUESTION)
    model = scripted(gen)
    assert len(model.calls) == 2
    assert "not valid JSON" in model.calls[1][0][-1]["content"]
    assert answer.backend == "extractive (fallback from scripted:script-1)"
    assert answer.answer == library.ask(QUESTION).answer
    assert gen.last_log.fell_back


def test_think_blocks_and_code_fences_are_stripped(library: Library) -> None:
    body = json.dumps({"sentences": [{"text": GOOD, "citations": ["E1"]}], "refused": False})
    reply = f"<think>E1 has it.</think>\n```json\n{body}\n```"
    answer = answerer(library, [reply]).ask(QUESTION)
    assert answer.answer == GOOD


def test_a_model_refusal_is_a_refusal(library: Library) -> None:
    answer = answerer(library, [draft(refused=True)]).ask(QUESTION)
    assert answer.refused and answer.backend == "scripted:script-1"


def test_unanswerable_questions_are_refused_without_calling_the_model(library: Library) -> None:
    gen = answerer(library, [draft((GOOD, ["E1"]))])
    answer = gen.ask("Which telescope observed the supernova remnant?")
    assert answer.refused and scripted(gen).calls == []


def test_evidence_is_trimmed_to_fit_the_context_window(library: Library) -> None:
    gen = answerer(library, [draft((GOOD, ["E1"]))])
    gen.writers[0].model.n_ctx = 380  # type: ignore[misc]
    answer = gen.ask(QUESTION)
    (messages, _schema) = scripted(gen).calls[0]
    prompt = sum(len(m["content"].split()) for m in messages)
    assert prompt <= 380 - 200 - 64
    assert "[E1]" in messages[1]["content"] and "[E4]" not in messages[1]["content"]
    assert answer.answer == GOOD


def test_fit_to_context_shortens_a_single_long_passage() -> None:
    long = Evidence("b1", "d", "T", 1, [0, 0, 1, 1], "", "word " * 400, "file:///x#page=1")
    model = ScriptedModel([], n_ctx=300)
    kept = fit_to_context("q?", [NumberedEvidence("E1", long)], ModelClient(model), 100)
    assert len(kept) == 1 and len(kept[0].evidence.quote.split()) < 150
    assert len(long.quote.split()) == 400  # the answer's own evidence keeps its whole quote


def test_citation_forms_are_normalized() -> None:
    assert [normalize_citation(c) for c in ["E1", "[e2]", "3", "(E4)", "B7"]] == [
        "E1", "E2", "E3", "E4", "B7",
    ]  # fmt: skip


def test_excerpt_keeps_the_focus_sentence() -> None:
    text = " ".join(f"w{i}" for i in range(300)) + " the answer is here " + "tail " * 50
    shown = excerpt(text, "the answer is here", limit=60)
    assert "the answer is here" in shown and len(shown.split()) == 60


def test_cached_calls_are_not_repeated(tmp_path: Path) -> None:
    lib = Library(tmp_path / "lib", embeddings=False)
    lib.ingest([write_paper(tmp_path / "granite.pdf")])
    model = ScriptedModel([draft((GOOD, ["E1"])), draft((GOOD, ["E1"]))])
    client = ModelClient(model, lib.store.audit, role="write")
    gen = GeneratedAnswerer(lib.answerer, [client], Verifier())
    first, second = gen.ask(QUESTION), gen.ask(QUESTION)
    assert first.answer == second.answer == GOOD
    assert len(model.calls) == 1
    usage = lib.usage()
    assert usage.calls == 2 and usage.cache_hits == 1
    lib.close()


def test_cascade_calls_the_second_model_only_when_the_first_is_weak(library: Library) -> None:
    weak = ScriptedModel([draft(refused=True)], model="small")
    strong = ScriptedModel([draft((GOOD, ["E1"]))], model="large")
    clients = [ModelClient(m, library.store.audit, role="write", use_cache=False)
               for m in (weak, strong)]  # fmt: skip
    gen = GeneratedAnswerer(library.answerer, clients, Verifier())
    answer = gen.ask(QUESTION)
    assert answer.backend == "scripted:large" and len(weak.calls) == len(strong.calls) == 1
    confident = ScriptedModel([draft((GOOD, ["E1"]))], model="small")
    unused = ScriptedModel([], model="large")
    clients = [ModelClient(m, library.store.audit, use_cache=False) for m in (confident, unused)]
    assert GeneratedAnswerer(library.answerer, clients, Verifier()).ask(QUESTION).answer == GOOD
    assert unused.calls == []


def test_the_models_refused_flag_is_advice_verified_sentences_stand(library: Library) -> None:
    answer = answerer(library, [draft((GOOD, ["E1"]), refused=True)]).ask(QUESTION)
    assert not answer.refused and answer.answer == GOOD


def test_a_verified_answer_that_misses_the_question_gives_way_to_the_verbatim_one(
    library: Library,
) -> None:
    aside = "Sorting with the probes reduced crusher downtime by 41 hours per month."
    gen = answerer(library, [draft((aside, ["E1"]))])
    answer = gen.ask(QUESTION)
    assert answer.answer == library.ask(QUESTION).answer
    assert answer.backend == "extractive (fallback from scripted:script-1)"
