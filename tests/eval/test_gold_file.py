"""A translated QA file (id + question) scored against the gold of the file it translates
(`citewise eval QA --gold GOLD`, issue 19), and refused without one."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.errors import CitewiseError
from citewise.eval.harness import load_items

GOLD = """
- {id: a, doc: x.pdf, question: "How many PDFs?", type: numeric, answerable: true,
   accept: ["30.5M"], pages: [3]}
- {id: b, doc: x.pdf, question: "What is the mean age?", answerable: false, accept: []}
"""
TRANSLATED = """
- {id: a, question: "保留了多少个 PDF？"}
- {id: b, question: "平均年龄是多少？"}
"""


def test_questions_take_their_gold_by_id(tmp_path: Path) -> None:
    (tmp_path / "gold.yaml").write_text(GOLD, encoding="utf-8")
    (tmp_path / "zh.yaml").write_text(TRANSLATED, encoding="utf-8")
    items = load_items(tmp_path / "zh.yaml", tmp_path / "gold.yaml")
    assert [i.question for i in items] == ["保留了多少个 PDF？", "平均年龄是多少？"]
    assert items[0].accept == ["30.5M"] and items[0].pages == [3] and items[0].docs == ["x.pdf"]
    assert items[1].answerable is False


def test_questions_without_gold_are_refused_with_a_hint(tmp_path: Path) -> None:
    (tmp_path / "zh.yaml").write_text(TRANSLATED, encoding="utf-8")
    with pytest.raises(CitewiseError) as raised:
        load_items(tmp_path / "zh.yaml")
    assert raised.value.code == "BAD_QA_FILE" and "--gold" in (raised.value.hint or "")
    (tmp_path / "gold.yaml").write_text(GOLD.split("\n- {id: b")[0], encoding="utf-8")
    with pytest.raises(CitewiseError, match="no gold"):
        load_items(tmp_path / "zh.yaml", tmp_path / "gold.yaml")
