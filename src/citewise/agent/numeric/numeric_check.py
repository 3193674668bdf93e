"""The one check of cell and computed sentences (and of lead words), wherever an answer
is shown.

`ask` builds them (agent/numeric/numeric_answer.py); chat turns and anything else that passes an
Answer on run the same check on the answer as it stands, from its own JSON-shaped parts:

- a `cell` sentence: the value it reports is in the quoted evidence it cites (a row's total:
  the sum of the figures its quoted row prints);
- a `computed` sentence: every operand cites evidence whose quote holds the operand's
  quote, its printed figure reads as the value used, and the expression over those values
  gives the result shown, to the shown precision;
- a lead word ("Yes", "No", agent/yesno/polar.py) only before a quoted sentence that occurs in
  the evidence it cites: otherwise the lead goes and the quote stays.
"""

from __future__ import annotations

import math

from citewise.agent.ask.answer import Answer, AnswerSentence, Evidence, spoken
from citewise.agent.numeric.computed import ArithmeticError_, evaluate
from citewise.agent.numeric.numbers import parse_number

NUMERIC_KINDS = ("cell", "computed")
LEADS = ("Yes", "No")  # the only words an answer may say before a quote (agent/yesno/polar.py)


def _decimals(shown: str) -> int:
    digits = shown.rstrip("% ").rsplit(".", 1)
    return len(digits[1]) if len(digits) == 2 and digits[1].isdigit() else 0


def computed_problems(sentence: AnswerSentence, evidence: dict[str, Evidence]) -> list[str]:
    """Why a computed sentence does not reproduce from its cited quotes (empty: it does)."""
    problems: list[str] = []
    values: dict[str, float] = {}
    for o in sentence.operands or []:
        cited = evidence.get(str(o.get("citation")))
        quote, printed = str(o.get("quote", "")), str(o.get("value", ""))
        used = o.get("used")
        if cited is None:
            problems.append(f"operand {o.get('label')} cites no evidence of the answer")
            continue
        if quote not in cited.quote or printed not in quote:
            problems.append(f"operand {o.get('label')}: {printed} is not in the quote it cites")
        number = parse_number(printed)
        if not isinstance(used, int | float) or number is None:
            problems.append(f"operand {o.get('label')}: {printed} does not read as a number")
            continue
        if not math.isclose(abs(number), abs(float(used)), rel_tol=1e-9):
            problems.append(f"operand {o.get('label')}: {printed} is not the {used} used")
        values[str(o.get("name"))] = float(used)
    what = sentence.computation or {}
    expression, shown = str(what.get("expression", "")), str(what.get("result", ""))
    result = parse_number(shown)
    try:
        value = evaluate(expression, values) if expression else math.nan
    except (ArithmeticError_, KeyError, ZeroDivisionError, SyntaxError):
        value = math.nan
    if result is None or not math.isfinite(value):
        problems.append("its arithmetic cannot be redone from the operands")
    elif abs(result - value) > 0.5 * 10 ** -_decimals(shown) + 1e-9:
        problems.append(f"{expression} gives {value:g}, not the {shown} shown")
    return problems


def cell_problems(sentence: AnswerSentence, evidence: dict[str, Evidence]) -> list[str]:
    """Why a cell sentence's value is not in the quote it cites (empty: it is)."""
    value = str((sentence.cell or {}).get("value", ""))
    quotes = [evidence[c].quote for c in sentence.citations if c in evidence]
    if not quotes:
        return ["it cites no evidence of the answer"]
    if value and not any(value in q or _row_total(value, q) for q in quotes):
        return [f"{value} is not in the quoted evidence it cites"]
    return []


def _row_total(value: str, quote: str) -> bool:
    """A total over a row's value columns ("lowest total": 9) is the sum of the figures
    its quoted row prints."""
    total = parse_number(value)
    figures = [n for token in quote.split() if (n := parse_number(token)) is not None]
    return total is not None and len(figures) >= 2 and math.isclose(sum(figures), total)


def lead_problems(sentence: AnswerSentence, evidence: dict[str, Evidence]) -> list[str]:
    """Why a sentence's lead word ("Yes", "No") stands on no quote (empty: it leads a
    quoted sentence that occurs in the evidence it cites, or there is no lead)."""
    if not sentence.lead:
        return []
    text = " ".join(sentence.text.split())
    quotes = [" ".join(evidence[c].quote.split()) for c in sentence.citations if c in evidence]
    if (
        sentence.lead in LEADS
        and sentence.kind == "quote"
        and text
        and any(text in q for q in quotes)
    ):
        return []
    return [f'"{sentence.lead}" does not lead a quote it cites']


def numeric_problems(answer: Answer) -> list[str]:
    """Every cell and computed sentence of the answer checked against its evidence."""
    evidence = {e.id: e for e in answer.evidence}
    problems: list[str] = []
    for sentence in answer.sentences:
        if sentence.kind == "computed":
            problems += computed_problems(sentence, evidence)
        elif sentence.kind == "cell":
            problems += cell_problems(sentence, evidence)
    return problems


def checked(answer: Answer) -> Answer:
    """The answer without cell or computed sentences that fail the check (and without a
    lead word that leads no cited quote); refused (with the reasons) when nothing is
    left. Unchanged when all of them hold."""
    evidence = {e.id: e for e in answer.evidence}
    kept: list[AnswerSentence] = []
    reasons: list[str] = []
    for s in answer.sentences:
        if lead_problems(s, evidence):
            s.lead = ""  # the quote may stand; a "Yes" on nothing may not
            answer.answer = spoken(answer.sentences)
        found = (
            computed_problems(s, evidence)
            if s.kind == "computed"
            else cell_problems(s, evidence)
            if s.kind == "cell"
            else []
        )
        reasons += found
        if not found:
            kept.append(s)
    if not reasons:
        return answer
    answer.withheld = [s for s in answer.sentences if s not in kept]
    answer.sentences = kept
    if not kept:
        answer.refused = True
        answer.refusal_kind = "not_answered"
        answer.answer = "The figures could not be checked against their sources: " + (
            "; ".join(reasons)
        )
        answer.support_score = 0.0
    else:
        answer.answer = spoken(kept)
    return answer
