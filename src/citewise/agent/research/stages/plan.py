"""Plan: a topic -> 4-8 sub-questions, each with query variants and a facet.

With no model, sub-questions come from the topic's key phrases and facet templates
(methods, datasets, metrics, results, limitations, applications); query variants add
synonyms and related terms from a small vocabulary (data/related_terms.txt). Pure functions of
the topic.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from citewise.agent.research.model import FACETS, Plan, SubQuestion
from citewise.agent.research.reading.vocabulary import related_words
from citewise.retrieval.terms import STOPWORDS, content_terms, stem

MAX_TOPIC_QUESTIONS = 2
LONG_TOPIC_TERMS = 6

# Question template and the words that signal an answer to it, per facet.
FACET_TEMPLATES: dict[str, tuple[str, tuple[str, ...]]] = {
    "methods": (
        "Which methods and approaches are used for {focus}?",
        ("method", "approach", "algorithm", "model", "pipeline", "technique", "procedure"),
    ),
    "datasets": (
        "Which datasets, corpora or study populations does work on {focus} draw on?",
        ("dataset", "corpus", "data", "collection", "sample", "participants", "papers"),
    ),
    "metrics": (
        "How is {focus} evaluated, and with which metrics?",
        ("evaluation", "metric", "accuracy", "precision", "recall", "f1", "measure"),
    ),
    "results": (
        "What are the key quantitative results reported on {focus}?",
        ("results", "achieves", "outperforms", "improves", "significant", "table"),
    ),
    "limitations": (
        "What limitations and open problems of {focus} do the sources report?",
        ("limitation", "challenge", "future", "error", "difficult", "however", "bias"),
    ),
    "applications": (
        "What is {focus} used for, and in which applications?",
        ("application", "applied", "enables", "support", "tool", "service", "practice"),
    ),
}

FAMILY_STEM = 6  # stems at least this long that extend each other name one word family
MAX_FACET_WORDS = 4  # a longer run of content words is no single noun phrase
PLURAL_NOUNS = frozenset({"corpora", "data", "criteria", "phenomena"})
_SPLIT = re.compile(r"[,;:()\[\]?!/]|\s+-\s+|\s+(?:and|or|vs\.?|versus)\s+", re.IGNORECASE)


def key_phrases(topic: str) -> list[str]:
    """Runs of content words between stopwords and punctuation, longest first."""
    phrases: list[str] = []
    for chunk in _SPLIT.split(topic):
        run: list[str] = []
        for word in chunk.split() + [""]:
            bare = word.strip(".'\"").lower()
            if bare and bare not in STOPWORDS and re.search(r"\w", bare):
                run.append(word.strip(".'\""))
            elif run:
                phrases.append(" ".join(run))
                run = []
    unique = list(dict.fromkeys(p for p in phrases if content_terms(p)))
    return sorted(unique, key=lambda p: -len(content_terms(p)))


@lru_cache(maxsize=1)
def topic_verbs() -> dict[str, str]:
    """Verbs that open a topic's phrase (base and -ing form) -> their -ing form
    (data/topic_verbs.txt)."""
    text = resources.files("citewise.agent.research").joinpath("data", "topic_verbs.txt")
    verbs: dict[str, str] = {}
    for line in text.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            base, ing = line.split()
            verbs[base] = verbs[ing] = ing
    return verbs


def noun_phrase(phrase: str) -> str:
    """The phrase without the verb that opens it: "build large corpora" -> "large corpora"."""
    words = phrase.split()
    if len(words) > 1 and words[0].lower() in topic_verbs():
        return " ".join(words[1:])
    return phrase if words and words[0].lower() not in topic_verbs() else ""


def as_focus(phrase: str) -> str:
    """The phrase as a question's object: an opening verb in its -ing form
    ("used for building large corpora", not "used for build large corpora")."""
    words = phrase.split()
    if words and words[0].lower() in topic_verbs():
        words[0] = topic_verbs()[words[0].lower()]
    return " ".join(words)


def agree(template: str, focus: str) -> str:
    """The template filled with `focus`, its "is" agreeing with a plural noun phrase
    ("How are hate speech datasets evaluated"); a phrase opening with a verb is singular."""
    words = focus.split()
    last = words[-1].lower() if words else ""
    plural = (
        len(words) > 0
        and words[0].lower() not in topic_verbs()
        and (last in PLURAL_NOUNS or (last.endswith("s") and not last.endswith(("ss", "us", "is"))))
    )
    text = template.format(focus=focus)
    if plural:
        text = re.sub(r"^(How|What) is ", r"\1 are ", text)
    return text


def topic_facets(phrases: list[str]) -> list[str]:
    """The topic's facets: the noun phrases of its key phrases, in the topic's words."""
    found: list[str] = []
    for phrase in phrases:
        words = noun_phrase(phrase).split()
        if len(words) <= MAX_FACET_WORDS:
            found.append(" ".join(words))
        else:  # a run of words with no phrase breaks (a translated topic): adjacent pairs
            found += [" ".join(words[i : i + 2]) for i in range(len(words) - 1)]
    return list(dict.fromkeys(f for f in found if content_terms(f)))


def related_terms(terms: list[str]) -> list[str]:
    """Synonyms and related words of the terms (data/related_terms.txt), not already among
    them."""
    found = [r for t in terms for r in related_words(t)]
    return [r for r in dict.fromkeys(found) if r not in terms]


def _same_family(a: str, b: str) -> bool:
    # one stem extends the other, both long enough to mean something ("predict", "prediction")
    return min(len(a), len(b)) >= FAMILY_STEM and (a.startswith(b) or b.startswith(a))


def names_word(word: str, stems: set[str]) -> bool:
    """Whether a text's content stems name a topic word, itself (or a word of its family:
    "prediction" and "predicts") or a synonym of it."""
    own = stem(word)
    if own in stems or any(_same_family(own, s) for s in stems):
        return True
    return any(all(stem(w) in stems for w in content_terms(r)) for r in related_terms([word]))


def make_plan(topic: str) -> Plan:
    """Sub-questions for every facet, plus one per further key phrase (4-8 in all)."""
    topic = " ".join(topic.split()).strip(" .?")
    phrases = key_phrases(topic) or [topic]
    topic_terms = content_terms(topic)
    related = related_terms(topic_terms)
    main = phrases[0]
    # A long topic reads badly inside every question; its main phrase carries it there
    # (the queries still use the whole topic).
    focus = as_focus(topic if len(topic_terms) <= LONG_TOPIC_TERMS else main)
    questions: list[SubQuestion] = []
    for facet in FACETS:
        template, cues = FACET_TEMPLATES[facet]
        queries = [
            f"{topic} {' '.join(cues[:3])}",
            f"{main} {' '.join(cues[3:])}",
        ]
        if related:
            queries.append(f"{' '.join(related[:4])} {cues[0]}")
        questions.append(
            SubQuestion(
                id=f"q{len(questions) + 1}",
                text=agree(template, focus),
                facet=facet,
                queries=list(dict.fromkeys(queries)),
                terms=list(dict.fromkeys(topic_terms + list(cues))),
            )
        )
    for phrase in phrases[1 : 1 + MAX_TOPIC_QUESTIONS]:
        terms = content_terms(phrase)
        if len(phrases) < 2 or set(terms) <= set(content_terms(main)):
            continue
        phrase = as_focus(phrase)
        variants = [phrase, f"{phrase} {' '.join(related_terms(terms)[:3])}".strip()]
        questions.append(
            SubQuestion(
                id=f"q{len(questions) + 1}",
                text=f"What do the sources report about {phrase}?",
                facet="topic",
                queries=list(dict.fromkeys(variants)),
                terms=terms,
            )
        )
    return Plan(topic=topic, key_phrases=phrases, topic_terms=topic_terms, sub_questions=questions)
