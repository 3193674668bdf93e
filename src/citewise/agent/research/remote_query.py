"""What research sends to remote databases (pure): per sub-question, its variants' topical
words as "quoted phrases" and terms the sources translate into their own boolean syntax,
never the facet cue words ("method", "approach", "algorithm") that retrieve well in a local
library and AND remote searches down to nothing. A round that finds too little broadens:
drop the rarest term, then the synonyms of the terms as alternatives (separate queries whose
results merge: an OR every source can run)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from citewise.agent.research.model import Plan, SubQuestion
from citewise.agent.research.reading.vocabulary import related_words
from citewise.agent.research.stages.plan import FACET_TEMPLATES, related_terms
from citewise.retrieval.terms import content_terms, stem

# Words that say what kind of answer is wanted, not what the topic is.
GENERIC = frozenset(
    {cue for _, cues in FACET_TEMPLATES.values() for cue in cues}
    | {"methods", "approaches", "algorithms", "models", "techniques", "study", "studies"}
    | {"use", "used", "using", "based", "new", "novel", "work", "paper", "report", "sources"}
    | {"set", "corpora", "population", "populations", "question", "questions", "open", "problems"}
)
_GENERIC_STEMS = frozenset(stem(w) for w in GENERIC)
# A gap round adds at most this many words of its own to the topic.
GAP_WORDS = 2
# Fewer records than this after a query: broaden.
ENOUGH = 3
MAX_BROADER = 3


def topical(words: list[str]) -> list[str]:
    """The words that name the topic (generic cue words dropped), in order, once each."""
    return [w for w in dict.fromkeys(words) if w not in GENERIC and stem(w) not in _GENERIC_STEMS]


def remote_query(plan: Plan, variants: list[str], question: SubQuestion | None, round_: int) -> str:
    """One query string for the sources (`"phrase" term term`): the topic's main key phrase,
    quoted when it has several words, then the sub-question's other topical words. A facet
    question's first-round variants add only cue words and synonyms, so it adds nothing; a
    topic question adds its phrase; a gap round's variants add their topical words."""
    main = plan.key_phrases[0] if plan.key_phrases else plan.topic
    main_terms = topical(content_terms(main))
    if round_ > 1 or question is None:
        # The gap's own words, not the synonyms the local variants add.
        synonyms = set(related_terms(plan.topic_terms))
        gap = [w for v in variants for w in content_terms(v) if w not in synonyms]
        main_stems = {stem(w) for w in main_terms}
        allowed = set([w for w in topical(gap) if stem(w) not in main_stems][:GAP_WORDS])
    elif question.facet == "topic":
        allowed = set(content_terms(variants[0])) if variants else set()
    else:
        allowed = set(plan.topic_terms)
    words = [w for v in variants for w in content_terms(v)]
    main_stems = {stem(w) for w in main_terms}
    extra = [w for w in topical(words) if stem(w) not in main_stems and w in allowed]
    if question is not None and question.facet == "topic" and round_ == 1 and len(extra) > 1:
        extra = [_phrase(extra)]  # the sub-question's own key phrase stays a phrase
    return " ".join([_phrase(main_terms), *extra]).strip()


def _phrase(words: list[str]) -> str:
    return f'"{" ".join(words)}"' if len(words) > 1 else " ".join(words)


def broader(query: str, rarity: Callable[[str], float] | None = None) -> list[tuple[str, str]]:
    """Broader queries than `query`, each with what was changed: the rarest term dropped
    (the quoted phrase loosened to words first), then each term's synonyms in its place."""
    rarity = rarity or (lambda w: float(len(w)))
    words = content_terms(query.replace('"', " "))
    out: list[tuple[str, str]] = []
    if '"' in query:
        out.append((" ".join(words), "phrase loosened to words"))
    if len(words) > 1:
        rarest = max(words, key=lambda w: (rarity(w), w))
        out.append(
            (" ".join(w for w in words if w != rarest), f"dropped the rarest term '{rarest}'")
        )
    for word in words:
        for synonym in [r for r in related_words(word) if r not in words][:2]:
            replaced = " ".join(synonym if w == word else w for w in words)
            out.append((replaced, f"'{word}' OR '{synonym}'"))
    seen = {query}
    unique = []
    for text, why in out:
        if text and text not in seen:
            seen.add(text)
            unique.append((text, why))
    return unique[:MAX_BROADER]


Search = Callable[[str], tuple[list[Any], list[str]]]


@dataclass
class RemoteFound:
    """Records per sub-question, the sources' warnings, and every query sent with why."""

    records: dict[str, list[Any]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)


def search_remote(
    plan: Plan,
    queries: dict[str, list[str]],
    round_: int,
    search: Search,
    rarity: Callable[[str], float] | None = None,
) -> RemoteFound:
    """Each sub-question's remote query, broadened while it finds fewer than ENOUGH records;
    a query two sub-questions share runs once."""
    questions = {q.id: q for q in plan.sub_questions}
    done: dict[str, list[Any]] = {}
    found = RemoteFound()

    def run(text: str, sq_id: str, why: str) -> list[Any]:
        shared = text in done
        if not shared:
            records, warnings = search(text)
            done[text] = records
            found.warnings += [w for w in warnings if w not in found.warnings]
        entry = {"sub_question": sq_id, "query": text, "why": why, "records": len(done[text])}
        found.log.append({**entry, "shared": shared})
        return done[text]

    for sq_id, variants in queries.items():
        query = remote_query(plan, variants, questions.get(sq_id), round_)
        records = list(run(query, sq_id, "the sub-question's topical words"))
        for text, why in broader(query, rarity) if len(records) < ENOUGH else []:
            keys = {getattr(r, "key", id(r)) for r in records}
            records += [
                r
                for r in run(text, sq_id, f"broadened: {why}")
                if getattr(r, "key", id(r)) not in keys
            ]
            if len(records) >= ENOUGH:
                break
        found.records[sq_id] = records
    return found
