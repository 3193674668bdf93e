"""Research in Chinese (issue 19): a Chinese topic is planned as its English translation, so
the sources and the library are searched in English; the report's own wording (headings,
sub-questions, leads, coverage notes, the sentences code composes) is then put in Chinese.
Quotes stay verbatim in their original language and citations are unchanged.

The sub-questions keep their English text inside the plan, because the extractive stages
score English sentences against it; each has its Chinese version (`chinese_questions`),
which is what the report shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from citewise.agent.research.model import Claim, Paragraph, Plan, Report, Section
from citewise.agent.research.stages.plan import make_plan
from citewise.agent.research.stages.write import NO_DISAGREEMENT
from citewise.lang.zh import Frequencies, is_chinese, translate_words
from citewise.retrieval.hybrid import Retriever

# Per facet, the Chinese sub-question ("{focus}": the topic as the user wrote it).
QUESTIONS_ZH = {
    "methods": "{focus}使用了哪些方法和技术路线？",
    "datasets": "{focus}的研究使用了哪些数据集、语料或研究对象？",
    "metrics": "如何评估{focus}，使用了哪些指标？",
    "results": "关于{focus}，文献报告了哪些关键的定量结果？",
    "limitations": "文献报告了{focus}的哪些局限和尚未解决的问题？",
    "applications": "{focus}用于什么，应用在哪些场景？",
    "topic": "文献关于“{focus}”报告了什么？",
}
SECTIONS_ZH = {
    "summary": "执行摘要",
    "background": "背景",
    "discussion": "跨文献讨论",
    "disagreements": "文献之间的分歧",
    "open": "尚未解决的问题",
}
LEADS_ZH = {
    "Methods": "方法",
    "Datasets": "数据集",
    "Evaluation": "评估",
    "Results": "结果",
    "Limitations": "局限",
    "Applications": "应用",
    "Topic": "主题",
}
_TOPIC_QUESTION = "What do the sources report about "
MAX_GLOSS_NUMBERS = 4
# citewise's own sentences (coverage notes, composed comparisons), English -> Chinese.
_NOTES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    (
        re.compile(r"No screened source in the library answers any sub-question on this topic\."),
        "文献库中没有经筛选的来源回答本主题的任何子问题。",
    ),
    (
        re.compile(r"No screened source answers this sub-question \(see Open problems\)\."),
        "没有经筛选的来源回答这个子问题（见“尚未解决的问题”）。",
    ),
    (
        re.compile(r"The included papers share no theme beyond the topic itself\."),
        "纳入的论文除主题本身之外没有共同的主题。",
    ),
    (
        re.compile(re.escape(NO_DISAGREEMENT)),
        "在抽取的证据中没有发现分歧：没有两篇论文对同一对象的同一指标报告明显不同的数值，"
        "也没有对同一效应的相反结论。",
    ),
    (
        re.compile(r"No screened source answers (.+)\."),
        lambda m: f"没有经筛选的来源回答 {_listed(m.group(1))}。",
    ),
    (
        re.compile(r"The evidence on (.+) rests on a single paper(?: each)?\."),
        lambda m: f"{_listed(m.group(1))} 的证据只来自一篇论文。",
    ),
    (
        re.compile(r"(.+) report an effect, whereas (.+) report none\."),
        lambda m: f"{m.group(1)} 报告了效应，而 {m.group(2)} 报告没有效应。",
    ),
    (
        re.compile(r"(.+) report (.+), whereas (.+) report (.+)\."),
        lambda m: f"{m.group(1)} 报告 {m.group(2)}，而 {m.group(3)} 报告 {m.group(4)}。",
    ),
    (re.compile(r"Likely reason: (.+)\."), lambda m: f"可能的原因：{m.group(1)}。"),
    (
        re.compile(r"(.+) both write about (.+)\."),
        lambda m: f"{_names(m.group(1))} 都写到了 {m.group(2)}。",
    ),
    (
        re.compile(r"(.+) all write about (.+)\."),
        lambda m: f"{_names(m.group(1))} 都写到了 {m.group(2)}。",
    ),
    (
        re.compile(r"No cited sentence addresses (.+)\."),
        lambda m: f"没有被引用的句子涉及 {_listed(m.group(1))}。",
    ),
    (
        re.compile(r"The quoted evidence does not show why they differ\."),
        "所引证据没有说明它们为何不同。",
    ),
)


# The renderers' fixed wording around the sections, per report language.
FIXED_ZH = {
    "Research report:": "研究报告：",
    "Coverage note:": "覆盖说明：",
}
# The renderers' headings and table labels outside the sections (report/markdown.py,
# report/html.py, report/matrix_section.py).
HEADINGS_ZH = {
    "References": "参考文献",
    "Literature matrix": "文献矩阵",
    "Evidence board": "证据板",
    "Appendix A. Verification": "附录 A. 核验",
    "Appendix B. Coverage": "附录 B. 覆盖情况",
    "Appendix C. Screening log": "附录 C. 筛选记录",
    "Appendix D. Evidence cited": "附录 D. 所引证据",
    "measure": "指标",
    "value": "数值",
    "sub-question": "子问题",
    "evidence items": "证据条数",
    "papers": "论文数",
    "paper": "论文",
    "round": "轮次",
    "score": "得分",
    "decision": "决定",
    "reason": "理由",
    "include": "纳入",
    "exclude": "排除",
    "evidence": "证据",
    "page": "页码",
    "block": "文本块",
    "quote": "原文",
    "report sentences": "报告句子数",
    "sentences citing evidence": "引用证据的句子数",
    "share citing evidence": "引用证据的比例",
    "coverage notes (uncited, counted apart)": "覆盖说明（不引用证据，单独计数）",
}
# What kind of passage a quote is (EvidenceItem.kind), for the gloss before it.
KINDS_ZH = {
    "contribution": "主要贡献",
    "method": "方法",
    "setup": "实验设置",
    "result": "结果",
    "limitation": "局限",
    "application": "应用",
    "passage": "相关段落",
}
_NUMBER = re.compile(r"(?<![\w.\-])\d+(?:[.,]\d+)*(?:\s?%|[MKB]\b)?")
# Who says a quote (write.attribution) and where a summary's paper is cited.
_SPEAKERS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (
        re.compile(r"(.+?) (?:also )?writes? \(and (.+) likewise\):"),
        lambda m: f"{_names(m.group(1))} 写道（{_names(m.group(2))} 亦持此说）：",
    ),
    (re.compile(r"(.+?) also writes?:"), lambda m: f"{_names(m.group(1))} 还写道："),
    (re.compile(r"(.+?) writes?:"), lambda m: f"{_names(m.group(1))} 写道："),
)
_POINTER = re.compile(r"^(.*) \(see ((?:Q\d+, )*Q\d+)\)$")


def fixed(label: str, text: str, lang: str) -> str:
    """`text` after a renderer's fixed label ("Research report:"), both in the report's
    language (a Chinese label ends in full-width punctuation, so no space follows it)."""
    if lang == "zh" and label in FIXED_ZH:
        return f"{FIXED_ZH[label]}{text}"
    return f"{label} {text}"


def heading(label: str, lang: str) -> str:
    """A renderer's heading or table label in the report's language."""
    return HEADINGS_ZH.get(label, label) if lang == "zh" else label


def gloss(kinds: list[str], quote: str) -> str:
    """A Chinese note before an English quote, from fixed strings only (no model, no
    translation): what kind of passage it is and the numbers it states
    ("〔结果；数值：93.4%、312〕")."""
    named = [KINDS_ZH[k] for k in dict.fromkeys(kinds) if k in KINDS_ZH] or [KINDS_ZH["passage"]]
    # a single digit is most often a label's ("Figure 1"), not a finding
    found = [n.strip() for n in _NUMBER.findall(quote) if len(n.strip()) > 1]
    numbers = list(dict.fromkeys(found))[:MAX_GLOSS_NUMBERS]
    stated = f"；数值：{'、'.join(numbers)}" if numbers else ""
    return f"〔{'、'.join(named)}{stated}〕"


def glossed(quote: str, kinds: list[str], text: str, lang: str) -> str:
    """A rendered quote, after its Chinese gloss in a Chinese report (`text`: the quote's
    words, for the numbers the gloss names)."""
    return f"{gloss(kinds, text)}{quote}" if lang == "zh" else quote


def after(speaker: str, quote: str) -> str:
    """A quote after who says it ("Lo et al. (2020) write: “…”", "Lo 等 写道：“…”")."""
    return f"{speaker}{'' if speaker.endswith('：') else ' '}{quote}"


def _names(names: str) -> str:
    # "the authors of “Title”" -> "“Title”的作者"; "A and B" -> "A、B"
    names = re.sub(r"\bthe authors of (“[^”]+”)", r"\1的作者", names, flags=re.I)
    return names.replace(", and ", "、").replace(" and ", "、").replace(", ", "、")


def speaker_in_chinese(speaker: str) -> str:
    """An attribution ("Lo et al. (2020) write:") in Chinese."""
    for pattern, chinese in _SPEAKERS:
        match = pattern.fullmatch(speaker)
        if match:
            return chinese(match)
    return speaker


def lead_in_chinese(lead: str) -> str:
    """A paragraph's lead in Chinese: a facet's label, or a summary's pointer to sections."""
    pointer = _POINTER.match(lead)
    if pointer:
        return f"{pointer.group(1)}（见 {pointer.group(2).replace(', ', '、')}）"
    return LEADS_ZH.get(lead, lead)


def _listed(labels: str) -> str:
    return labels.replace(" and ", "、").replace(", ", "、")


def english_topic(topic: str, frequencies: Frequencies | None = None) -> str:
    """The topic's English search words (offline; the library's senses when given)."""
    return translate_words(topic, frequencies) or topic


def chinese_plan(topic: str, frequencies: Frequencies | None = None) -> Plan:
    """The plan of a Chinese topic: sub-questions and query variants planned from its
    English translation (what the sources and the library are searched with), the topic
    kept as written."""
    plan = make_plan(english_topic(topic, frequencies))
    return Plan(" ".join(topic.split()), plan.key_phrases, plan.topic_terms, plan.sub_questions)


def chinese_questions(plan: Plan) -> dict[str, str]:
    """Sub-question ID -> its Chinese wording."""
    found: dict[str, str] = {}
    for question in plan.sub_questions:
        focus = plan.topic
        if question.facet == "topic":
            focus = question.text.removeprefix(_TOPIC_QUESTION).rstrip("?")
        template = QUESTIONS_ZH.get(question.facet, QUESTIONS_ZH["topic"])
        if not is_chinese(focus) and question.facet != "topic":
            focus = f" {focus} "  # an English focus stands apart from the Chinese words
        found[question.id] = template.format(focus=focus).strip().replace(" ，", "，")
    return found


def in_chinese(text: str) -> str:
    """citewise's own sentence in Chinese (unchanged when it is not one of them)."""
    for pattern, chinese in _NOTES:
        match = pattern.fullmatch(text)
        if match:
            return chinese if isinstance(chinese, str) else chinese(match)
    return text


def _claim(claim: Claim) -> Claim:
    if claim.speaker:  # a quote stays as written; who says it is the report's wording
        return replace(claim, speaker=speaker_in_chinese(claim.speaker))
    if claim.flag == "note" or len(claim.evidence) != 1:
        # a note, or a sentence code composed from several quotes
        return replace(claim, text=in_chinese(claim.text))
    return claim


def chinese_report(report: Report, plan: Plan) -> Report:
    """The report with Chinese headings, sub-questions, leads and notes; every quote and
    every citation as it was."""
    questions = chinese_questions(plan)
    sections = []
    for section in report.sections:
        title = SECTIONS_ZH.get(section.key) or questions.get(section.key, section.title)
        paragraphs = [
            Paragraph([_claim(c) for c in p.claims], lead_in_chinese(p.lead))
            for p in section.paragraphs
        ]
        sections.append(Section(section.key, title, paragraphs))
    coverage = [
        replace(row, question=questions.get(row.id, row.question)) for row in report.coverage
    ]
    return replace(report, topic=plan.topic, sections=sections, coverage=coverage, lang="zh")


def plan_topic(topic: str, retriever: Retriever | None = None) -> Plan:
    """The research plan of a topic: a Chinese one by its English translation, the library's
    own senses choosing between a word's translations."""
    if not is_chinese(topic):
        return make_plan(topic)
    frequencies = (lambda terms: retriever.document_frequencies(terms)[1]) if retriever else None
    return chinese_plan(topic, frequencies)


def in_topic_language(report: Report, plan: Plan, lang: str = "") -> Report:
    """The report in Chinese wording when asked (`lang` "zh") or, unless English is asked
    ("en"), when the topic is Chinese; any other report as it is."""
    chinese = lang == "zh" or (lang != "en" and is_chinese(plan.topic))
    return chinese_report(report, plan) if chinese else report
