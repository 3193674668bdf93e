"""Plan: a topic -> 4-8 sub-questions, each with query variants and a facet.

With no model, sub-questions come from the topic's key phrases and facet templates
(methods, datasets, metrics, results, limitations, applications); query variants add
synonyms and related terms from a small vocabulary. Pure functions of the topic.
"""

from __future__ import annotations

import re

from citewise.agent.research.model import FACETS, Plan, SubQuestion
from citewise.retrieval.terms import STOPWORDS, content_terms

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
        "What is {focus} used for, and where is it applied?",
        ("application", "applied", "enables", "support", "tool", "service", "practice"),
    ),
}

# Related terms that make a query variant find papers that use other words.
RELATED: dict[str, tuple[str, ...]] = {
    "corpus": ("corpora", "dataset", "collection"),
    "corpora": ("corpus", "datasets"),
    "dataset": ("corpus", "data set", "benchmark"),
    "graph": ("network", "links"),
    "graphs": ("networks", "links"),
    "citation": ("reference", "bibliography"),
    "citations": ("references", "bibliography"),
    "paper": ("article", "publication"),
    "papers": ("articles", "publications"),
    "literature": ("papers", "publications"),
    "scholarly": ("scientific", "academic"),
    "scientific": ("scholarly", "academic"),
    "extraction": ("parsing", "mining"),
    "parsing": ("extraction",),
    "evaluation": ("assessment", "benchmark"),
    "method": ("approach", "technique"),
    "model": ("models", "modeling"),
    "patients": ("participants", "subjects"),
    "patient": ("participant",),
    "treatment": ("therapy", "intervention"),
    "prophylaxis": ("prevention",),
    "complications": ("adverse events", "risks"),
    "review": ("survey", "meta-analysis"),
    "quality": ("accuracy", "performance"),
    "analysis": ("analyses", "modeling"),
    "healthcare": ("health care", "clinical"),
    "language": ("text", "linguistic"),
    "search": ("retrieval",),
}

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


def related_terms(terms: list[str]) -> list[str]:
    """Synonyms and related words of the terms, not already among them."""
    found = [r for t in terms for r in RELATED.get(t, ())]
    return [r for r in dict.fromkeys(found) if r not in terms]


def make_plan(topic: str) -> Plan:
    """Sub-questions for every facet, plus one per further key phrase (4-8 in all)."""
    topic = " ".join(topic.split()).strip(" .?")
    phrases = key_phrases(topic) or [topic]
    topic_terms = content_terms(topic)
    related = related_terms(topic_terms)
    main = phrases[0]
    # A long topic reads badly inside every question; its main phrase carries it there
    # (the queries still use the whole topic).
    focus = topic if len(topic_terms) <= LONG_TOPIC_TERMS else main
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
                text=template.format(focus=focus),
                facet=facet,
                queries=list(dict.fromkeys(queries)),
                terms=list(dict.fromkeys(topic_terms + list(cues))),
            )
        )
    for phrase in phrases[1 : 1 + MAX_TOPIC_QUESTIONS]:
        terms = content_terms(phrase)
        if len(phrases) < 2 or set(terms) <= set(content_terms(main)):
            continue
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
