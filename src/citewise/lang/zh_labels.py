"""How a Chinese question writes the things an English paper labels and counts (issue 19):
"图 2" / "表3" / "第 5 页" / "第 3.2 节" / "第三章" / "公式 (4)" / "附录 B" are the paper's
"Figure 2", "Table 3", "page 5", "Section 3.2", "Chapter 3", "Eq. (4)", "Appendix B";
"3130 万" / "1.2 亿" are 31.3M / 120M, the way English papers write such counts; a clause
that only says how to write the answer ("请用整数作答", "请以列表形式给出") is no part of
what is asked. Rewritten before segmentation, so the English question analysis sees labels
it already knows (agent/ask/question.py)."""

from __future__ import annotations

import re
from collections.abc import Callable

_NUMERALS = {c: n for n, c in enumerate("零一二三四五六七八九十", start=0)}
_NUMBER = r"(\d+(?:\.\d+)*|[一二三四五六七八九十]+)"


def chinese_numeral(text: str) -> str:
    """ "三" -> "3", "十二" -> "12", "二十" -> "20"; digits unchanged."""
    if text.isdigit() or "." in text:
        return text
    if "十" in text:
        tens, _, ones = text.partition("十")
        return str((_NUMERALS.get(tens, 1) if tens else 1) * 10 + (_NUMERALS.get(ones, 0)))
    return "".join(str(_NUMERALS[c]) for c in text if c in _NUMERALS)


def _label(name: str) -> re.Pattern[str]:
    return re.compile(rf"{name}\s*{_NUMBER}(?![\d.]*\s*[%年月日])")


# (pattern, English label with the number): longest and most specific first
_LABELS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"第\s*{_NUMBER}\s*页"), "page {}"),
    (re.compile(rf"第\s*{_NUMBER}\s*(?:节|小节)"), "Section {}"),
    (re.compile(r"(\d+(?:\.\d+)+)\s*(?:节|小节)"), "Section {}"),
    (re.compile(rf"第\s*{_NUMBER}\s*章"), "Chapter {}"),
    (re.compile(rf"第\s*{_NUMBER}\s*(?:步|步骤)"), "step {}"),
    (re.compile(rf"(?:公式|方程|等式)\s*[(（]?\s*{_NUMBER}\s*[)）]?"), "Eq. ({})"),
    (_label("算法"), "Algorithm {}"),
    (_label("图表?"), "Figure {}"),
    (_label("表格?"), "Table {}"),
)
_APPENDIX = re.compile(r"附录\s*([A-Z])\b")
# "这份报告", "本文": the document asked about, as English questions name it ("this report"),
# so the analysis reads a question about the document itself, not a search word
_THIS = re.compile(r"(?:这|该|此|本)\s*(?:篇|份|个)?\s*(论文|文章|报告|文件|文档)|本文")
_THIS_NAMES = {
    "论文": "paper",
    "文章": "paper",
    "报告": "report",
    "文件": "document",
    "文档": "document",
}
_SCALED = re.compile(r"(\d+(?:\.\d+)?)\s*(万|亿)")
# "请用整数作答。", "请以列表形式给出答案", "请直接回答“是”或“否”": how to write the answer
_FORMAT = re.compile(
    r"[，,。.；;]?\s*(?:请|答案需|答案要|答案应)[^。？?！!]*?"
    r"(?:作答|回答|答案|写出|写下|给出|表示|格式|形式)[^。？?！!]*[。.!！]?\s*$"
)


# what follows the question's own "？" and starts as an instruction ("答案需精确到日，例如：
# 1883 Dec.7", "回答时只给出名称", "请用整数作答") says how to write the answer, whatever it holds
_AFTER_QUESTION = re.compile(r"(?<=[？?])\s*(?:请|答案|回答|作答|注意|要求|格式)\S.*$", re.DOTALL)


def scaled_number(value: str, unit: str) -> str:
    """ "3130" "万" -> "31.3M"; "1.2" "亿" -> "120M"; under a million as written digits."""
    number = float(value) * (10_000 if unit == "万" else 100_000_000)
    if number >= 1e9:
        return f"{number / 1e9:.4g}B"
    if number >= 1e6:
        return f"{number / 1e6:.4g}M"
    return f"{number:,.0f}"


def _labelled(label: str) -> Callable[[re.Match[str]], str]:
    return lambda m: f" {label.format(chinese_numeral(m.group(1)))} "


def english_labels(text: str) -> str:
    """The question with its labels, scaled numbers and answer-format clause in English
    (the clause dropped)."""
    text = _AFTER_QUESTION.sub("", text.strip()) or text
    text = _FORMAT.sub("", text) or text
    for pattern, label in _LABELS:
        text = pattern.sub(_labelled(label), text)
    text = _APPENDIX.sub(lambda m: f" Appendix {m.group(1)} ", text)
    text = _THIS.sub(lambda m: f" this {_THIS_NAMES.get(m.group(1) or '', 'paper')} ", text)
    return _SCALED.sub(lambda m: f" {scaled_number(m.group(1), m.group(2))} ", text)
