"""What a paper's sentences say about a claim, as the few numbers the yes/no model reads.

Each claim term weighs its inverse document frequency in the library (a word the library
never writes weighs nothing: no sentence could tell anything by it), and a sentence writes a
term when it writes the term's stem or a stem that begins it or that it begins, five letters
or more ("comparison" for "compare", "crowd-annotated" for "crowdsource").

- body_cover: the best sentence of the paper's body (methods, experiments, results) by its
  share of the claim's weight. The question may be written from the abstract, which then
  holds its words whatever the answer; the body reports what was done;
- absent: the share of the claim's weight the paper never writes (though the library does):
  where the question names this, the paper names something else, or nothing;
- negated: of the paper's sentences that cover the claim best, the share in which a
  negation or a contrast ("not", "without", "instead of", "rather than", "only") stands in
  a clause with a word of the claim;
- widened: the claim reaches past what one sentence states. It asks for something besides
  a named thing ("other than X") and the sentences that cover it best name nothing but X
  (a name: "RoBERTa", "WMT14"; "WMT14" counts as "WMT"), or, asking for nothing besides, it
  is quantified ("any", "ever", "consistently").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import astuple, dataclass, fields

from citewise.agent.yesno.claim import Claim
from citewise.agent.yesno.cues import cues, find_phrase
from citewise.agent.yesno.paper import Sentence
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
# words that end a clause: a negation's reach stops there
_CLAUSE_ENDS = frozenset(", ; : ( ) ? but while whereas although though however".split())


@dataclass(frozen=True)
class Features:
    body_cover: float
    absent: float
    negated: float
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
    claimed = frozenset(terms)
    found = Features(
        body_cover=round(max((c for c, _, s in scored if s.body), default=0.0), 4),
        absent=round(sum(w for t, w in terms.items() if t not in written) / total, 4)
        if total
        else 0.0,
        negated=round(sum(_negated(s, claimed) for s in top) / len(top), 4) if top else 0.0,
        widened=_widened(claim, top),
    )
    return Reading(found, top, claim.stems - written)


def _forms(terms: frozenset[str], vocabulary: set[str]) -> dict[str, set[str]]:
    """Each claim term's stems in the paper: its own, and those of PREFIX letters or more
    that begin it or that it begins ("compar" and "comparison", "crowdsourc" and "crowd")."""
    forms = {t: {t} & vocabulary for t in terms}
    for t in terms:
        if len(t) >= PREFIX:
            forms[t] |= {
                v for v in vocabulary if len(v) >= PREFIX and (v.startswith(t) or t.startswith(v))
            }
    return forms


def _negated(s: Sentence, claim: frozenset[str]) -> bool:
    """A negation or a contrast in the clause of a claim word (before or after it)."""
    lists = cues()
    words = list(s.words)
    spans = find_phrase(words, lists.phrases("negations") + lists.phrases("contrasts"))
    spans += [(i, i + 1) for i, w in enumerate(words) if w.endswith(("n't", "n’t"))]
    for start, end in spans:
        left = start
        while left > 0 and words[left - 1] not in _CLAUSE_ENDS:
            left -= 1
        right = end
        while right < len(words) and words[right] not in _CLAUSE_ENDS:
            right += 1
        if {stem(w) for w in words[left:start] + words[end:right]} & claim:
            return True
    return False


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


def _widened(claim: Claim, top: list[Sentence]) -> float:
    if claim.excluded:
        return 0.0 if _names_another(claim, top) else 1.0
    return 1.0 if claim.quantified else 0.0
