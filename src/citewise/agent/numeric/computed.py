"""Computed answers: an operation the question names applied to quoted, cited figures.

A `Computation` holds its operands (each a figure quoted from a cited block), the
arithmetic as an expression over them, and the result; `render` shows the arithmetic with
every operand's citation ("5,183 − 3,633 = 1,550 [1][2]"), `check` recomputes it from the
quotes. Nothing here states a number that is neither quoted nor computed from quoted ones.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from citewise.agent.numeric.numbers import format_number, parse_number

_OPERATORS: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_SHOWN = {"-": "−", "*": "×", "/": "/", "+": "+", "**": "^"}


class ArithmeticError_(ValueError):
    """An expression that is not plain arithmetic over known names (never evaluated)."""


def evaluate(expression: str, values: dict[str, float]) -> float:
    """Plain arithmetic (+ − × / ^, parentheses, numbers) over the named operands."""

    def walk(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return float(node.value)
        if isinstance(node, ast.Name) and node.id in values:
            return values[node.id]
        raise ArithmeticError_(f"not plain arithmetic: {ast.dump(node)[:60]}")

    try:
        return walk(ast.parse(expression, mode="eval"))
    except (SyntaxError, ZeroDivisionError) as exc:
        raise ArithmeticError_(str(exc)) from exc


@dataclass
class Operand:
    """One figure of a computation, quoted verbatim from a cited block."""

    name: str  # operand variable in the expression: a, b, c ...
    label: str  # what it is: "Net sales, 2018" / "Quarry Abstracts, Documents"
    printed: str  # the figure as printed: "(1,577)"
    value: float  # the value used (magnitude for outflows printed in parentheses)
    block_id: str
    quote: str  # the line of the block that holds it
    scale: float = 1.0  # the block's scale note ("in millions": 1e6), for the record
    row: str = ""  # the row or line label it is printed under
    cell_bbox: list[float] | None = None  # its table cell's box on the page, when known

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "name": self.name,
            "label": self.label,
            "row": self.row,
            "value": self.printed,
            "used": self.value,
            "citation": self.block_id,
            "quote": self.quote,
        }
        if self.cell_bbox is not None:
            out["cell_bbox"] = self.cell_bbox
        return out


@dataclass
class Computation:
    """Arithmetic over cited operands, with how to show its result."""

    what: str  # "difference", "ratio", "operating margin" ...
    expression: str  # over operand names: "(a - b) / b * 100"
    operands: list[Operand]
    decimals: int | None = None
    unit: str = ""  # "%", " days", "" ...
    definition: str = ""  # a standard definition used, shown in the answer
    divisor: float = 1.0  # scale conversion of the result (1e3: millions -> billions)
    notes: list[str] = field(default_factory=list)

    @property
    def result(self) -> float:
        values = {o.name: o.value for o in self.operands}
        return evaluate(self.expression, values) / self.divisor

    def to_dict(self) -> dict[str, object]:
        """What a reader needs to redo it: the expression over the operands' names (scale
        conversion included) and the result as shown."""
        expression = self.expression
        if self.divisor != 1.0:
            expression = f"({expression}) / {self.divisor!r}"
        return {"expression": expression, "result": self.shown_result()}

    def shown_result(self) -> str:
        value = self.result
        decimals = self.decimals
        if decimals is None:
            decimals = 0 if float(value).is_integer() and abs(value) >= 1 else 2
        return format_number(value, decimals) + self.unit

    def arithmetic(self) -> str:
        """The expression with each operand's printed value in its place."""
        shown = self.expression
        for o in sorted(self.operands, key=lambda o: -len(o.name)):
            shown = re.sub(rf"\b{o.name}\b", format_number(o.value), shown)
        for op in ("**", "-", "*"):
            shown = shown.replace(f" {op} ", f" {_SHOWN[op]} ")
        shown = re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", re.sub(r"\s+", " ", shown))).strip()
        while re.fullmatch(r"\((?:[^()]|\([^()]*\))*\)", shown) and _balanced(shown[1:-1]):
            shown = shown[1:-1]  # no parentheses around the whole expression
        if self.divisor != 1.0:
            shown = f"{shown} / {format_number(self.divisor)}"
        return shown


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def citations(computation: Computation) -> list[str]:
    """Block IDs the operands cite, in order of first use."""
    return list(dict.fromkeys(o.block_id for o in computation.operands))


def render(computation: Computation) -> str:
    """ "FY2018 operating margin = 7,207 / 32,765 × 100 = 22.0% [1][2]" (markers number
    the cited blocks in the order the operands use them)."""
    ids = citations(computation)
    markers = "".join(f"[{ids.index(o.block_id) + 1}]" for o in _first_per_block(computation))
    text = f"{computation.what} = {computation.arithmetic()} = {computation.shown_result()}"
    notes = [computation.definition] if computation.definition else []
    notes += computation.notes
    if notes:
        text += f" ({'; '.join(notes)})"
    return f"{text} {markers}."


def _first_per_block(computation: Computation) -> list[Operand]:
    seen: dict[str, Operand] = {}
    for o in computation.operands:
        seen.setdefault(o.block_id, o)
    return list(seen.values())


def check(computation: Computation, cited: dict[str, str]) -> bool:
    """Verification by recomputation: each operand's quote is in the text of the block it
    cites (`cited`: block ID -> text), its printed figure is in the quote and reads as the
    value used; the shown result follows from the operands."""
    for o in computation.operands:
        printed = parse_number(o.printed)
        if o.quote not in cited.get(o.block_id, "") or o.printed not in o.quote:
            return False
        if printed is None or not math.isclose(abs(printed), abs(o.value), rel_tol=1e-9):
            return False
    try:
        value = computation.result
    except ArithmeticError_:
        return False
    shown = parse_number(computation.shown_result())
    decimals = computation.decimals if computation.decimals is not None else 2
    tolerance = 0.5 * 10**-decimals + 1e-9
    return shown is not None and math.isfinite(value) and abs(shown - value) <= tolerance


# --- what the question asks to compute --------------------------------------------------

_DIFFERENCE = re.compile(
    r"\bhow (?:many|much) (?:more|fewer|less|higher|lower|larger|smaller|bigger)\b|"
    r"\bdifference (?:between|in)\b|\bby how (?:much|many)\b|\bgap between\b",
    re.I,
)
_RATIO = re.compile(r"\bratio (?:of|between)\b|\bhow many times\b|\btimes (?:more|as)\b", re.I)
_SUM = re.compile(r"\b(?:sum|combined|together|in total)\b", re.I)
_CHANGE = re.compile(r"\b(?:percent(?:age)? change|percent(?:age)? (?:increase|decrease)|"
                     r"grow(?:th)? (?:rate )?(?:from|between))\b", re.I)  # fmt: skip
_AVERAGE = re.compile(r"\b(?:average|mean) (?:of|across|over)\b", re.I)


def operation(question: str) -> str | None:
    """The operation a comparative question names: difference, ratio, sum, change, average."""
    for name, pattern in (
        ("percentage change", _CHANGE),
        ("ratio", _RATIO),
        ("difference", _DIFFERENCE),
        ("average", _AVERAGE),
        ("sum", _SUM),
    ):
        if pattern.search(question):
            return name
    return None


def _decimals(printed: str) -> int:
    m = re.search(r"\.(\d+)", printed)
    return len(m.group(1)) if m else 0
