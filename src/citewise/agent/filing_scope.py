"""Scope from the company a question names: "Boeing's backlog" is asked of Boeing's filing.

A filing is named by the company its file name gives ("BOEING_2018_10K.pdf", the names
agent/statements.py `filing_names` reads), written in the question as a name: a run of
capitalised words ("Lockheed Martin's", "General Mills'", "3M") that is the company's name,
not a word inside a longer name ("Amazon Mechanical Turk" names no filing). Of several
filings of that company, the one for the fiscal year the question names (`pick_filing`),
else all of them. Like a paper's name, the scope is soft (agent/qa.py `retrieve`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.scope import MAX_SCOPED, ScopeChoice
from citewise.agent.statements import compact, filing_names, pick_filing, question_years
from citewise.retrieval.terms import STOPWORDS, stem, tokens
from citewise.store.library import StoredDocument

# Words around a company's name that are not part of it ("The Boeing Company", "Nike, Inc.").
_CORPORATE = frozenset(
    "the company co corp corporation inc incorporated ltd plc group holdings".split()
)
_WORD = re.compile(r"[A-Za-z0-9][\w&.'’-]*")
_POSSESSIVE = re.compile(r"(?:'s|’s|'|’)$")


def written_names(question: str) -> set[str]:
    """Each run of capitalised words in the question, compacted ("lockheedmartin"), without
    corporate words; a possessive ("Boeing's") or a function word ("Did") ends a run."""
    runs: list[list[str]] = [[]]
    for word in _WORD.findall(question):
        bare = _POSSESSIVE.sub("", word).rstrip(".")
        if bare.lower() in STOPWORDS:  # "Did Costco", "What Nike": no part of a name
            if runs[-1]:
                runs.append([])
        elif bare and (bare[0].isupper() or bare[0].isdigit()):
            if bare.lower() not in _CORPORATE:
                runs[-1].append(bare)
            if bare != word.rstrip("."):
                runs.append([])
        elif runs[-1]:
            runs.append([])
    return {compact(" ".join(run)) for run in runs if run}


@dataclass(frozen=True)
class Filing:
    document: StoredDocument
    company: str  # compacted, as the file name gives it


def filings_of(documents: list[StoredDocument]) -> list[Filing]:
    """The library's documents whose file names give a company and a year (filings)."""
    out = []
    for doc in documents:
        names, years = filing_names(doc)
        if names and years:
            out.append(Filing(doc, names[0]))
    return out


def filing_scope(question: str, filings: list[Filing]) -> list[ScopeChoice]:
    """The filings of the company the question names, narrowed to the fiscal year it asks
    about when it names one; empty when it names no company with a filing."""
    written = written_names(question)
    named = [f for f in filings if f.company in written]
    if not named:
        return []
    if len(named) > 1 and question_years(question):
        picked = pick_filing(question, [f.document for f in named])
        named = [f for f in named if picked is not None and f.document.id == picked.id] or named
    if len(named) > MAX_SCOPED:
        return []
    return [
        ScopeChoice(
            f.document.id,
            f.document.title,
            f"company '{f.company}'",
            # the question's words that make up the name: they name it, not what is asked
            frozenset(stem(t) for t in tokens(question) if len(t) > 1 and t in f.company),
        )
        for f in named
    ]
