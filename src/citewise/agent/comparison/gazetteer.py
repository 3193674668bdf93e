"""Names of datasets and models, learned from the library itself.

A name is a capitalised or mixed-case token sequence ("BC5CDR", "NCBI-disease", "Selectome",
"BERT-Base") that the library's papers put next to a dataset or model word, or that sits in a
table column headed "Dataset" / "Model". The gazetteer is the union over the library, so a
paper that merely uses a name another paper introduced still has it found.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import stems_alternation, word_list
from citewise.agent.comparison.extraction import PLACEHOLDER_KINDS, Finding, Unit, section_bonus
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists
from citewise.documents.model import Table

KINDS = "kinds"  # the gazetteer's acronyms of a kind of data, never a dataset met in passing
NAME = r"[A-Z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*"
# a placeholder of a paper converted from LaTeX (a citation, table, formula) names nothing
PLACEHOLDER = re.compile(rf"^(?:{PLACEHOLDER_KINDS})\d+$")
_DATA_WORD = (
    r"(?:datasets?|data ?sets?|corpus|corpora|databases?|benchmarks?|treebanks?|collections?)"
)
_MODEL_WORD = r"(?:models?|architectures?|networks?|encoders?|baselines?|classifiers?)"
_DATASET_PATTERNS = [
    re.compile(
        rf"(?:\bthe\s+|\bour\s+|\bon\s+|\bfrom\s+|\busing\s+|\b(?:use[sd]?|adopt(?:s|ed)?|"
        rf"employ(?:s|ed)?)\s+)(?P<v>{NAME})"
        rf"(?:\s+\(?(?:[Rr]elease|[Vv]ersion|v)\s*[\d.]+\)?)?(?:\s+\d{{4}})?(?:\s+(?![a-z-]+ed\b)[a-z-]+)?\s+{_DATA_WORD}\b"
    ),
    re.compile(rf"\b{_DATA_WORD}\s+(?:called|named|of)\s+(?P<v>{NAME})\b"),
]
_MODEL_PATTERNS = [
    re.compile(
        rf"\b(?:we\s+(?:train|use|fine-tune|pretrain|adopt|employ|initiali[sz]e)|based on|"
        rf"initiali[sz]ed (?:from|with))\s+(?:a\s+|an\s+|the\s+)?(?P<v>{NAME})"
    ),
    re.compile(rf"(?P<v>{NAME})\s+(?:\([^)]*\)\s+)?{_MODEL_WORD}\b"),
    re.compile(rf"\bmodel\s+\((?P<v>{NAME})\)"),
    re.compile(
        r"(?P<v>\b(?:\d+|one|two|three|four|six|eight|twelve|single)[- ]layers?\s+"
        r"(?:bi-?directional\s+)?(?:LSTM|GRU|RNN|CNN|MLP|Transformer|BiLSTM)s?)\b"
    ),
]
_ARCHITECTURES = re.compile(
    r"^(?:Transformer|LSTM|BiLSTM|GRU|CNN|RNN|MLP|ResNet|VGG|U-Net|ViT|GAN|VAE)s?$"
)
_COLUMN = {"datasets": re.compile(r"^(data ?sets?|corpus|corpora|benchmarks?|data)$", re.I),
           "model": re.compile(r"^(models?|methods?|systems?|architectures?)$", re.I)}  # fmt: skip
# a sentence that uses a name, rather than mentions it
_USES = re.compile(
    r"\b(?:trained|evaluated|tested|fine-tuned|pre-?trained|experiments?)\s+(?:\w+\s+){0,3}?on\b|"
    r"\b(?:we|they)\s+(?:use|used|adopt|employ)\b",
    re.I,
)
_COMMON = {
    "The", "This", "These", "That", "Our", "We", "In", "On", "For", "A", "An", "Each", "All",
    "Table", "Figure", "Fig", "Section", "Appendix", "Eq", "Using", "From", "With", "As",
    "It", "Its", "One", "Two", "First", "Second", "Finally", "However", "Moreover", "Full",
    "English", "Chinese", "German", "French", "Spanish", "Other", "Both", "Such", "Some",
    "Many", "New", "Large", "Small",
}  # fmt: skip


def is_name(token: str, kind: str) -> bool:
    """Names carry capitals beyond the first letter, a digit, or are a known architecture;
    a dataset may also be one proper word ('Selectome'); sentence words are not names."""
    if token in _COMMON or len(token) < 2:
        return False
    if kind == "model" and (_ARCHITECTURES.match(token) or re.search(r"[- ]layer", token)):
        return True
    inner = sum(c.isupper() for c in token[1:]) + sum(c.isdigit() for c in token)
    if inner >= 1:
        return True
    return kind == "datasets" and token[1:].isalpha() and token[1:].islower() and len(token) >= 5


# "spoken language understanding (SLU)": an acronym of lower-case words names a task or a kind
_BRACKETED_ACRONYM = re.compile(r"\((?P<v>[A-Z][A-Za-z]*[A-Z]s?)\)")
_LOWER_WORD = re.compile(r"^[a-z][\w-]*$")


def kinds_of_data(paper_units: list[Unit]) -> set[str]:
    """Acronyms the paper defines by lower-case words whose initials spell them ("part-of-speech
    (POS)", "spoken language understanding (SLU)"): in "the SLU dataset" they name a kind of
    data, not a dataset."""
    kinds = set()
    for u in paper_units:
        for m in _BRACKETED_ACRONYM.finditer(u.text):
            acronym = m.group("v")
            letters = acronym.removesuffix("s").lower()
            before = u.text[max(0, m.start() - 120) : m.start()].split()[-len(letters) :]
            words = [p for w in before for p in w.split("-") if p]
            if len(words) < len(letters) or not all(_LOWER_WORD.match(w) for w in before):
                continue
            if "".join(w[0] for w in words[-len(letters) :]) == letters:
                kinds.add(acronym)
    return kinds


@dataclass
class Gazetteer:
    """Dataset and model names of a library."""

    names: dict[str, set[str]] = field(default_factory=lambda: {"datasets": set(), "model": set()})

    def add_units(self, paper_units: Iterable[Unit]) -> None:
        paper_units = list(paper_units)
        for unit in paper_units:
            for kind, value in pattern_names(unit):
                self.names[kind].add(value)
        # acronyms of a kind ("part-of-speech (POS)"): no dataset where met in passing
        self.names.setdefault(KINDS, set()).update(kinds_of_data(paper_units))

    def add_tables(self, tables: Iterable[Table]) -> None:
        for table in tables:
            for kind, cells in column_values(table):
                self.names[kind].update(cells)


def pattern_names(unit: Unit) -> list[tuple[str, str]]:
    out = []
    for kind, patterns in (("datasets", _DATASET_PATTERNS), ("model", _MODEL_PATTERNS)):
        for pattern in patterns:
            for m in pattern.finditer(unit.text):
                value = m.group("v").rstrip(".")
                if kind == "datasets" and PLACEHOLDER.match(value):
                    continue  # "the INLINEFORM0 dataset": a formula, no name
                if is_name(value, kind):
                    out.append((kind, value))
    return out


def column_values(table: Table) -> list[tuple[str, list[str]]]:
    """(kind, the column's body cells) for columns headed like 'Dataset' or 'Model'."""
    grid = table.grid()
    head = max(1, table.header_rows)
    out = []
    for col in range(table.cols):
        header = " ".join(grid[r][col] for r in range(min(head, len(grid))) if grid[r][col])
        for kind, pattern in _COLUMN.items():
            if pattern.match(header.strip()):
                cells = [row[col].strip() for row in grid[head:] if row[col].strip()]
                names = [c for c in cells if re.fullmatch(NAME, c) and is_name(c, kind)]
                out.append((kind, list(dict.fromkeys(names))))
    return out


def name_findings(
    kind: str, paper_units: list[Unit], paper_tables: list[Table], gazetteer: Gazetteer
) -> list[Finding]:
    """Every mention of a gazetteer name in a paper: in a 'Dataset'/'Model' column of its
    own tables or as its own pattern match (scored higher), or as a bare mention in a
    setup/results section or a table row."""
    own = {v for u in paper_units for k, v in pattern_names(u) if k == kind}
    kinds = gazetteer.names.get(KINDS, set())
    columns = {v for t in paper_tables for k, vs in column_values(t) if k == kind for v in vs}
    known = gazetteer.names.get(kind, set()) | own | columns
    if kind == "datasets":  # a placeholder names nothing, and would hide its sentence's count
        known = {n for n in known if not PLACEHOLDER.match(n)}
    if not known:
        return []
    alternation = "|".join(re.escape(n) for n in sorted(known, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w-])(?P<v>{alternation})(?![\w-])")
    found = []
    for unit in paper_units:
        for m in pattern.finditer(unit.text):
            value = m.group("v")
            bonus = section_bonus("default", unit)
            if value in columns and unit.kind == "table":
                score = 3.0
            elif value in own:
                score = 2.0 + bonus
            elif value in kinds:
                continue  # "features derived from POS tags": a kind the library defines
            elif unit.kind == "table" or bonus or _USES.search(unit.text):
                score = 1.0 + bonus
            else:
                continue
            if kind == "datasets":
                if _TOOL_AFTER().match(unit.text, m.end("v")) or _TOOL_BEFORE().search(
                    unit.text[max(0, m.start("v") - 120) : m.start("v")]
                ):
                    continue  # "the NLTK toolkit", "packages such as NLTK": a tool, not data
                value = _whole_name(unit.text, m.start("v"), m.end("v"))
                if value == m.group("v"):
                    value = longer_name(unit.text, m.start("v"), m.end("v"))
                if not value:
                    continue  # "South" of "South African languages"
            found.append(
                Finding(kind, value, unit.text, unit.page, unit.block_id, unit.section, score)
            )
    return found


def _tool_words() -> str:
    """[tool_words] of agent/data/datasets_words.txt as an alternation, longest first."""
    words = sourced_lists(shipped_text(_WORDS_FILE), _WORDS_FILE, ["tool_words"])["tool_words"]
    return stems_alternation(words)


@cache
def _TOOL_AFTER() -> re.Pattern[str]:  # noqa: N802 - a compiled pattern, built once
    """A tool word right after a name ("NLTK toolkit", "SLU pipeline", "QA models")."""
    return re.compile(rf"\s+(?i:{_tool_words()})\b")


@cache
def _TOOL_BEFORE() -> re.Pattern[str]:  # noqa: N802 - a compiled pattern, built once
    """A list a tool word opens, up to the name it holds ("Python packages such as NLTK,
    NetworkX and", "tools (e.g., NLTK", "models such as Multilingual")."""
    alternation = _tool_words()
    item = r"[^\s,;.()]+(?:\s+[^\s,;.()]+){0,2}"
    return re.compile(
        rf"\b(?i:{alternation})\s*\(?\s*(?:such\s+as|like|including|e\.g\.,?|i\.e\.,?)\s+"
        rf"(?:{item}\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+))*$"
    )


_WORDS_FILE = "datasets_words.txt"
_PLAIN_WORD = re.compile(r"[A-Z][a-z]+")
_CAPITALISED_RUN = re.compile(r"(?:\s+[A-Z][\w-]*){1,3}")


def longer_name(text: str, start: int, end: int) -> str:
    """The name a plain capitalised word at `start:end` stands for: itself, or "" when it is
    the first word of a longer capitalised name ("South" of "South African", "Zhihu" of
    "Zhihu Live"), unless that name is one the paper cites ("Conceptual Captions BIBREF0"):
    then the longer name."""
    word = text[start:end]
    run = _CAPITALISED_RUN.match(text, end)
    if not _PLAIN_WORD.fullmatch(word) or run is None:
        return word
    stop = end
    for w in re.finditer(r"\S+", run.group()):
        if PLACEHOLDER.match(w.group()):
            return text[start:stop] if stop > end else word
        stop = end + w.end()
    return ""


_BEFORE = re.compile(rf"(?:^|(?<=\s))(?P<w>{NAME})\s+$")
_AFTER = re.compile(rf"^\s+(?P<w>{NAME}|\d+(?:\.\d+)*)(?![\w-])")
_ENDS_DATA = re.compile(rf"{_DATA_WORD}|Volume|Treebank|v?\d+(?:\.\d+)*", re.I)
_WIDEN = 3  # words a known name may take on either side


def _whole_name(text: str, start: int, end: int) -> str:
    """A known name with the words of the longer name it stands in: capitalised words before
    it after "the" ("the Pacific Reef survey": "Pacific Reef"), numbers after it ("Reef 2019",
    "Reef 3.0") and capitalised words after it that end in a data word ("Reef Survey Corpus");
    never a placeholder, at most three words a side."""
    if PLACEHOLDER.match(text[start:end]):
        return text[start:end]
    openers = word_list("name_openers")
    before = start
    for _ in range(_WIDEN):
        m = _BEFORE.search(text[max(0, before - 40) : before])
        if not m or m.group("w").lower() in openers or PLACEHOLDER.match(m.group("w")):
            break
        before -= len(m.group(0))
    if before < start and re.search(r"\bthe\s+$", text[max(0, before - 8) : before]):
        start = before
    after = end
    for _ in range(_WIDEN):
        m = _AFTER.match(text[after:])
        if not m or m.group("w").lower() in openers or PLACEHOLDER.match(m.group("w")):
            break
        after += m.end()
        if m.group("w")[0].isdigit() or _ENDS_DATA.fullmatch(m.group("w")):
            end = after
    return text[start:end]
