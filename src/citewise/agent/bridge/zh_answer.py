"""A Chinese question's way through the answerer: bridged into English for the analysis and
search, and its answer labelled in Chinese. Quotes are never translated: an answer sentence
stays the paper's own words; only citewise's own texts (refusal reasons, labels) change."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from citewise.agent.ask.refusal import IN_FIGURE, NOT_ANSWERED, NOT_IN_LIBRARY
from citewise.lang.script import HAN_CHAR, is_chinese
from citewise.retrieval.terms import content_terms, stem

# An English question (and the CLI's `ask`, which imports this module for `--lang zh`)
# loads no Chinese code: agent/bridge/crosslingual.py is imported when a question is Chinese.
if TYPE_CHECKING:
    from citewise.agent.ask.answer import Answer
    from citewise.agent.ask.question import Question
    from citewise.agent.bridge.crosslingual import Bridged
    from citewise.retrieval.hybrid import Retriever

REFUSALS_ZH = {
    NOT_IN_LIBRARY: "文献库中没有与此相关的内容。",
    NOT_ANSWERED: "找到了相关段落，但没有一段回答了这个问题。",
    IN_FIGURE: "答案在图中，citewise 无法读取图像；已引用其图注。",
}
REFUSAL_ZH = "文献库中没有能回答这个问题的段落。"

LABELS = {
    "en": {
        "closest": "Closest passages considered:",
        "evidence": "Evidence:",
        "support": "support",
        "backend": "backend",
        "page": "p.",
        "translation": "Searched as",
        "Yes": "Yes.",
        "No": "No.",
    },
    "zh": {
        "closest": "参考过的最接近段落：",
        "evidence": "证据（原文引用）：",
        "support": "支持度",
        "backend": "后端",
        "page": "第{}页",
        "translation": "检索所用英文",
        "Yes": "是。",
        "No": "否。",
    },
}


@cache
def _yes_no() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A Chinese yes/no question: one of these forms, no other question word, no
    alternatives ("A 还是 B"), and nothing that negates or hedges what it asks ("是否不使用",
    "是否可能"), which its English bridge may not keep. (Compiled for a Chinese question.)"""
    forms = re.compile(r"是否|是不是|有没有|能否|可否|有无|吗\s*[？?]?\s*$")
    others = re.compile(
        r"什么|多少|哪|几|谁|如何|怎么|怎样|为什么|为何|还是|或者|或|不|没|未|无|非|否|别|可能|也许|或许|大概|似乎"
    )
    return forms, others


def yes_no_form(text: str) -> bool:
    """A Chinese yes/no question (是否, 有没有, …吗) that asks nothing else, offers no
    alternatives and neither negates nor hedges what it asks."""
    if not is_chinese(text):
        return False
    forms, others = _yes_no()
    if not forms.search(text):
        return False
    return not others.search(forms.sub(" ", text))


def says_all(bridged: Bridged) -> bool:
    """The English bridge keeps every word the question was translated by (a verb whose
    sense the library does not confirm is left out of it): a lead on a bridge that says
    less than the question would answer a smaller question."""
    said = {stem(t) for t in content_terms(bridged.english)}
    return all({stem(t) for t in content_terms(english)} <= said for _, english in bridged.glosses)


def asks_yes_no(text: str, retriever: Retriever) -> bool:
    """A Chinese yes/no question over English papers whose bridge says all it asks: its
    answer may be led by 是 / 否 (agent/yesno/polar.py decides on the English bridge, as for an
    English question)."""
    if not yes_no_form(text):
        return False
    bridged = bridge_question(text, retriever)
    return bridged is not None and not bridged.native and says_all(bridged)


def bridge_question(text: str, retriever: Retriever) -> Bridged | None:
    """The English bridge of a Chinese question (None for any other question); the
    library's block frequencies choose between a word's senses."""
    if not is_chinese(text):
        return None
    from citewise.agent.bridge.crosslingual import bridge, native_terms

    frequencies = _remembered(retriever)
    bridged = bridge(text, frequencies)
    # most of the question's own Chinese words occur in the library: its documents speak
    # Chinese (a name in Latin letters, "ONYX", is written so in papers of either language)
    own = [t for t in native_terms(text) if HAN_CHAR.search(t)]
    found = frequencies(own) if own else {}
    bridged.native = bool(own) and sum(1 for t in own if found.get(t)) >= 0.6 * len(own)
    return bridged


def _remembered(retriever: Retriever) -> Callable[[list[str]], dict[str, int]]:
    """The library's block count of each term, each term looked up once per question (the
    bridge asks for a word's senses in each clause, context and alias it meets)."""
    seen: dict[str, int] = {}

    def frequencies(terms: list[str]) -> dict[str, int]:
        new = [t for t in dict.fromkeys(terms) if t not in seen]
        if new:
            seen.update(retriever.document_frequencies(new)[1])
        return {t: seen.get(t, 0) for t in terms}

    return frequencies


def native_question(question: Question, bridged: Bridged) -> Question:
    """A Chinese question over Chinese documents: the bridge says what kind of answer is
    wanted; the question's own words are what to find."""
    from citewise.agent.bridge.crosslingual import native_terms

    return replace(
        question, text=bridged.original, terms=native_terms(bridged.original), attribute=[]
    )


def in_language(answer: Answer, asked: str, analysed: str) -> Answer:
    """The answer to the question as asked: a bridged question is answered in Chinese
    labels (`lang` "zh"), with the English it was searched as kept in `translation`."""
    if not is_chinese(asked):
        return answer
    answer.question = asked
    answer.translation = analysed if analysed != asked else ""
    return to_chinese(answer)


def to_chinese(answer: Answer) -> Answer:
    """Chinese labels for any answer (`--lang zh`): the refusal reason and a yes/no lead
    ("是。") are citewise's own text and are translated; quoted sentences are not. A
    sentence's `lead` stays "Yes" / "No" (the JSON value), only the text says it in
    Chinese."""
    answer.lang = "zh"
    if answer.refused:
        answer.answer = REFUSALS_ZH.get(answer.refusal_kind or "", REFUSAL_ZH)
    elif any(s.lead for s in answer.sentences):
        answer.answer = " ".join(
            f"{lead_label('zh', s.lead)}{s.text}" if s.lead else s.text for s in answer.sentences
        )
    return answer


def lead_label(lang: str, lead: str) -> str:
    """How a lead ("Yes", "No") is written before its quote: "Yes." / "是。"."""
    return LABELS.get(lang, LABELS["en"]).get(lead, f"{lead}.")


def page_label(lang: str, page: int) -> str:
    label = LABELS.get(lang, LABELS["en"])["page"]
    return label.format(page) if "{}" in label else f"{label} {page}"
