"""Software named in a paper's setup: a name the library's papers put before "toolkit",
"library", "package", "framework" or after "implemented in" (learned over the library, like
the gazetteer's dataset names), or a programming language, framework, toolkit or statistics
package of agent/data/matrix_software.txt, found in a sentence that uses it ("implemented in C",
"trained using Sockeye", "analysed with Stata"), or a program named by its kind after a name in
capitals ("obtained using the Stanford POS tagger", "we use the Montreal Forced Aligner"), or a
pre-trained model or embedding release the paper's own sentences load (setup_loaded.py:
"initialised with 300-dimensional GloVe vectors", "we fine-tune BERT-base")."""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import alternation, stems_alternation
from citewise.agent.comparison.extraction import Finding, Unit, section_bonus
from citewise.agent.comparison.patterns import OPTIMIZERS
from citewise.agent.comparison.settings.setup_loaded import loaded_models
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists

SOFTWARE_FILE = "matrix_software.txt"
_NAME = r"[A-Za-z][A-Za-z0-9+#]*(?:[-_./][A-Za-z0-9+#]+)*"
_CITE = r"(?:\s*(?:BIBREF\d+|\[\d+(?:,\s*\d+)*\]|\(\w[^()]{0,40}\d{4}\))\s*,?)*"
# a name learned as software: "the KenLM toolkit", "Scikit-learn package", "implemented in PyTorch"
_LEARN = [
    re.compile(
        rf"\b(?P<n>[A-Z][A-Za-z0-9+#]*(?:[-_./][A-Za-z0-9+#]+)*){_CITE}\s+"
        r"(?:toolkit|toolbox|library|libraries|package|software)\b"
    ),
    # the kind before the name: "the Python library Gensim", "the microframework “Dash”"
    # (not the paper's own system: "our framework X", "the proposed framework X")
    re.compile(
        r"(?<!\bour\s)(?<!\bproposed\s)"
        r"\b(?:toolkit|library|package|(?:micro)?framework)\s+[“\"']?"
        r"(?P<n>[A-Z][A-Za-z0-9+#]*(?:[-_./][A-Za-z0-9+#]+)*)"
    ),
    re.compile(
        r"\b(?:implemented|coded)\s+(?:\w+\s+){0,3}?(?:in|with|using)\s+"
        r"(?:the\s+)?(?P<n>[A-Z][A-Za-z0-9+#]*(?:[-_./][A-Za-z0-9+#]+)*)"
    ),
]
_ACRONYM = re.compile(r"^[A-Z]{1,3}s?$")  # "NLP", "SMT", "QA": a field, not a program
# a sentence that uses a tool (not one that only names it)
_USE = re.compile(rf"\b(?:{alternation('tool_use_words')})\b", re.I)
_NOT_SOFTWARE = re.compile(
    rf"^(?:{OPTIMIZERS}|The|This|These|Our|We|Its|Their|An?|In|Open|Python's|Table|Figure|"
    r"Section|BIBREF\d+|INLINEFORM\d+|UID\d+)$"
)


@cache
def vocabulary(name: str) -> tuple[str, ...]:
    text = shipped_text(SOFTWARE_FILE)
    names = ("languages", "frameworks", "tools", "statistics", "lexical resources",
             "label inventory words", "resource as data words", "tool kinds", "service kinds",
             "data collection words")  # fmt: skip
    lists = sourced_lists(text, SOFTWARE_FILE, names)
    return tuple(lists[name])


def learn_software(paper_units: list[Unit]) -> set[str]:
    """Software names a paper's sentences introduce as such ('the KenLM toolkit')."""
    names = set()
    for unit in paper_units:
        for pattern in _LEARN:
            for m in pattern.finditer(unit.text):
                name = m.group("n").rstrip(".")
                if len(name) >= 2 and not _NOT_SOFTWARE.match(name) and not _ACRONYM.match(name):
                    names.add(name)
    return names


def software_names(learned: dict[str, int], other_names: set[str]) -> set[str]:
    """The learned names a paper's sentences may be read for: those named as software by two
    papers or written like a program's name ('KenLM', 'C++', 'word2vec'), and not a dataset
    or model name of the library."""
    return {
        n for n, count in learned.items()
        if n not in other_names and not _ACRONYM.match(n)
        and (count >= 2 or re.search(r".[A-Z0-9+#]", n))
    }  # fmt: skip


def software_findings(paper_units: list[Unit], known: set[str]) -> list[Finding]:
    """Each known software name (learned over the library, or a language or framework of the
    vocabulary) in a sentence that uses it; a language only after 'implemented in' and alike."""
    languages = vocabulary("languages")
    # a language is software only where the paper says it is written in it ("implemented in
    # Python"), not wherever a learned name is ("the Python library Gensim")
    learned = tuple(n for n in known if n not in languages)
    by_name = [_named(vocabulary("frameworks"), re.I), _named(learned, 0), _tools()]
    lang = "|".join(re.escape(n) for n in sorted(languages, key=len, reverse=True))
    in_language = re.compile(
        rf"\b(?:implement(?:ed|s)?|written|coded|programmed|run)\s+(?:\w+\s+){{0,4}}?in\s+"
        rf"(?P<v>(?:{lang})(?:\s+\d+(?:\.\d+)*)?)(?![\w+#-])"
    )
    found: dict[str, Finding] = {}
    as_data = _resources_as_data(paper_units)
    for unit in paper_units:
        if unit.kind == "table":
            continue
        values = [m.group("v") for m in in_language.finditer(unit.text)]
        if _USE.search(unit.text):
            values += [m.group("v") for p in by_name if p for m in p.finditer(unit.text)]
            # "the Moses tokenizer" after "Moses": the program already named
            named = [n for n in (*found, *(v.lower() for v in values)) if n not in _lexical()]
            values += [v for v in kind_named(unit.text) if not _names_any(v, named)]
        values = [v for v in values if not _others_program(unit.text, v)]
        values = _lexical_kept(unit.text, values, as_data)
        if _BACKGROUND.search(unit.section.split(" > ")[0]) and not _WE.search(unit.text):
            values = []  # the introduction or related work: "... uses the X toolkit"
        models = loaded_models(unit)
        for value in values + models:
            if value.lower() in found:
                continue
            # a program first, where a paper names more than the cell holds
            score = (0.9 if value in models else 1.0) + section_bonus("software", unit)
            found[value.lower()] = Finding(
                "software", value, unit.text, unit.page, unit.block_id, unit.section, score
            )
    return list(found.values())


# a sentence about another work's experiments: its subject a cited work or its authors, after
# an opening like "For example," ("For example, BIBREF3 test classifiers implemented in X")
_OTHERS_SUBJECT = re.compile(
    r"^\W*(?:(?:For\s+(?:example|instance)|Similarly|Likewise|Previously|Recently|Earlier),?\s+)?"
    r"(?:[A-Z][\w-]+(?:\s+(?:and|&)\s+[A-Z][\w-]+)?\s+et\s+al\.?|BIBREF\d+|They\b|"
    r"The\s+authors\b|Their\b)"
)


# the sections that tell of other works' tools (a word of its own: not "Abstractive Methods")
_BACKGROUND = re.compile(r"\b(?:introduction|related|background|prior work|previous work)\b", re.I)
# "we", "our", "us", but not "US" (the country: "the US election")
_WE = re.compile(r"\b(?:[Ww]e|[Oo]urs?|us)\b")


# a program named as an example of a kind: "popular tools such as X and Y", "(e.g., X, Y)",
# "such as the Linguistic Inquiry and Word Count (X)"
AS_EXAMPLE = re.compile(
    r"\b(?:such\s+as|e\.g\.,?|for\s+example,?)\s+(?:the\s+)?(?:[^.;:]{0,100}?"
    r"(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*\())?$",
    re.I,
)


def _others_program(text: str, value: str) -> bool:
    """Whether the program is not one the paper's experiments run: named in a sentence whose
    subject is a cited work and that has no "we"/"our", as a system compared with ("the Weka
    baseline"), or as an example of a kind of tool ("tools such as X")."""
    if _OTHERS_SUBJECT.match(text) and not _WE.search(text):
        return True
    at = re.search(rf"(?<![\w.+#-]){re.escape(value)}(?![\w+#-])", text)
    if at and AS_EXAMPLE.search(text, 0, at.start()):
        return True
    if at and _COMPARED_WITH.search(text, 0, at.start()):
        return True
    return re.search(rf"(?<![\w.+#-]){re.escape(value)}\s+baselines?\b", text) is not None


# a system the paper's own is compared with: "we compare our model with the X tagger BIBREF5",
# "we compared our tagger with a public implementation using X"
_COMPARED_WITH = re.compile(r"\bcompar\w*\s+(?:our|the\s+proposed)\b[^.;]{0,60}?\bwith\b", re.I)


def _names_any(value: str, names: list[str]) -> bool:
    """Whether `value` contains one of `names` as whole words."""
    low = value.lower()
    return any(re.search(rf"(?<![\w+#-]){re.escape(n)}(?![\w+#-])", low) for n in names)


@cache
def _lexical() -> list[str]:
    return [n.lower() for n in vocabulary("lexical resources")]


def _lexical_kept(text: str, values: list[str], as_data: set[str]) -> list[str]:
    """The sentence's values with its lexical resources (WordNet, ConceptNet ...) kept only
    where the paper's own experiments use one: in a sentence with "we"/"our", not where it
    only supplies the data's labels ("labelled by senses from WordNet 3.0"), not one the paper
    calls its data ("the WordNet dataset"); a program named by its kind after the resource
    ("the WordNet lemmatizer") is kept in its place."""
    lexical = _lexical()
    bare = [v for v in values if re.sub(r"\s+v?\d.*$", "", v.lower()) in lexical]
    fuller = [v for v in values if v not in bare]
    drop = {v for v in bare if _names_any(" ".join(fuller).lower(), [v.lower()])}
    if not _WE.search(text) or _label_inventory().search(text):
        drop |= set(bare)
    drop |= {v for v in bare if re.sub(r"\s+v?\d.*$", "", v.lower()) in as_data}
    return [v for v in values if v not in drop]


def _resources_as_data(paper_units: list[Unit]) -> set[str]:
    """The lexical resources a paper's sentences call a dataset or corpus: "the WordNet
    ontology dataset", "a dataset of relations from ConceptNet" (lower-cased)."""
    words = "|".join(re.escape(w) for w in vocabulary("resource as data words"))
    out = set()
    for name in _lexical():
        n = re.escape(name)
        as_data = re.compile(
            rf"\b{n}(?:\s+[\w-]+){{0,2}}?\s+(?:{words})\b|\b(?:{words})\b[^.;]{{0,60}}?"
            rf"\b(?:from|of|in)\s+(?:the\s+)?{n}\b",
            re.I,
        )
        if any(as_data.search(u.text) for u in paper_units):
            out.add(name)
    return out


@cache
def _label_inventory() -> re.Pattern[str]:
    """A sentence saying a lexical resource only supplies the data's labels."""
    return re.compile(rf"\b(?:{stems_alternation(vocabulary('label inventory words'))})\b", re.I)


@cache
def _tools() -> re.Pattern[str]:
    """The tools, statistics packages and lexical resources of the vocabulary: a name in
    capitals ("GATE", "SAS") as written, any other in any case ("Spacy" for spaCy), "-" or " "
    alike."""

    def spelled(name: str) -> str:
        return re.sub(r"\\[- ]", "[-\\\\s]?", re.escape(name))

    named = vocabulary("tools") + vocabulary("statistics") + vocabulary("lexical resources")
    names = sorted(named, key=len, reverse=True)
    exact = "|".join(spelled(n) for n in names if n.isupper())
    loose = "|".join(spelled(n) for n in names if not n.isupper())
    return re.compile(
        rf"(?<![\w.+#-])(?P<v>(?:{exact}|(?i:{loose}))(?:\s+v?\d+(?:\.\d+)+)?)(?![\w+#-])"
    )


def _named(names: tuple[str, ...], flags: int) -> re.Pattern[str] | None:
    if not names:
        return None
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(
        rf"(?<![\w.+#-])(?P<v>(?:{alternatives})(?:\s+v?\d+(?:\.\d+)+)?)(?![\w+#-])", flags
    )


# a word of a program's name: "Stanford", "CoreNLP", "NLTK", "GPT-2"; a citation is none
_NAME_WORD = r"(?!BIBREF\d|INLINEFORM\d)[A-Z][\w+.-]*"


@cache
def _kind_pattern() -> re.Pattern[str]:
    named = vocabulary("tool kinds") + vocabulary("service kinds")
    kinds = "|".join(re.escape(k) for k in sorted(named, key=len, reverse=True))
    return re.compile(
        rf"(?<![\w.-])(?P<v>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,2}}(?:\s+|[- ]?(?=POS[- ]))"
        rf"(?:POS[- ])?(?i:{kinds})s?)(?![\w-])"
    )


@cache
def _collects() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{stems_alternation(vocabulary('data collection words'))})\b", re.I)


def kind_named(text: str) -> list[str]:
    """Programs named by their kind (agent/data/matrix_software.txt's [tool kinds], [service
    kinds]) after a name in capitals: "the Stanford POS tagger", "the Moses tokenizer", "the
    Google Translate API"; not a kind after a determiner or an abbreviation of a field alone
    ("The parser", "POS tagger"), nor a service the paper collects its data through."""
    services = {k.lower() for k in vocabulary("service kinds")}
    out = []
    for m in _kind_pattern().finditer(text):
        words = m.group("v").split()
        if words[-1].lower().rstrip("s") in services and _collects().search(text):
            continue  # "tweets gathered using the Twitter Streaming API": a data source
        while words and _NOT_SOFTWARE.match(words[0]):
            words = words[1:]
        name = [w for w in words[:-1] if w != "POS"]
        if not name or all(_ACRONYM.match(w) for w in name):
            continue
        if any(w.lower().endswith("-based") for w in name):
            continue  # "a simple LSTM-based tagger": a kind of model, not a program's name
        # "Word segmenters are ...": a sentence's first word has its capital from its place
        opening = not text[: m.start()].strip(" \"'(")
        if opening and len(name) == 1 and not re.search(r".[A-Z0-9+#]", name[0]):
            continue
        out.append(" ".join(words))
    return out
