"""A Chinese word's sense chosen in its question's context (issue 19).

CC-CEDICT lists a word's senses in no order that fits a given paper: 机构 is "mechanism,
structure, organization, agency, institution", 回收 "recycle, reclaim, retrieve, recover".
lang/zh.py ranks the senses by how much the library uses each; here the question's other
words decide first: the sense the library writes in the same blocks as the question's names
and unambiguous terms is the one meant ("IVC filter" blocks write "retrieval", not
"recycle"). A sense the library writes only in another form ("communicate" where the papers
write "communication") is read in that form.
"""

from __future__ import annotations

from collections.abc import Sequence

from citewise.lang.zh import Frequencies, _by_use, _composed, dictionary, is_verb
from citewise.lang.zh_words import GLOSSARY
from citewise.retrieval.terms import content_terms

# English verb <-> noun forms by ending (the library's text decides which one it writes).
_VERB_FORMS = (
    ("ate", ("ation", "ated", "ating")),
    ("ify", ("ification", "ified")),
    ("ize", ("ization", "ized")),
    ("ise", ("isation", "ised")),
    ("e", ("ed", "al", "ion", "ing")),
    ("", ("ed", "ing", "ment", "ion", "s")),
)
# A verb sense written beside at least this share of the question's other words (and two
# of them) is the paper's verb: a term of the question, not only a search aid.
VERB_CONTEXT = 0.5


def _derivations(sense: str) -> list[str]:
    if " " in sense or not sense.isalpha() or len(sense) < 4:
        return [sense]
    candidates = [
        sense[: len(sense) - len(end)] + other
        for end, others in _VERB_FORMS
        if sense.endswith(end)
        for other in others
    ]
    return [sense, *(c for c in dict.fromkeys(candidates) if c != sense and len(c) >= 4)]


def forms(sense: str, frequencies: Frequencies) -> str:
    """A verb's sense as the library writes it most: itself or a derivation ("retrieve"
    -> "retrieval", "communicate" -> "communication"); one-word senses only."""
    candidates = _derivations(sense)
    if len(candidates) == 1:
        return sense
    counts = frequencies(candidates)
    best = max(candidates, key=lambda c: (counts.get(c, 0), c == sense))
    return best if counts.get(best, 0) > 0 else sense


def inflections(senses: Sequence[str], chosen: str, frequencies: Frequencies) -> list[str]:
    """The other forms the library writes of the verb sense `chosen` stands for: a Chinese
    verb has no tense, so "approve", "approved" and "approval" all answer to 批准."""
    for sense in senses:
        candidates = _derivations(sense)
        if chosen in candidates and len(candidates) > 1:
            counts = frequencies(candidates)
            return [c for c in candidates if c != chosen and counts.get(c, 0) > 0]
    return []


Context = Sequence[tuple[str, ...]]  # per other word of the question: the senses it may mean


def context_scores(
    senses: Sequence[str], frequencies: Frequencies, context: Context
) -> dict[str, tuple[float, float]]:
    """Per sense: (the share of the question's other words it is written beside, in at
    least one block; the summed share of each such word's blocks that also hold it)."""
    groups = [tuple(a for a in g if content_terms(a)) for g in context]
    anchors = list(dict.fromkeys(a for g in groups for a in g))
    if not anchors or not senses:
        return dict.fromkeys(senses, (0.0, 0.0))
    alone = frequencies(anchors)
    groups = [g for g in (tuple(a for a in g if alone.get(a, 0) > 0) for g in groups) if g]
    pairs = {(s, a): f"{s} {a}" for s in senses for g in groups for a in g}
    together = frequencies(list(dict.fromkeys(pairs.values())))
    scores: dict[str, tuple[float, float]] = {}
    for sense in senses:
        shares = [max(together.get(pairs[sense, a], 0) / alone[a] for a in g) for g in groups]
        beside = sum(1 for share in shares if share > 0)
        scores[sense] = (beside / len(groups) if groups else 0.0, sum(shares))
    return scores


def choose_in_context(
    senses: tuple[str, ...],
    frequencies: Frequencies | None,
    context: Context,
    verb: bool = False,
    ordered: bool = False,
) -> tuple[str, list[str], float]:
    """(the sense meant here, the other senses the library uses, the share of the
    question's other words the chosen sense is written beside): the sense written with
    the question's other words first, then the library's most used; each in the form the
    library writes it (a verb's, `verb`, in its noun or participle form too). Senses
    `ordered` by preference (the glossary's) keep their order among those written in
    context. A phrasal sense ("link up") is counted by its head alone, so it comes last."""
    if frequencies is None:
        return senses[0], list(senses[1:2]), 0.0
    written = list(dict.fromkeys(forms(s, frequencies) if verb else s for s in senses))
    used = _by_use(tuple(written), frequencies)
    if not used:
        return written[0], [], 0.0
    scores = context_scores(used, frequencies, context)
    fitting = [s for s in used if scores[s][1] > 0]
    plain = [s for s in fitting if len(content_terms(s)) == len(s.split())] or fitting
    if ordered and plain:
        best = min(plain, key=written.index)
    elif plain:
        best = max(plain, key=lambda s: (round(scores[s][1], 3), -used.index(s)))
    else:
        best = used[0]
    return best, [s for s in used if s != best], scores[best][0]


def composed_in_context(word: str, frequencies: Frequencies, context: Context) -> tuple[str, ...]:
    """A word the dictionary lacks ("沟通模式"), read as its known parts, each part in the
    sense its context chooses ("communication" for 沟通 where the papers write it)."""
    table = dictionary()
    return _composed(
        word,
        lambda part: choose_in_context(
            table[part], frequencies, context, is_verb(part), part in GLOSSARY
        )[0],
    )
