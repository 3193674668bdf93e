"""The name a paper gives what it proposes.

A paper names its own method in a few ways: "we propose KALM", "we call it H-CNN",
"Tri-LSTM, a model that ...", "our model (MTNet)", a name before its title's colon, or an
acronym its opening defines ("Sentence Level Recurrent Topic Model (SLRTM)") and its later
sections keep using. A name looks coined (two capitals, a capital and a digit, or a capital
inside the word: "KALM", "S2ORC", "BiDAF", "H-CNN"). Names the paper mostly mentions beside a
citation (a baseline, prior work), datasets of the library's gazetteer and generic
architectures are not its method. The name's statement then (a) lifts the method sentence
that names it and (b) fills the cell with the phrase that states the method with its name
(named_statement.py).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass

from citewise.agent.comparison.aspect_readers.matrix_cells import (
    alternation,
    cites_others,
    in_sections,
    word_list,
)
from citewise.agent.comparison.extraction import Unit

# a coined name: capitals and digits beyond a capitalised first letter, hyphenated parts allowed
_TOKEN = re.compile(r"(?<![\w-])[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*(?![\w-])")
PROPOSE = re.compile(
    r"\b(?:we|I|this (?:paper|work|article|thesis|proposal))\s+(?:will\s+)?(?:also\s+)?"
    r"(?:propose|present|introduce|develop|design|build|describe|devise|offer|contribute)s?(?:d)?\s+"
    r"(?P<object>[^.;:]{0,120})",
    re.I,
)
CALLED = re.compile(
    r"\b(?:call(?:ed)?|name[sd]?|dub(?:bed)?|term(?:ed)?|refer(?:red)? to (?:it |this |them )?as|"
    r"coin(?:ed)?)\s+(?:(?:it|them|(?:this|our|the)\s+[\w-]+)\s+)?(?:as\s+)?[\"“'‘]?"
    r"(?-i:(?=[A-Z]))",  # the name's capital, whatever the case of the verb
    re.I,
)
_OUR = re.compile(r"\b(?:[Oo]ur|[Tt]he proposed)\s+(?:[\w-]+\s+){0,2}?\(?(?=[A-Z])")
_IS_OURS = re.compile(
    r"(?<![\w-])(?P<n>[A-Z][\w-]*)\s+(?:is|are)\s+our\s+(?:proposed\s+|own\s+|new\s+)?"
    rf"(?:name|{alternation('method_nouns')})\b"
)
_OURS = re.compile(r"\s*\((?:ours|our (?:model|method|approach|system))\)", re.I)
# where a name defined by an acronym starts: the run of words before its bracket
_LONG_FORM = re.compile(r"((?:[A-Za-z][\w-]*\s+){1,8}?)\((?P<name>[^()]{2,20})\)")
_BRACKET = re.compile(r"\([^()]{2,20}\)")
_PASSIVE = re.compile(r"\b(?:is|are|was|were|be|been)\s+(?:\w+ly\s+)?$", re.I)
_FIRST_PERSON = re.compile(r"\b(?:we|our|us|I)\b")
# a name the paper uses for a task or a kind of data, not for what it proposes
_TASK_USE = r"\s+(?:task|tasks|datasets?|benchmarks?|performance|problem)\b"
OPENING_SHARE = 0.2  # the abstract and introduction: where a paper states what it proposes

# how much each way of stating a name says that it is the paper's own
CALLED_SCORE = 3.0
TITLE_PREFIX_SCORE = 3.0
PROPOSED_SCORE = 2.5
OWN_SCORE = 2.0
TITLE_SCORE = 1.0
DEFINED_SCORE = 1.0
APPOSITION_SCORE = 1.0
NAME_FLOOR = 2.0  # a name stated by one strong way, or by two weak ones
MAX_CITED_SHARE = 0.5  # a name more often beside a citation than not is someone else's


@dataclass(frozen=True)
class MethodName:
    """The paper's name for its method, its long form where an acronym is defined, and how
    strongly the paper states it as its own."""

    name: str
    long_form: str
    score: float


def coined(token: str) -> bool:
    """Whether a capitalised token looks like a coined name rather than a word: a capital or
    a digit after its first letter ("KALM", "S2ORC", "BiDAF", "H-CNN")."""
    rest = token[1:]
    return 2 <= len(token) <= 25 and any(c.isupper() or c.isdigit() for c in rest)


def _generic() -> frozenset[str]:
    return word_list("generic_method_names")


def _names_in(text: str) -> list[str]:
    return [
        m.group()
        for m in _TOKEN.finditer(text)
        if coined(m.group()) and not _placeholder_or_generic(m.group())
    ]


def _first_name(text: str, within: int = 7) -> str | None:
    """The coined name `text` opens with: within its first few words, before any word that
    starts describing something else ("a model based on BERT" names BERT, not the method)."""
    for n, m in enumerate(re.finditer(r"[\w-]+", text[:120])):
        word = m.group()
        if n > within or word.lower() in _STOPS:
            return None
        if coined(word) and word[0].isupper() and not _placeholder_or_generic(word):
            return word if _FOLLOWS_NAME.match(text[m.end() :]) else None
    return None


# what may follow a name the sentence gives as its object: a stop, a bracket, what it is
_FOLLOWS_NAME = re.compile(
    rf"\s*(?:$|[,():;.\"”'’]|(?:which|that|is|to|for|as|(?:{alternation('method_nouns')}))\b)",
    re.I,
)


# words after which a name no longer is the object itself but what it is made from or about
_STOPS = frozenset("based on using with from by over than like of for in to and or".split())
_LANGUAGE_PAIR = re.compile(r"^[A-Z][a-z]-[A-Z][a-z]$")  # "Ja-En", "En-De"
# LaTeX conversion placeholders ("INLINEFORM4") and citation keys ("Kim2014")
_PLACEHOLDER = re.compile(
    r"^(?:[A-Z]+REF|INLINEFORM|DISPLAYFORM|EQREF|UID)\d*$|^[A-Z][a-z]+(?:19|20)\d\d[a-z]?$"
)


def _placeholder_or_generic(name: str) -> bool:
    """LaTeX conversion placeholders ("INLINEFORM4") and generic abbreviations ("LSTM")."""
    if _PLACEHOLDER.match(name) or _LANGUAGE_PAIR.match(name) or name.lower() in _generic():
        return True
    return "-" in name and name.rsplit("-", 1)[1].islower()  # "BERT-based" describes


def _defined_first(text: str) -> str | None:
    """The acronym of a long form `text` opens with: "a Gated Recurrent Unit Network (GRUN)"."""
    m = re.match(r"\s*(?:(?:a|an|the)\s+)?" + _LONG_FORM.pattern, text)
    if not m or not coined(m.group("name")) or not _initials_match(m.group(1), m.group("name")):
        return None
    return m.group("name")


def method_name(
    paper_units: list[Unit], title: str, excluded: set[str] | None = None
) -> MethodName | None:
    """The name the paper gives what it proposes, or None when it names none; `excluded`
    holds names that are not methods (the gazetteer's datasets)."""
    excluded = {e.lower() for e in excluded or set()}
    share = max(len(paper_units), 1)
    scores: dict[str, float] = defaultdict(float)
    long_forms: dict[str, str] = {}
    strong: set[str] = set()  # names the paper says it proposes or calls so
    m = re.match(r"\s*(?P<n>[A-Z][\w-]*)\s*:", title)
    if m and coined(m.group("n")):
        scores[m.group("n")] += TITLE_PREFIX_SCORE
    for name in set(_names_in(title)):
        scores[name] += TITLE_SCORE
    for n, unit in enumerate(paper_units):
        if unit.kind == "table" or in_sections(unit.section, "others_sections"):
            continue
        opening = n / share <= OPENING_SHARE or _in_opening(unit)
        cited = cites_others(unit.text)
        defines = _BRACKET.search(unit.text) is not None  # a cheap test before the slow one
        for d in _LONG_FORM.finditer(unit.text) if defines else ():
            acronym = d.group("name").strip()
            if coined(acronym) and _initials_match(d.group(1), acronym):
                long_forms.setdefault(acronym, _long_form(d.group(1), acronym))
                if opening and not cited:
                    scores[acronym] += DEFINED_SCORE
        if cited:
            continue
        for found, score in _stated(unit.text, opening):
            scores[found] += score
            if score >= PROPOSED_SCORE:
                strong.add(found)
    best: MethodName | None = None
    for name, score in scores.items():
        if _placeholder_or_generic(name) or (name.lower() in excluded and name not in strong):
            continue
        if score < NAME_FLOOR or _task_like(name, paper_units):
            continue
        if _written_as_word(name, paper_units) or _a_kind(name, paper_units):
            continue
        uses, cited_uses = _uses(name, paper_units)
        if uses < 2 or cited_uses > MAX_CITED_SHARE * uses:
            continue
        total = score + 0.5 * math.log2(1 + uses)
        if best is None or total > best.score:
            best = MethodName(name, long_forms.get(name, name), total)
    return best


def _stated(text: str, opening: bool) -> list[tuple[str, float]]:
    """Names a sentence (citing no one) states as the paper's own, each with how strongly:
    called so, "our X", "X (ours)"; in the opening also proposed and "X, a ..."."""
    out = []
    for c in CALLED.finditer(text):
        if _PASSIVE.search(text[: c.start()]) and not _FIRST_PERSON.search(text):
            continue  # "this algorithm is called X": how others' work is known
        if _in_a_title(text, c.start()):
            continue  # "Long Short-Term Memory (LSTM)": a word of a name, not the verb
        called = _first_name(text[c.end() :], within=3) or _defined_first(text[c.end() :])
        if called:
            out.append((called, CALLED_SCORE))
    for o in _OUR.finditer(text):
        own = _first_name(text[o.end() :])
        if own:
            out.append((own, OWN_SCORE))
    for o in _IS_OURS.finditer(text):  # "GRURNTN is our name for ...", "X is our model"
        if coined(o.group("n")) and not _placeholder_or_generic(o.group("n")):
            out.append((o.group("n"), OWN_SCORE))
    for o in _OURS.finditer(text):
        before = _names_in(text[: o.start()])
        if before:
            out.append((before[-1], OWN_SCORE))
    if opening:
        p = PROPOSE.search(text)
        proposed = _first_name(p.group("object")) if p else None
        if proposed:
            out.append((proposed, PROPOSED_SCORE))
        a = re.match(r"(?P<n>[A-Z][\w-]*)\s*(?:\([^()]*\))?\s*,\s+(?:a|an)\s", text)
        if a and coined(a.group("n")):
            out.append((a.group("n"), APPOSITION_SCORE))
    return out


def _in_a_title(text: str, at: int) -> bool:
    """Whether the naming verb at `at` is a capitalised word inside the sentence ("Named Entity
    Recognition (NER)", "Short-Term Memory"): a word of a title-case name, not "we term it X"
    (QASPER odd half: 3 sentences in 2 papers, each a long form read as a name given)."""
    return text[at].isupper() and at > 0 and not _SENTENCE_START.search(text, 0, at)


_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+)[\"“'‘(]?$")
# a name written as a kind of thing: after an indefinite article and at most two lower-case
# words, and before no noun of its own ("a weighted FSA that ...", "an empty FSA in")
_KIND_OF = (
    r"\b[Aa]n?\s+(?:[a-z][\w-]*\s+){0,2}?%s"
    r"(?=\s*(?:[,.;:)]|$|(?:that|which|with|in|for|to|of|is|are|as|and|or)\b))"
)
KIND_USES = 3  # sentences writing a name so before it counts as a common noun


def _a_kind(name: str, paper_units: list[Unit]) -> bool:
    """Whether the paper writes the name as a common noun (a kind of thing, like "an LSTM")
    in KIND_USES sentences or more: a paper's own method is a proper name ("we propose X",
    "X outperforms"). QASPER odd half: 1 of the 57 names chosen (an abbreviation of a
    textbook formalism); no other name is written so more than twice."""
    pattern = re.compile(_KIND_OF % re.escape(name))
    return sum(1 for u in paper_units if pattern.search(u.text)) >= KIND_USES


def _task_like(name: str, paper_units: list[Unit]) -> bool:
    """Whether the paper defines the name as a task ("(FET) is the task of") or uses it
    for one ("FET datasets", "the NER task")."""
    n = re.escape(name)
    task = re.compile(rf"(?<![\w-]){n}\)?\s+is\s+the\s+(?:task|problem)\b|(?<![\w-]){n}{_TASK_USE}")
    return any(task.search(u.text) for u in paper_units)


def _written_as_word(name: str, paper_units: list[Unit]) -> bool:
    """Whether the name is a word the paper also writes in lower case ("TRAIN" and "train",
    "Zero-Shot" and "zero-shot"): emphasis or a heading's capitals, not a coined name."""
    word = re.compile(rf"(?<![\w-]){re.escape(name.lower())}(?![\w-])")
    return any(word.search(u.text) for u in paper_units)


def _uses(name: str, paper_units: list[Unit]) -> tuple[int, int]:
    """How many sentences use the name, and how many of those cite others."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    uses = cited = 0
    for unit in paper_units:
        if pattern.search(unit.text):
            uses += 1
            cited += cites_others(unit.text)
    return uses, cited


def _initials_match(words: str, name: str) -> bool:
    """Whether the acronym's first letter opens one of the last words before its bracket."""
    first = name[0].lower()
    return any(w[:1].lower() == first for w in words.split()[-8:])


def _long_form(words: str, name: str) -> str:
    """The acronym with the words it abbreviates: from the last word before its bracket that
    starts as the acronym does and leaves room for its capitals ("Zero-Shot Adaptive Transfer
    model (ZAT)"), else from as many words back as it has capitals."""
    parts = words.split()[-8:]
    room = len(parts) - max(sum(c.isupper() for c in name), 1)
    first = name[0].lower()
    starts = [j for j, w in enumerate(parts) if w[:1].lower() == first]
    before = [j for j in starts if j <= room]
    i = before[-1] if before else (starts[0] if starts else max(room, 0))
    return " ".join(parts[i:]) + f" ({name})"


def opening_blocks(paper_units: list[Unit]) -> set[str]:
    """The blocks of the paper's opening: its abstract and introduction, else its first fifth."""
    share = max(len(paper_units), 1)
    return {
        u.block_id
        for n, u in enumerate(paper_units)
        if n / share <= OPENING_SHARE or _in_opening(u)
    }


def _in_opening(unit: Unit) -> bool:
    return _OPENING.search(unit.section.split(" > ")[-1]) is not None


_OPENING = re.compile(r"abstract|introduction", re.I)
