"""Scope from the company a question names: "Boeing's backlog" is asked of Boeing's filing.

A filing is named by the company its cover gives ("THE BOEING COMPANY",
agent/packs/finance/filings.py;
the file name "BOEING_2018_10K.pdf" as extra evidence), written in the question as a name:
a run of capitalised words ("Lockheed Martin's", "General Mills'", "3M") that is the
company's name, not a word inside a longer name ("Amazon Mechanical Turk" names no filing).
Of several filings of that company, the one for the fiscal year the question names
(`pick_filing`), else all of them. Like a paper's name, the scope is soft (agent/ask/qa.py
`retrieve`).
"""

from __future__ import annotations

import re

from citewise.agent.ask.scope import MAX_SCOPED, ScopeChoice
from citewise.agent.packs.finance.filings import CORPORATE, Filing, pick_filing
from citewise.agent.packs.finance.statements import compact, question_years
from citewise.retrieval.terms import STOPWORDS, stem, tokens

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
            if bare.lower() not in CORPORATE:
                runs[-1].append(bare)
            if bare != word.rstrip("."):
                runs.append([])
        elif runs[-1]:
            runs.append([])
    return {compact(" ".join(run)) for run in runs if run}


def filing_scope(question: str, filings: list[Filing]) -> list[ScopeChoice]:
    """The filings of the company the question names, narrowed to the fiscal year it asks
    about when it names one; empty when it names no company with a filing."""
    written = written_names(question)
    named = [f for f in filings if f.names & written]
    if not named:
        return []
    if len(named) > 1 and question_years(question):
        picked = pick_filing(question, written, named)
        named = [picked] if picked is not None else named
    if len(named) > MAX_SCOPED:
        return []
    return [
        ScopeChoice(
            f.document.id,
            f.document.title,
            f"company '{f.company}'",
            # the question's words that make up the name: they name it, not what is asked
            frozenset(
                stem(t) for t in tokens(question) if len(t) > 1 and any(t in n for n in f.names)
            ),
        )
        for f in named
    ]
