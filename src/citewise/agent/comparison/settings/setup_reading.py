"""Settings stated the way a reader reads several at once, beside the one-setting phrasings of
agent/comparison/patterns.py and agent/comparison/settings/matrix_settings.py:

- a coordination closed by "respectively": "the learning rate and batch size are set to 0.001
  and 32, respectively", "the training epoch and batch size are selected from {3, 4} and
  {24, 32}, respectively" (each name takes the value in its position);
- a hyperparameter table: a row whose first cell names a setting ("| Learning rate | 5e-4 |")
  or a column whose header names one ("| Model | lr | batch size |", a value per row).

The names of settings are data (agent/data/setup_names.txt, each list with its provenance).
"""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.extraction import Finding, Unit, section_bonus
from citewise.agent.comparison.patterns import METRIC_NAMES, NUM
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists

NAMES_FILE = "setup_names.txt"
SETTINGS = (
    "learning rate", "batch size", "epochs", "dropout", "weight decay", "warmup",
    "gradient clipping", "seeds",
)  # fmt: skip
# words that may stand before a setting's name without changing which setting it is
_PREFIX = r"(?:(?:initial|peak|base|max(?:imum)?|number\s+of|training|train|fine-?tuning|the)\s+)*"
# a value in a "respectively" list: a number as printed, or a set of them in braces
_ITEM = re.compile(rf"\{{(?P<set>[^{{}}]{{1,60}})\}}|(?P<num>{NUM}(?:\s?[kKM]\b)?)")
_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)
_LIST_GOES_ON = re.compile(rf"\s*(?:,|and\b)\s*\$?\s*{NUM}")


@cache
def _names() -> dict[str, re.Pattern[str]]:
    text = shipped_text(NAMES_FILE)
    lists = sourced_lists(text, NAMES_FILE, SETTINGS)
    out = {}
    for aspect in SETTINGS:
        words = sorted(lists[aspect], key=len, reverse=True)
        alts = "|".join(re.escape(w).replace(r"\ ", r"[\s-]+") for w in words)
        out[aspect] = re.compile(rf"\b{_PREFIX}(?:{alts})(?:s|es)?\b", re.I)
    return out


def setting_name(aspect: str) -> str:
    """The regex of a setting's names (setup_names.txt), with the words that may precede them."""
    return _names()[aspect].pattern


def _mentions(text: str) -> list[tuple[int, int, str]]:
    """Every setting name in `text` as (start, end, aspect), in order, the longest of
    overlapping ones kept."""
    found = sorted(
        ((m.start(), m.end(), a) for a, p in _names().items() for m in p.finditer(text)),
        key=lambda t: (t[0], -(t[1] - t[0])),
    )
    kept: list[tuple[int, int, str]] = []
    for start, end, aspect in found:
        if kept and start < kept[-1][1]:
            continue
        kept.append((start, end, aspect))
    return kept


def names_another(text: str, aspect: str) -> bool:
    """Whether `text` opens (after spaces) with the name of a setting other than `aspect`
    ("dropout" after "batch size 32, and 35%")."""
    found = _mentions(text[:40])
    return bool(found) and not text[: found[0][0]].strip() and found[0][2] != aspect


def respectively_pairs(text: str) -> list[tuple[str, str]]:
    """(aspect, value) for each setting of a coordination that "respectively" closes: the list
    of values just before it, and as many coordinated names before those (a name no setting
    list knows, "hidden size", keeps its place but gives nothing); [] when they do not pair."""
    closing = _RESPECTIVELY.search(text)
    if not closing:
        return []
    head = text[: closing.start()].rstrip(" ,")
    items = list(_ITEM.finditer(head))
    run: list[re.Match[str]] = []
    for m in items:  # the last run of values joined by "," / "and" / "or", ending the head
        if run and _JOINS.fullmatch(head[run[-1].end() : m.start()]):
            run.append(m)
        else:
            run = [m]
    if len(run) < 2 or head[run[-1].end() :].strip(" ,$"):
        return []
    names = _LINK_WORDS.sub("", head[: run[0].start()])
    cuts = [0] + [c.end() for c in _CONJUNCTION.finditer(names)]
    if len(cuts) < len(run):
        return []
    starts = cuts[-len(run) :]
    pieces = [names[a:b] for a, b in zip(starts, [*starts[1:], len(names)], strict=True)]
    pairs = []
    for piece, value in zip(pieces, run, strict=True):
        named = _mentions(piece)
        if named and _NAMES_A_THING.match(piece, named[-1][1]):
            continue  # "LR methods", "the batch normalisation": a name that is part of another's
        if named:
            pairs.append((named[-1][2], (value.group("set") or value.group("num")).strip()))
    return pairs if len({a for a, _ in pairs}) == len(pairs) else []


# a word after a setting's name that makes the name part of another thing's: "LR methods"
_NAMES_A_THING = re.compile(
    r"\s*(?:methods?|models?|classifiers?|baselines?|regressions?|systems?|approach(?:es)?)\b",
    re.I,
)
# what joins two values or two names of a coordination
_JOINS = re.compile(r"\s*\$?\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|/\s*)\s*\$?\s*", re.I)
_CONJUNCTION = re.compile(r",\s*(?:and\s+)?|\s+and\s+|\s*/\s*", re.I)
# the words between the names and their values: "are set to", "were selected from"
_LINK_WORDS = re.compile(
    r"(?:\s+(?:is|are|was|were|set|fixed|chosen|selected|tuned|searched|initiali[sz]ed|"
    r"empirically|initially|both|all|to|as|at|be|from|over|in|of|equal|respectively))*[\s,:]*$",
    re.I,
)


def readings(paper_units: list[Unit]) -> dict[str, dict[str, str]]:
    """Each sentence a "respectively" coordination was read from, with its settings: other
    readings of those settings in the sentence (a name with its neighbour's value) give way."""
    out = {}
    for u in paper_units:
        if u.kind != "table" and _RESPECTIVELY.search(u.text):
            pairs = respectively_pairs(u.text)
            if pairs:
                out[u.text] = dict(pairs)
    return out


def respectively_findings(aspect: str, paper_units: list[Unit]) -> list[Finding]:
    found = []
    for text, pairs in readings(paper_units).items():
        value = pairs.get(aspect)
        unit = next(u for u in paper_units if u.text == text)
        if value and value in text:
            score = 1.5 + section_bonus(aspect, unit)
            found.append(Finding(aspect, value, text, unit.page, unit.block_id, unit.section,
                                 score))  # fmt: skip
    return found


# a value as a setting's name states it: a number ("0.5", ".05", "3e-5", "4K"), or a LaTeX one
# ("$0.0001$", "$10^{-5}$", "$2 \times 10^{-3}$")
# ("${0.1}$" and "$5e^{-4}$" as some converters write them)
_LATEX = (
    r"\$\s*\{?\s*(?:\d+(?:\.\d+)?\s*\\(?:times|cdot)\s*)?(?:\d+(?:\.\d+)?(?:e\^?\{?[-−]?\d+\}?)?|"
    r"10\^\{?[-−]?\d+\}?)\s*\}?\s*\$"
)
# a power of ten inside a formula: "$lr=5\cdot 10^{-5}$"
_POWER = r"\d+(?:\.\d+)?\s*\\(?:times|cdot)\s*10\^\{?[-−]?\d+\}?"
_VALUE = rf"(?:{_LATEX}|{_POWER}|{NUM}(?:\s?[kKM]\b)?|\.\d+)"
VALUE = _VALUE  # for the readers of matrix_settings.py
# a set of values in braces, as printed or as LaTeX, with a power of ten after it
_SET = (
    r"\$?\s*(?:\{|\\lbrace|\\\{)\s*(?:[-−]?\d[\w.\-−]*\s*,\s*)+[-−]?\d[\w.\-−]*\s*"
    r"(?:\}|\\rbrace|\\\})(?:\s*\\(?:times|cdot)\s*10\^\{?[-−]?\d+\}?)?\s*\$?"
)
# what links a name to its value across a few words of its own: "the batch size for training
# is 80", "the mini-batch size for the update is set as 64", "learning rate: .05"
_LINKED = (
    r"(?:\s+(?:(?!is\b|was\b|are\b|were\b)[a-z-]+|BIBREF\d+)){0,6}?\s+(?:is|was|are|were)\s+"
    r"(?:(?:both|all|initially|also|empirically)\s+)?"
    r"(?:(?:set|fixed|chosen|initiali[sz]ed|kept|reported)\s+)?"
    r"(?:(?:to|as|at)\s+)?(?:be\s+)?"
    r"(?:equal\s+to\s+)?(?:about\s+|around\s+|approximately\s+)?"
)


# a verb changing a setting already set ("decay the learning rate to 0.1"): a schedule, not a value
_CHANGED = r"\b(?:reduc|decay|decreas|halv|multipl|lower|drop|increas|anneal|warm)"


@cache
def _linked(aspect: str) -> tuple[re.Pattern[str], ...]:
    """The readers of a setting's value tied to its name: after the name, then set by a verb
    before it, a set of values searched, and the forms of one setting only."""
    name = _names()[aspect].pattern
    return (*_after_name(name), *_around_name(aspect, name))


def _after_name(name: str) -> list[re.Pattern[str]]:
    """The value after the setting's name: linked by a verb, a colon, "of", brackets."""
    readers = [
        re.compile(rf"{name}{_LINKED}(?P<v>{_VALUE})(?!\w|\.\d)", re.I),
        re.compile(rf"{name}\s*[:=]\s*(?P<v>{_VALUE})(?!\w|\.\d)", re.I),
        re.compile(rf"{name}\s+(?:of\s+)?(?P<v>{_LATEX})", re.I),
        # "a dropout rate BIBREF28 of 0.3", "dropout with a rate of 0.3"
        re.compile(
            rf"{name}(?:\s+BIBREF\d+)?\s+(?:with\s+(?:a\s+)?(?:rate|probability|value)s?\s+)?of\s+"
            rf"(?P<v>{_VALUE})(?!\w|\.\d)",
            re.I,
        ),
        # the value's kind between: "dropout with rates 0.2", "dropout BIBREF29 of rate 0.1",
        # "dropout with rate $0.5$", "dropout at a rate of 0.3"
        re.compile(
            rf"{name}(?:\s+BIBREF\d+)?\s+(?:with|of|at)\s+(?:an?\s+)?"
            rf"(?:rate|probability|ratio|value)s?\s+(?:of\s+)?(?:=\s*)?(?P<v>{_VALUE})(?!\w|\.\d)",
            re.I,
        ),
    ]
    # the value in brackets after the name: "dropout (0.5)", "Dropout (rate=0.5)"
    readers.append(
        re.compile(
            rf"{name}\s*\(\s*(?:(?:rate|p|lr|size)\s*[=:]\s*)?(?P<v>{_VALUE})(?!\w|\.\d)\s*[,)]",
            re.I,
        )
    )
    # a value the name's phrase gives as its start: "a linear decaying learning rate with an
    # initial value of 0.025"
    readers.append(
        re.compile(
            rf"{name}\s+with\s+an?\s+(?:initial|starting|start)\s+value\s+of\s+"
            rf"(?P<v>{_VALUE})(?!\w|\.\d)",
            re.I,
        )
    )
    return readers


def _around_name(aspect: str, name: str) -> list[re.Pattern[str]]:
    """A value set by a verb before the name, the set a search tried, and forms of one setting."""
    readers = []
    # a value set by a verb before the name: "set the maximum number of epochs to 100", "set
    # dropout BIBREF27 to 0.1", "the learning rate is set to 0.001, the dropout rate to 0.3"
    readers.append(
        re.compile(
            rf"\b(?:set|sets|setting|fix|fixed|fixes|limit|limited|initiali[sz]e[sd]?)\s"
            rf"(?:(?!{_CHANGED})(?:[^.;]|\.(?=\d))){{0,80}}?{name}(?:\s+BIBREF\d+)?\s+(?:to|at|as)\s+(?:be\s+)?"
            rf"(?P<v>{_VALUE})(?!\w|\.\d)",
            re.I,
        )
    )
    # the values a search tried, as a set: "the learning rate is selected amongst {5e-6, 1e-5}",
    # "dropout in $\lbrace 0.1,0.2\rbrace $", "rate in $\lbrace 1, 2\rbrace \times 10^{-5}$"
    readers.append(
        re.compile(
            rf"{name}(?:\s+(?:is|are|was|were))?(?:\s+(?:selected|chosen|tuned|searched|varied|"
            r"picked))?\s+(?:from|among|amongst|in|over|within)\s+(?:the\s+)?(?:set\s+)?(?:of\s+)?"
            rf"(?P<v>{_SET})",
            re.I,
        )
    )
    if aspect in ("dropout", "weight decay"):
        # the value before the name: "0.001 L2 weight decay", "a 0.3 dropout rate"
        readers.append(re.compile(rf"(?<![\w.])(?P<v>{NUM})\s+(?:L2\s+)?{name}", re.I))
    if aspect == "batch size":
        # "batches of size 32", "a mini batch BIBREF15 of size 32", "mini batches of 10"
        readers.append(
            re.compile(
                r"\b(?:mini[- ]?)?batch(?:es)?\s+(?:BIBREF\d+\s+)?of\s+(?:size\s+)?"
                rf"(?P<v>{NUM})(?!\w|\.\d)(?!\s*(?:%|times|steps|epochs|iterations))",
                re.I,
            )
        )
    return readers


def linked_findings(aspect: str, paper_units: list[Unit]) -> list[Finding]:
    """A setting's value tied to its name across a few words, by a colon, or as LaTeX."""
    if aspect not in SETTINGS:
        return []
    found = []
    read = readings(paper_units)
    for unit in paper_units:
        if unit.kind == "table" or aspect in read.get(unit.text, {}):
            continue
        for reader in _linked(aspect):
            m = reader.search(unit.text)
            if m and _RESPECTIVELY.search(unit.text) and _LIST_GOES_ON.match(unit.text, m.end()):
                break  # the first of a list of values closed by "respectively": not its own
            if m:
                value = m.group("v").strip()
                score = 0.5 + section_bonus(aspect, unit)
                found.append(Finding(aspect, value, unit.text, unit.page, unit.block_id,
                                     unit.section, score))  # fmt: skip
                break
    return found


def _cells(row: str) -> list[str] | None:
    """A Markdown table row's cells ("| a | b |"), or None for a row without separators."""
    text = row.strip()
    if not text.startswith("|"):
        return None
    return [c.strip() for c in text.strip("|").split("|")]


def _names_setting(cell: str, aspect: str) -> bool:
    label = re.sub(r"\s*\([^)]*\)\s*|[:=*]", " ", cell).strip()
    return bool(label) and _names()[aspect].fullmatch(label) is not None


# a header naming what a table of results measures ("| Epochs | Acc. | F1 |")
_MEASURE = re.compile(rf"(?<![\w-])(?:{METRIC_NAMES}|Acc\.?)(?![\w-])")


def table_findings(aspect: str, paper_units: list[Unit]) -> list[Finding]:
    """Values of a setting in hyperparameter tables: a row labelled with the setting gives its
    other cells, a column headed by it gives its cell in each row."""
    if aspect not in SETTINGS:
        return []
    found = []
    tables: dict[str, list[Unit]] = {}
    for unit in paper_units:
        if unit.kind == "table":
            tables.setdefault(unit.block_id, []).append(unit)
    for rows in tables.values():
        grid = [(u, _cells(u.text)) for u in rows]
        header = grid[0][1]
        columns = [j for j, c in enumerate(header or []) if j and _names_setting(c, aspect)]
        if any(_MEASURE.search(c) for c in header or []):
            columns = []  # a table of results: a setting's column lists the runs compared
        for n, (unit, cells) in enumerate(grid):
            if cells is None:
                continue
            if _names_setting(cells[0], aspect):
                values = [c for c in cells[1:] if re.search(r"\d", c)]
            elif n and columns:
                values = [
                    cells[j] for j in columns if j < len(cells) and re.search(r"\d", cells[j])
                ]
            else:
                continue
            for value in dict.fromkeys(values):
                score = 2.0 + section_bonus(aspect, unit)
                found.append(Finding(aspect, value, unit.text, unit.page, unit.block_id,
                                     unit.section, score))  # fmt: skip
    return found
