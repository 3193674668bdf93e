"""One question reader: a proposer reads the analysed question (agent/ask/question.py), never
pattern-matches the question's raw text itself. The check reads the proposers' modules' source
(AST): no regular-expression call, word-list lookup or question re-analysis takes a question's
`.text`; and the table proposer's reading of a question is the analysed question's."""

from __future__ import annotations

import ast
from pathlib import Path

from citewise.agent.ask.question import analyse

SRC = Path(__file__).resolve().parents[3] / "src" / "citewise"
# the modules whose classes or functions propose candidates (the registry's shapes and the
# table proposer's entry points)
PROPOSER_MODULES = (
    "agent/ask/proposers.py",
    "agent/numeric/numeric_answer.py",
    "agent/numeric/tables/__init__.py",
    "agent/packs/finance/shapes.py",
)
# calls that match or re-read text: a compiled pattern's methods, the re module's, the
# table word list's `find`, the readers of a question
MATCHING_METHODS = {"search", "match", "fullmatch", "finditer", "findall", "sub", "split"}
MATCHING_NAMES = {"find", "read", "analyse", "focus_sentence", "asks_rows"}


def _reads_question_text(node: ast.AST) -> bool:
    """The expression holds a question's text: `question.text`, `state.question.text`, or
    a name `question_text`."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr == "text":
            owner = sub.value
            if (isinstance(owner, ast.Name) and owner.id == "question") or (
                isinstance(owner, ast.Attribute) and owner.attr == "question"
            ):
                return True
        if isinstance(sub, ast.Name) and sub.id == "question_text":
            return True
    return False


def matches_on_question_text(tree: ast.Module) -> list[int]:
    """Lines where a matching call takes a question's text."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        matching = (isinstance(func, ast.Attribute) and func.attr in MATCHING_METHODS) or (
            isinstance(func, ast.Name) and func.id in MATCHING_NAMES
        )
        if matching and any(_reads_question_text(a) for a in [*node.args, *node.keywords]):
            lines.append(node.lineno)
    return lines


def test_no_proposer_module_matches_on_the_question_text() -> None:
    offending = []
    for name in PROPOSER_MODULES:
        tree = ast.parse((SRC / name).read_text(encoding="utf-8"), name)
        offending += [f"{name}:{line}" for line in matches_on_question_text(tree)]
    assert offending == []


def test_the_check_catches_a_planted_match() -> None:
    planted = ast.parse(
        "def propose(self, state):\n"
        "    if _WORDS.search(state.question.text):\n"
        "        return [find(question.text, ('shows',))]\n"
    )
    assert matches_on_question_text(planted) == [2, 3]
    clean = ast.parse("def propose(self, state):\n    return state.question.table.operation\n")
    assert matches_on_question_text(clean) == []


def test_the_table_reading_is_part_of_the_analysed_question() -> None:
    asked = analyse("By what percentage did the freight revenue change from 2018 to 2019?")
    assert asked.table.operation == "pct_change"
    assert [p.year for p in asked.table.periods] == [2018, 2019]
    listed = analyse("What are the regions listed in the table?").table
    assert listed.rows_noun == "region" and listed.in_table and listed.operation is None
    assert analyse("So what does the table present?").table.shows
