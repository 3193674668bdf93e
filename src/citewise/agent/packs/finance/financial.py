"""Financial metrics over a filing's statements: line items by period, standard
definitions, and definitions the question gives ("DPO is defined as: 365 * (average
accounts payable between FY2019 and FY2020) / (FY2020 COGS + change in inventory ...)").

Every figure is a statement line item quoted from the page it is printed on; a metric is
arithmetic over such figures (agent/numeric/computed.py), its definition shown in the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.numeric.cells import label_score, words
from citewise.agent.numeric.computed import Computation, Operand
from citewise.agent.packs.finance.definitions import LINE_ITEMS, item_named
from citewise.agent.packs.finance.statements import LineItem, StatementPage, compact
from citewise.regex import lazy


@dataclass
class Lookup:
    """Finds a line item's figure for a year on the filing's statement pages."""

    pages: list[StatementPage]

    def find(self, item: str, year: int) -> LineItem | None:
        kind, patterns, _ = LINE_ITEMS[item]
        ranked = sorted(
            (p for p in self.pages if str(year) in p.years),
            key=lambda p: (
                p.kind != kind,
                p.summary,
                "consolidated" not in compact(p.title),
                p.page,
            ),
        )
        for page in ranked:
            for pattern in patterns:
                for line in page.items:
                    if (
                        re.search(pattern, _plain(line.label), re.I)
                        and line.value(str(year)) is not None
                    ):
                        return line
        return None

    def by_words(self, question: str, year: int) -> LineItem | None:
        """The statement line whose label the question names in full (two words or more);
        the longest such label, from the statements before summaries and notes."""
        asked = set(words(question))
        best: tuple[int, LineItem] | None = None
        for page in sorted(self.pages, key=lambda p: (not p.kind, p.summary, p.page)):
            if str(year) not in page.years:
                continue
            for line in page.items:
                own = [w for w in dict.fromkeys(words(_plain(line.label))) if w.isalpha()]
                if len(own) < 2 or label_score(_plain(line.label), asked) < 1.0:
                    continue
                if line.value(str(year)) is not None and (best is None or len(own) > best[0]):
                    best = (len(own), line)
        return best[1] if best else None


def _plain(label: str) -> str:
    """A label as the patterns read it: no note references ("Inventories (Note 6)")."""
    label = re.sub(r"\((?:see )?notes?\b[\w ,.&-]*\)?", "", label, flags=re.I)
    label = re.sub(r"\s*\([a-z]\)|^less:\s*", "", label, flags=re.I)  # footnote marks
    return re.sub(r"\s+", " ", label.replace("’", "'")).strip().lower()


class Missing(LookupError):
    """A line item the formula needs is not on any statement page for that year."""


@dataclass
class Builder:
    """Turns a formula over line items into an expression over cited operands."""

    lookup: Lookup
    operands: list[Operand]

    def figure(self, item: str, year: int) -> str:
        for o in self.operands:
            if o.label == f"{item}, FY{year}":
                return o.name
        line = self.lookup.find(item, year)
        if line is None:
            raise Missing(f"{item} for FY{year}")
        return self.line_figure(line, item, year, outflow=LINE_ITEMS[item][2])

    def line_figure(self, line: LineItem, item: str, year: int, outflow: bool = False) -> str:
        """The operand for one statement line's figure in `year`."""
        value = line.value(str(year))
        assert value is not None
        if outflow:
            value = abs(value)
        name = f"v{len(self.operands)}"
        printed = line.figures[str(year)]
        self.operands.append(
            Operand(
                name,
                f"{item}, FY{year}",
                printed,
                value,
                line.block.id,
                line.quote,
                line.scale,
                line.label,
            )
        )
        base = self.operands[0].scale
        # statements in thousands and in millions side by side: brought to one scale
        return name if line.scale == base else f"({name} * {line.scale / base:g})"

    def expand(self, formula: str, year: int) -> str:
        """`formula` at `year`: avg() and change() over this year and the one before."""
        out = formula
        for m in sorted(
            re.finditer(r"(avg|change)\(([a-z ,&]+)\)", formula), key=lambda m: -m.start()
        ):
            item = m.group(2).strip()
            now, before = self.figure(item, year), self.figure(item, year - 1)
            shown = f"(({now} + {before}) / 2)" if m.group(1) == "avg" else f"({now} - {before})"
            out = out[: m.start()] + shown + out[m.end() :]
        for item in sorted(LINE_ITEMS, key=len, reverse=True):
            pattern = rf"(?<![\w]){re.escape(item)}(?![\w])"
            if re.search(pattern, out):
                out = re.sub(pattern, self.figure(item, year), out)
        return out


def build(formula: str, year: int, lookup: Lookup) -> tuple[str, list[Operand]]:
    """The expression over operands for `formula` at `year` (raises Missing)."""
    builder = Builder(lookup, [])
    return builder.expand(formula, year), builder.operands


def computation(
    what: str, formula: str, years: list[int], lookup: Lookup, definition: str, percent: bool
) -> Computation:
    """The metric at one year, or the mean over several ("3 year average of ...")."""
    builder = Builder(lookup, [])
    parts = [f"({builder.expand(formula, y)})" for y in years]
    expression = parts[0] if len(parts) == 1 else f"({' + '.join(parts)}) / {len(parts)}"
    # operands listed (and their citations numbered) in the order the arithmetic uses them
    at = {o.name: re.search(rf"\b{o.name}\b", expression) for o in builder.operands}
    operands = sorted(builder.operands, key=lambda o: m.start() if (m := at[o.name]) else 0)
    return Computation(what, expression, operands, None, "%" if percent else "", definition)


# --- definitions the question gives -----------------------------------------------------

_DEFINED = lazy(
    r"(?:^|[.?:]\s+)(?:the\s+)?([A-Za-z][\w &%/()-]{1,60}?)\s+(?:is|are)\s+(?:defined|calculated)"
    r"\s+as:?\s*(.+?)(?=\.\s+[A-Z]|\.?\s*$|\?)",
    re.I,
)
_PERIOD = r"(?:fy|fiscal (?:year )?)\s?\d{4}"
_BETWEEN = rf"\s+between\s+{_PERIOD}\s+and\s+{_PERIOD}"


def _abbreviations(name: str) -> list[str]:
    """How a defined metric is referred to: its name, and its acronym "(DPO)" or initials."""
    found = [name.lower().strip()]
    m = re.search(r"\(([A-Za-z&]{2,8})\)", name)
    if m:
        found.append(m.group(1).lower())
        found.append(name[: m.start()].strip().lower())
    return [f for f in found if f]


def translate(expression: str, known: dict[str, str]) -> str | None:
    """A definition in words -> a formula over line items; None when a term is unknown."""
    text = expression.lower().replace("×", "*").replace("÷", "/").replace("−", "-")
    text = re.sub(
        rf"average (?:of )?(?:the )?([a-z ,&']+?){_BETWEEN}", lambda m: _call("avg", m), text
    )
    text = re.sub(
        rf"change in (?:the )?([a-z ,&']+?){_BETWEEN}", lambda m: _call("change", m), text
    )
    text = re.sub(_PERIOD, " ", text)
    pieces = re.split(r"(avg\([^)]*\)|change\([^)]*\)|[-+*/()]|\d+(?:\.\d+)?)", text)
    out: list[str] = []
    for piece in pieces:
        word = piece.strip()
        if not word or re.fullmatch(r"avg\(.*\)|change\(.*\)|[-+*/()]|\d+(?:\.\d+)?", word):
            if word.startswith(("avg(", "change(")) and "None" in word:
                return None
            out.append(word)
            continue
        word = re.sub(r"^(the|total|unadjusted|fy)\s+", "", word)
        if word in known:
            out.append(f"({known[word]})")
        elif (item := item_named(word)) is not None:
            out.append(item)
        else:
            return None
    return " ".join(out)


def _call(function: str, m: re.Match[str]) -> str:
    return f"{function}({item_named(m.group(1))})"


def given_formula(question: str) -> tuple[str, str] | None:
    """(formula, definition as the question words it) of the first metric the question
    defines, with the other metrics it defines substituted ("CCC = DIO + DSO - DPO")."""
    definitions = [(m.group(1), m.group(2)) for m in _DEFINED.finditer(question)]
    if not definitions:
        return None
    known: dict[str, str] = {}
    for name, phrase in reversed(definitions):
        formula = translate(phrase, known)
        if formula is None:
            return None
        for alias in _abbreviations(name):
            known[alias] = formula
    name, phrase = definitions[0]
    return known[_abbreviations(name)[0]], f"{name.strip()} = {phrase.strip()}"
