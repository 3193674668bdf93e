"""Write: evidence -> report sections, every sentence carrying the evidence IDs behind it.

With the extractive backend a claim is a verbatim quote; the few sentences code composes
(disagreements) restate numbers and names from the quotes they cite. Pure functions.
"""

from __future__ import annotations

from typing import Any

from citewise.agent.research.model import (
    Claim,
    CoverageRow,
    Disagreement,
    EvidenceItem,
    Paper,
    Paragraph,
    Plan,
    Report,
    ScreeningDecision,
    Section,
)
from citewise.retrieval.terms import STOPWORDS, content_terms, stem, tokens

PAPERS_PER_SECTION = 5
CLAIMS_PER_PAPER = 3
THEMES = 3
PAPERS_PER_THEME = 3
OPEN_PROBLEMS = 6
# Connectives that open sentences in every paper: never a theme the papers share.
CONNECTIVES = frozenset(
    """although however thus therefore moreover furthermore whereas while hence indeed also
    additionally finally first second third overall instead""".split()
)


def _theme_word(word: str) -> bool:
    """A word that can name a theme: not a number, a connective, an adverb or a verb form
    ("including", "proposed", "largely" open sentences in every field)."""
    return (
        len(word) > 3
        and word.isalpha()
        and word not in CONNECTIVES
        and not word.endswith(("ing", "ed", "ly"))
    )


def theme_terms(quote: str, topic: set[str]) -> dict[str, str]:
    """Stemmed theme keys in `quote` -> their surface form: adjacent pairs of content words
    ("training data") and single theme words, leaving out the topic's own words."""
    words = tokens(quote)
    found: dict[str, str] = {}
    for first, second in zip(words, words[1:], strict=False):
        if first in STOPWORDS or second in STOPWORDS:
            continue
        # a gerund may modify a noun ("training data"), unless it works as a preposition
        modifier = _theme_word(first) or (
            first.endswith("ing") and len(first) > 5 and first not in PREPOSITION_LIKE
        )
        if modifier and _theme_word(second):
            pair = (stem(first), stem(second))
            if not set(pair) <= topic:
                found.setdefault(" ".join(pair), f"{first} {second}")
    for word in content_terms(quote):
        if _theme_word(word) and stem(word) not in topic:
            found.setdefault(stem(word), word)
    return found


PREPOSITION_LIKE = frozenset("including following regarding concerning during".split())
FIELD_KINDS = ("contribution", "method", "setup", "result", "limitation", "application")
FACET_LABELS = {
    "methods": "Methods",
    "datasets": "Datasets",
    "metrics": "Evaluation",
    "results": "Results",
    "limitations": "Limitations",
    "applications": "Applications",
    "topic": "Topic",
}
NO_DISAGREEMENT = (
    "No disagreement was found among the extracted evidence: no two papers report materially "
    "different values for the same metric on the same subject, nor opposite claims about the "
    "same effect."
)


def short_cite(csl: dict[str, Any]) -> str:
    """ "Lo et al. (2020)" from a CSL item; the title when it names no author."""
    authors = csl.get("author") or []
    year = ((csl.get("issued") or {}).get("date-parts") or [[None]])[0][0]
    if not authors:
        name = str(csl.get("title") or csl.get("id"))
        name = name if len(name) < 60 else name[:57] + "…"
    else:
        first = authors[0].get("family") or authors[0].get("literal") or "Anonymous"
        if len(authors) == 1:
            name = first
        elif len(authors) == 2:
            name = f"{first} and {authors[1].get('family', '')}"
        else:
            name = f"{first} et al."
    return f"{name} ({year})" if year else name


def _rank(item: EvidenceItem) -> tuple[int, float, str, str, str]:
    # Field evidence (cue-matched) before retrieved passages, stronger first; ties broken by
    # what the evidence is, not by its task-scoped ID, so a rerun writes the same report.
    return (
        0 if item.kind in FIELD_KINDS else 1,
        -item.score,
        item.paper,
        item.block_id or "",
        item.quote,
    )


def _claim(item: EvidenceItem) -> Claim:
    return Claim(item.quote, [item.id])


class _Writer:
    def __init__(
        self,
        plan: Plan,
        evidence: list[EvidenceItem],
        papers: dict[str, Paper],
        order: list[str],
    ) -> None:
        self.plan = plan
        self.evidence = sorted(evidence, key=_rank)
        self.papers = papers
        self.order = {key: n for n, key in enumerate(order)}  # screening rank of each paper

    def cite(self, key: str) -> str:
        paper = self.papers.get(key)
        return short_cite(paper.csl) if paper else key

    def by_question(self, qid: str) -> list[EvidenceItem]:
        return [e for e in self.evidence if e.sub_question == qid]

    def summary(self) -> Section:
        section = Section("summary", "Executive summary")
        used: set[str] = set()
        for question in self.plan.sub_questions:
            best = next((e for e in self.by_question(question.id) if e.quote not in used), None)
            if best:
                used.add(best.quote)
                label = FACET_LABELS.get(question.facet, "Topic")
                if question.facet == "topic":
                    label = question.text.removeprefix("What do the sources report about ")
                    label = label.rstrip("?").capitalize()
                section.paragraphs.append(Paragraph([_claim(best)], lead=label))
        if not section.paragraphs:
            note = "No screened source in the library answers any sub-question on this topic."
            section.paragraphs.append(Paragraph([_note(note)]))
        return section

    def background(self) -> Section:
        section = Section("background", "Background")
        for key in sorted(self.papers, key=lambda k: self.order.get(k, 1_000_000)):
            items = [e for e in self.evidence if e.paper == key and e.kind == "contribution"]
            if items:
                section.paragraphs.append(Paragraph([_claim(items[0])], lead=self.cite(key)))
        return section

    def question(self, index: int) -> Section:
        question = self.plan.sub_questions[index]
        section = Section(question.id, question.text)
        grouped: dict[str, list[EvidenceItem]] = {}
        for item in self.by_question(question.id):
            quotes = [e.quote for e in grouped.get(item.paper, [])]
            if item.quote not in quotes and len(quotes) < CLAIMS_PER_PAPER:
                grouped.setdefault(item.paper, []).append(item)
        papers = sorted(grouped, key=lambda k: (self.order.get(k, 1_000_000), k))
        for key in papers[:PAPERS_PER_SECTION]:
            claims = [_claim(e) for e in grouped[key]]
            section.paragraphs.append(Paragraph(claims, lead=self.cite(key)))
        if not section.paragraphs:
            note = "No screened source answers this sub-question (see Open problems)."
            section.paragraphs.append(Paragraph([_note(note)]))
        return section

    def discussion(self) -> Section:
        """Themes that evidence from several papers shares, with a quote from each: two-word
        phrases first ("training data"), then single words that name things."""
        section = Section("discussion", "Cross-cutting discussion")
        topic = {stem(t) for t in self.plan.topic_terms}
        themed = [(item, theme_terms(item.quote, topic)) for item in self.evidence]
        by_paper: dict[str, set[str]] = {}
        surface: dict[str, str] = {}
        for item, found in themed:
            by_paper.setdefault(item.paper, set()).update(found)
            for key, word in found.items():
                surface.setdefault(key, word)
        counts: dict[str, int] = {}
        for keys in by_paper.values():
            for key in keys:
                counts[key] = counts.get(key, 0) + 1
        themes = sorted(
            (k for k, n in counts.items() if n >= 2),
            key=lambda k: (-counts[k], " " not in k, k),  # more papers, then phrases first
        )
        used: set[str] = set()
        for theme in themes:
            claims: list[Claim] = []
            seen_papers: set[str] = set()
            for item, found in themed:
                if item.paper in seen_papers or item.quote in used:
                    continue
                if theme in found:
                    claims.append(_claim(item))
                    seen_papers.add(item.paper)
                    used.add(item.quote)
                if len(claims) == PAPERS_PER_THEME:
                    break
            if len(claims) >= 2:
                lead = surface[theme]
                section.paragraphs.append(Paragraph(claims, lead=lead[0].upper() + lead[1:]))
            if len(section.paragraphs) == THEMES:
                break
        if not section.paragraphs:
            note = "The included papers share no theme beyond the topic itself."
            section.paragraphs.append(Paragraph([_note(note)]))
        return section

    def disagreements(self, found: list[Disagreement]) -> Section:
        section = Section("disagreements", "Where the sources disagree")
        items = {e.id: e for e in self.evidence}
        for d in found:
            if d.evidence[0] not in items or d.evidence[1] not in items:
                continue
            first, second = items[d.evidence[0]], items[d.evidence[1]]
            a, b = self.cite(first.paper), self.cite(second.paper)
            if a == b:  # same authors and year: tell the papers apart by title
                a, b = f"{a}, “{first.title}”,", f"{b}, “{second.title}”,"
            ids = list(d.evidence)
            if d.kind == "numbers":
                lead = f"{d.topic}"
                text = f"{a} report {d.values[0]}, whereas {b} report {d.values[1]}."
            else:
                lead = f"Effect: {d.topic}"
                text = f"{a} report an effect, whereas {b} report none."
            claims = [Claim(text, ids), _claim(first), _claim(second)]
            why = (
                f"Likely reason: {d.reason}."
                if d.reason
                else ("The quoted evidence does not show why they differ.")
            )
            claims.append(Claim(why, ids))
            section.paragraphs.append(Paragraph(claims, lead=lead))
        if not section.paragraphs:
            section.paragraphs.append(Paragraph([_note(NO_DISAGREEMENT)]))
        return section

    def open_problems(self, coverage: dict[str, dict[str, int]]) -> Section:
        section = Section("open", "Open problems")
        seen: set[str] = set()
        claims: list[Claim] = []
        for item in self.evidence:
            if item.kind == "limitation" and item.paper not in seen:
                seen.add(item.paper)
                claims.append(_claim(item))
            if len(claims) == OPEN_PROBLEMS:
                break
        if claims:
            section.paragraphs.append(Paragraph(claims))
        # Gaps in the evidence base, as coverage notes: statements about what the screened
        # evidence lacks, so they cite nothing (the appendix's coverage table has the counts).
        papers = {q.id: coverage.get(q.id, {}).get("papers", 0) for q in self.plan.sub_questions}
        numbered = list(enumerate(self.plan.sub_questions, start=1))
        unanswered = [f"Q{n}" for n, q in numbered if not self.by_question(q.id)]
        thin = [f"Q{n}" for n, q in numbered if papers[q.id] == 1]
        notes = []
        if unanswered:
            notes.append(f"No screened source answers {_listed(unanswered)}.")
        if thin:
            each = "" if len(thin) == 1 else " each"
            notes.append(f"The evidence on {_listed(thin)} rests on a single paper{each}.")
        if notes:
            section.paragraphs += [Paragraph([_note(n)]) for n in notes]
        return section


def _note(text: str) -> Claim:
    """A coverage note: what the evidence does not hold. It cites nothing, so it is not a
    claim; reports label it and count it apart from claim sentences."""
    return Claim(text, [], flag="note")


def _listed(labels: list[str]) -> str:
    return ", ".join(labels[:-1]) + (" and " if len(labels) > 1 else "") + labels[-1]


def write_report(
    plan: Plan,
    evidence: list[EvidenceItem],
    papers: list[Paper],
    screening: list[ScreeningDecision],
    disagreements: list[Disagreement],
    coverage: dict[str, dict[str, int]],
) -> Report:
    """Executive summary, background, one section per sub-question, discussion,
    disagreements, open problems; references are the CSL items of the papers cited."""
    included = [d.key for d in sorted(screening, key=lambda d: -d.score) if d.included]
    by_key = {p.key: p for p in papers}
    writer = _Writer(plan, evidence, by_key, included)
    sections = [writer.summary(), writer.background()]
    sections += [writer.question(i) for i in range(len(plan.sub_questions))]
    sections += [
        writer.discussion(),
        writer.disagreements(disagreements),
        writer.open_problems(coverage),
    ]
    papers_of = {e.id: e.paper for e in evidence}
    cited: list[str] = []
    for section in sections:
        for claim in section.claims():
            for eid in claim.evidence:
                key = papers_of.get(eid)
                if key and key not in cited:
                    cited.append(key)
    references = [by_key[k].csl for k in cited if k in by_key]
    table = [
        CoverageRow(
            q.id,
            q.text,
            coverage.get(q.id, {}).get("evidence", 0),
            coverage.get(q.id, {}).get("papers", 0),
        )
        for q in plan.sub_questions
    ]
    return Report(
        plan.topic, sections, references, disagreements, screening=screening, coverage=table
    )
