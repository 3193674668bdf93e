"""What a paper's sentences say about a claim, as the few numbers the yes/no model reads.

Each claim term weighs its inverse document frequency in the library (a word the library
never writes weighs nothing: no sentence could tell anything by it), and a sentence writes a
term when it writes the term's stem or a stem that begins it or that it begins, five letters
or more ("comparison" for "compare", "crowd-annotated" for "crowdsource").

- body_cover: the best sentence of the paper's body (methods, experiments, results) by its
  share of the claim's weight. The question may be written from the abstract, which then
  holds its words whatever the answer; the body reports what was done;
- widened: the claim reaches past what the paper states. It asks for something besides a
  named thing ("other than X") and the sentences that cover it best name nothing but X (a
  name: "RoBERTa", "WMT14"; "WMT14" counts as "WMT"); or, asking for nothing besides, it
  carries a negative-polarity item ("any", "ever"), with which a question leans towards
  "no", and no sentence of the paper's body writes every word of the claim: the asker's
  lean gives way to a sentence that states the claim. An exclusion is checked on the
  paper, so there the item adds nothing.

Leave-one-paper-out on the half fitted on kept these two: the share of the claim the paper
never writes and a negation near the claim's words added nothing to them (negation settles
a lead in quote.py, on the quoted sentence itself).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import astuple, dataclass, fields

from citewise.agent.yesno.claim import Claim
from citewise.agent.yesno.paper import Sentence
from citewise.agent.yesno.synonyms import synonyms
from citewise.retrieval.terms import stem

# the sentences that cover the claim best: at most this many, each within NEAR_BEST of the best
BEST_SENTENCES = 3
NEAR_BEST = 0.9
# the shortest stem another may begin or end ("crowd" in "crowdsourc")
PREFIX = 5
# a name: a capital after the first letter, or letters and digits ("RoBERTa", "WMT14")
_NAME = re.compile(r"^(?=.*[A-Za-z])(?:.+[A-Z].*|.*\d.*)$")
# placeholders some texts write for references, tables, formulas ("BIBREF3", "TABREF1")
_PLACEHOLDER = re.compile(r"^(?:BIBREF|TABREF|FIGREF|SECREF|EQREF|INLINEFORM|DISPLAYFORM)\d*$")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-]*")


@dataclass(frozen=True)
class Features:
    body_cover: float
    widened: float

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def vector(self) -> tuple[float, ...]:
        return astuple(self)


@dataclass(frozen=True)
class Reading:
    """The features, the sentences that cover the claim best (best first), and the stems
    of the claim's words the paper never writes (whether the library writes them or not)."""

    features: Features
    best: list[Sentence]
    unwritten: frozenset[str]


def features(claim: Claim, sentences: list[Sentence], weight: Callable[[str], float]) -> Reading:
    """The claim read over the paper's sentences."""
    terms = {t: w for t, w in ((stem(t), weight(t)) for t in claim.terms) if w > 0}
    total = sum(terms.values())
    forms = _forms(claim.stems, {t for s in sentences for t in s.stems})
    written: set[str] = set()
    scored: list[tuple[float, int, Sentence]] = []
    for n, s in enumerate(sentences):
        shared = {t for t, spelled in forms.items() if s.stems & spelled}
        written |= shared
        if shared & terms.keys():
            scored.append((sum(terms.get(t, 0.0) for t in shared) / total, n, s))
    scored.sort(key=lambda x: (-x[0], x[1]))
    best = scored[0][0] if scored else 0.0
    top = [s for c, _, s in scored[:BEST_SENTENCES] if c >= NEAR_BEST * best]
    stated = any(s.body and all(s.stems & spelled for spelled in forms.values()) for s in sentences)
    found = Features(
        body_cover=round(max((c for c, _, s in scored if s.body), default=0.0), 4),
        widened=_widened(claim, top, stated),
    )
    return Reading(found, top, claim.stems - written)


def _forms(terms: frozenset[str], vocabulary: set[str]) -> dict[str, set[str]]:
    """Each claim term's stems in the paper: its own, and those of PREFIX letters or more
    that begin it or that it begins ("compar" and "comparison", "crowdsourc" and "crowd");
    for a term with none of these, the synonyms the paper writes (agent/yesno/synonyms.py:
    "evaluate" for "assess")."""
    forms = {t: {t} & vocabulary for t in terms}
    for t in terms:
        if len(t) >= PREFIX:
            forms[t] |= {
                v for v in vocabulary if len(v) >= PREFIX and (v.startswith(t) or t.startswith(v))
            }
    same_sense = synonyms()
    for t in terms:
        if not forms[t]:  # a verb the paper never writes, by a synonym it writes
            forms[t] = set(same_sense.get(t, frozenset()) & vocabulary)
    return forms


def names_in(text: str) -> list[str]:
    """The names a sentence writes (lower case), placeholders aside."""
    return [
        w.lower()
        for w in _WORD.findall(text)
        if _NAME.match(w) and not _PLACEHOLDER.match(w) and not w[1:].islower()
    ]


def _names_another(claim: Claim, top: list[Sentence]) -> bool:
    """One of the sentences names something that is neither the excluded thing (nor a
    variant of it: "WMT14" for "WMT") nor a word of the question."""
    asked = set(claim.words)
    for s in top:
        for name in names_in(s.text):
            parts = name.split("-")
            same = any(p.startswith(x) for p in parts for x in claim.excluded)
            if not same and not set(parts) & asked:
                return True
    return False


def _widened(claim: Claim, top: list[Sentence], stated: bool) -> float:
    """1.0 when the claim reaches past what the paper states (see the module's docstring);
    `stated`: a sentence of the paper's body writes every word of the claim."""
    if claim.excluded:
        return 0.0 if _names_another(claim, top) else 1.0
    return 1.0 if claim.negative_polarity and not stated else 0.0
