"""What a sentence says of another subject: a relative clause is said of the name it follows.

"PubMed, which contains 30M papers" says "contains 30M papers" of PubMed; "links to MAG
(which contained 213M papers)" says it of MAG. A question that names what it asks about
("How many papers does S2ORC contain?") is not answered by what is said of another named
subject, however many of the question's other words it shares: such a clause covers none of
the question's terms and states no number for it. Pure functions over the sentence's
structure; no list of subjects or verbs.
"""

from __future__ import annotations

import re
from functools import lru_cache

from citewise.agent.ask.question import Question
from citewise.regex import lazy
from citewise.retrieval.terms import STOPWORDS

# A capitalised word, or one written as a name ("PubMed", "MAG", "GPT-3", "arXiv").
_CAPITAL = r"(?:[A-Z]|[a-z]+[A-Z])[\w-]*"
_SPACE = r"[^\S\n]"  # within one line: a table's rows are lines
# Up to four capitalised words, an optional parenthetical after them: "PubMed Central (OA)",
# "HOVER (Jiang et al., 2020)".
_ONE_NAME = rf"(?:{_CAPITAL}{_SPACE}+){{0,3}}{_CAPITAL}(?:{_SPACE}*\([^()\n]{{1,30}}\))?"
_AND = rf"{_SPACE}*(?:,{_SPACE}*(?:(?:and|or){_SPACE}+)?|{_SPACE}+(?:and|or){_SPACE}+)"
# A name, or names joined by "and" / "or" (the clause is said of each), then a relative
# clause opening: ", which|who|whose", or "(which|who|whose".
_ATTACHED = lazy(
    rf"(?<![\w-])(?P<name>(?:{_ONE_NAME}{_AND}){{0,3}}{_ONE_NAME})"
    rf"(?P<open>{_SPACE}*,{_SPACE}*(?:which|who|whose)\b|{_SPACE}*\({_SPACE}*(?:which|who|whose)\b)"
)
# A comma clause runs to the next clause break (a comma in "1,000" is no break).
_CLAUSE_END = lazy(r",\s|;|:|\)|\.\s|\n|$")
# Written as a name: capitals or digits inside ("PubMed", "S2ORC", "arXiv"), or two capitals.
_NAME_LIKE = lazy(r"^[A-Za-z][a-z]*[A-Z0-9]|^[A-Z]{2}")
_WORD = lazy(r"[A-Za-z][\w-]*")


def _written_as_name(word: str) -> bool:
    """A word written as a name ("S2ORC", "PubMed", "BM25"), not a stopword."""
    return bool(_NAME_LIKE.match(word)) and word.casefold() not in STOPWORDS


def _forms(word: str) -> set[str]:
    """A name and its hyphen parts, case-folded ("S2ORC-SciBERT": also "s2orc")."""
    word = re.sub(r"['’]s$", "", word).casefold()
    return {word, *(p for p in word.split("-") if p)}


@lru_cache(maxsize=256)
def _written_names(question: str) -> tuple[frozenset[str], bool]:
    """The names a question writes (case-folded): words written as names ("S2ORC",
    "PubMed") and capitalised words past its first ("Central"); and whether one is written
    as a name (a capitalised word alone names no subject: "In Table 3, how many ...")."""
    names: set[str] = set()
    named = False
    for n, m in enumerate(_WORD.finditer(question)):
        word = m.group(0)
        if _written_as_name(word):
            named = True
            names |= _forms(word)
        elif n > 0 and word[0].isupper() and word.casefold() not in STOPWORDS:
            names |= _forms(word)
    return frozenset(names), named


def asked_names(question: Question | str) -> frozenset[str]:
    """The names the question asks about, case-folded; empty when it writes none as a name."""
    names, named = _written_names(question if isinstance(question, str) else question.text)
    return names if named else frozenset()


def names_written_as_names(question: str) -> frozenset[str]:
    """The question's words written as names ("BM25", "ProgramFC", "S2ORC-SciBERT" and its
    parts), case-folded; not a capitalised word alone."""
    return frozenset(f for w in _WORD.findall(question) if _written_as_name(w) for f in _forms(w))


def _other_names(question: Question | str) -> frozenset[str]:
    """What else the library calls what the question names: the abbreviation it defines for
    the question's words ("TCJA" for "Tax Cuts and Jobs Act", agent/ask/vocabulary.py)."""
    if isinstance(question, str):
        return frozenset()
    return frozenset(f for t in question.expansion for f in _forms(t))


def _is_name(name: str) -> bool:
    """Capitalised words that hold a word written as a name ("PubMed", "ACL Anthology",
    "arXiv"): a title or a place ("Chief Executive Officer, who ...", "Europe, which ...")
    is often another way to say what the question names, so it keeps its clause."""
    return any(_written_as_name(w) for w in name.split())


def _clause_end(text: str, m: re.Match[str]) -> int:
    """Where the relative clause opened by `m` ends: its closing bracket, or the next
    clause break of a comma clause."""
    start = m.end()
    if "(" in m.group("open"):
        depth = 1
        for i in range(start, len(text)):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            if depth == 0:
                return i
        return len(text)
    end = _CLAUSE_END.search(text, start)
    return end.start() if end else len(text)


def other_subject_clauses(sentence: str, question: Question | str) -> list[tuple[int, int]]:
    """Spans of the sentence's relative clauses said of a named subject the question does not
    name, when the question names one (and the clause does not name it either)."""
    asked = asked_names(question)
    # the clause opening is written in lower case ("which", "who", "whose"): most sentences
    # hold none, and the pattern's names would be tried at every position of them
    if not asked or ("which" not in sentence and "who" not in sentence):
        return []
    holders = asked | _other_names(question)
    spans: list[tuple[int, int]] = []
    for m in _ATTACHED.finditer(sentence):
        name = m.group("name")
        if not _is_name(name):
            continue
        end = _clause_end(sentence, m)
        holder = {f for w in name.split() for f in _forms(w)}
        clause = {f for w in _WORD.findall(sentence[m.end() : end]) for f in _forms(w)}
        if not (holder & holders or clause & asked):
            spans.append((m.start("open"), end))
    return spans


def without_other_subjects(sentence: str, question: Question | str) -> str:
    """The sentence with the clauses said of another named subject blanked out (same
    length, so positions still hold)."""
    for start, end in other_subject_clauses(sentence, question):
        sentence = sentence[:start] + " " * (end - start) + sentence[end:]
    return sentence


# A figure standing alone in a table row ("8.1M", "25k", "2.6"; not a cited work's
# "(2019)"): where a row's name ends.
_FIGURE = lazy(r"(?<![\w.(])\d[\d.,]*[%kKMB]?(?![\w])")
# A row named after a cited work: "Saier and Färber (2019)", "AAN (Radev et al., 2009)".
_CITED_WORK = lazy(r"^\W*[A-Z]\w*.*(?:\bet al\.|\(\d{4}[a-z]?\))")


def _row_lead(row: str) -> str:
    """The row's name: its words before its first figure."""
    m = _FIGURE.search(row)
    return row[: m.start()] if m else row


def other_subject_rows(table: str, question: Question | str) -> set[str]:
    """Rows (lines) of a table that are named after another subject, when the question
    names one and some row is named after it: beside "S2ORC (PDF-parse) 8.1M ...", the row
    "PubMed Central (OA) 2.6M ..." says nothing of S2ORC. A table none of whose rows is
    named after the question's subject (models as rows, a dataset asked) sets none aside."""
    asked = asked_names(question)
    if not asked:
        return set()
    holders = asked | _other_names(question)
    own: set[str] = set()
    others: set[str] = set()
    for row in table.split("\n"):
        lead = _row_lead(row.strip())
        named = _is_name(lead) or bool(_CITED_WORK.match(lead))
        if not lead.strip() or lead.strip() == row.strip() or not named:
            continue
        forms = {f for w in _WORD.findall(lead) for f in _forms(w)}
        (own if forms & holders else others).add(row.strip())
    return others if own else set()
