"""Write: evidence -> report sections, every sentence carrying the evidence IDs behind it.

With the extractive backend a claim is a verbatim quote; the few sentences code composes
(disagreements) restate numbers and names from the quotes they cite. Pure functions.
"""

from __future__ import annotations

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
from citewise.agent.research.reading.claims import states_limitation
from citewise.agent.research.reading.cluster import claim_stems, cluster_claims
from citewise.agent.research.reading.themes import names_thing, theme_terms
from citewise.agent.research.reading.voice import attribution, listed, short_cite
from citewise.agent.research.stages.plan import names_word, topic_facets
from citewise.retrieval.terms import content_terms, stem

PAPERS_PER_SECTION = 5
SPEAKER_TITLE_WORDS = 6  # a paper without authors is named by its title's first words
CLAIMS_PER_PAPER = 3
THEMES = 3
PAPERS_PER_THEME = 3
OPEN_PROBLEMS = 6
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


def _key(quote: str) -> str:
    """A quote as the report compares sentences: case and spacing aside."""
    return " ".join(quote.lower().split())


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
        self.topic = {stem(t) for t in plan.topic_terms}
        self.used: set[str] = set()  # every sentence the report has written, once
        self.cited_in: dict[str, list[str]] = {}  # paper -> the sections citing it
        self.summarised: list[str] = []  # the papers of the summary's paragraphs, in order

    def cite(self, key: str) -> str:
        paper = self.papers.get(key)
        return short_cite(paper.csl) if paper else key

    def fresh(self, items: list[EvidenceItem]) -> list[EvidenceItem]:
        """The items whose sentence the report has not written yet (one of each sentence)."""
        seen = set(self.used)
        found = []
        for item in items:
            if _key(item.quote) not in seen:
                seen.add(_key(item.quote))
                found.append(item)
        return found

    def speaker(self, key: str) -> str:
        """How the report names a paper as the one saying something: its short citation, or
        for a paper whose authors are unknown, "the authors of “Title…”"."""
        paper = self.papers.get(key)
        if paper is None or paper.csl.get("author"):
            return self.cite(key)
        words = (paper.title or key).split()
        title = " ".join(words[:SPEAKER_TITLE_WORDS]) + (
            "…" if len(words) > SPEAKER_TITLE_WORDS else ""
        )
        return f"the authors of “{title}”"

    def say(self, group: list[EvidenceItem], section: str, again: bool = False) -> Claim:
        """One claim for items that say the same: the first item's quote, attributed to
        every paper making it and citing each (the sentences are then used)."""
        for item in group:
            self.used.add(_key(item.quote))
            self.cited_in.setdefault(item.paper, [])
            if section not in self.cited_in[item.paper]:
                self.cited_in[item.paper].append(section)
        names = list(dict.fromkeys(self.speaker(i.paper) for i in group))
        return Claim(group[0].quote, [i.id for i in group], speaker=attribution(names, again))

    def by_question(self, qid: str) -> list[EvidenceItem]:
        return [e for e in self.evidence if e.sub_question == qid]

    def summary_pointers(self, section: Section, labels: dict[str, str]) -> Section:
        """The summary with each paper's lead pointing to the sections that cite it."""
        for key, paragraph in zip(self.summarised, section.paragraphs, strict=False):
            where = [labels[s] for s in self.cited_in.get(key, []) if s in labels]
            if where:
                paragraph.lead = f"{paragraph.lead} (see {', '.join(where)})"
        return section

    def summary(self) -> Section:
        """What the included papers are: each one's own statement of its contribution, led
        by its title and the sections that cite it."""
        section = Section("summary", "Executive summary")
        for key in sorted(self.papers, key=lambda k: self.order.get(k, 1_000_000)):
            own = [e for e in self.evidence if e.paper == key and e.kind == "contribution"]
            items = self.fresh(own)
            if not items:
                continue
            claim = self.say(items[:1], "summary")
            title = self.papers[key].title or key
            title = title if len(title) <= 80 else title[:77] + "…"
            self.summarised.append(key)
            section.paragraphs.append(Paragraph([claim], lead=title))
        if not section.paragraphs:
            note = "No screened source in the library answers any sub-question on this topic."
            section.paragraphs.append(Paragraph([_note(note)]))
        return section

    def question(self, index: int) -> Section:
        question = self.plan.sub_questions[index]
        section = Section(question.id, question.text)
        items = self.by_question(question.id)
        if question.facet == "limitations":
            # limitations the authors state, not method details that mention an error
            items = [e for e in items if states_limitation(e.quote, e.section)]
        per_paper: dict[str, list[EvidenceItem]] = {}
        for item in self.fresh(items):
            if len(per_paper.setdefault(item.paper, [])) < CLAIMS_PER_PAPER:
                per_paper[item.paper].append(item)
        papers = sorted(per_paper, key=lambda k: (self.order.get(k, 1_000_000), k))
        papers = papers[:PAPERS_PER_SECTION]
        chosen = [i for k in papers for i in per_paper[k]]
        by_paper: dict[str, list[Claim]] = {}
        for group in cluster_claims(chosen, self.topic):
            again = bool(by_paper.get(group[0].paper))  # the paragraph has named the paper
            claim = self.say(group, question.id, again)
            by_paper.setdefault(group[0].paper, []).append(claim)
        for key in papers:
            if by_paper.get(key):
                section.paragraphs.append(Paragraph(by_paper[key]))
        if not section.paragraphs:
            note = "No screened source answers this sub-question (see Open problems)."
            section.paragraphs.append(Paragraph([_note(note)]))
        return section

    def discussion(self) -> Section:
        """Themes that evidence from several papers shares, each one sentence naming the
        papers and citing a quote of each: two-word phrases first ("training data"), then
        single words that name things. The quotes are cited, not written again."""
        section = Section("discussion", "Cross-cutting discussion")
        themed = [(item, theme_terms(item.quote, self.topic)) for item in self.evidence]
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
        quotes = " ".join(item.quote for item in self.evidence)
        themes = sorted(
            # a phrase, or a single word the papers write as an acronym ("GROBID")
            (k for k, n in counts.items() if n >= 2 and names_thing(k, surface[k], quotes)),
            key=lambda k: (-counts[k], " " not in k, k),  # more papers, then phrases first
        )
        for theme in themes:
            cited: dict[str, EvidenceItem] = {}
            for item, found in themed:
                if theme in found and item.paper not in cited:
                    cited[item.paper] = item
                if len(cited) == PAPERS_PER_THEME:
                    break
            if len(cited) >= 2:
                named = [self.cite(k) for k in cited]
                if len(set(named)) < len(named):  # same authors and year: name the titles
                    named = [f"“{self.papers[k].title}”" if k in self.papers else k for k in cited]
                names = listed(named)
                text = f"{names} all write about {surface[theme]}."
                if len(cited) == 2:
                    text = f"{names} both write about {surface[theme]}."
                ids = [i.id for i in cited.values()]
                lead = surface[theme]
                section.paragraphs.append(
                    Paragraph([Claim(text, ids)], lead=lead[0].upper() + lead[1:])
                )
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
            # the two quotes, unless a section has written them (the statement cites them)
            quotes = [self.say([i], section.key) for i in self.fresh([first, second])]
            claims = [Claim(text, ids), *quotes]
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
        """Limitations and future work the papers state that no section has written, and the
        gaps: facets of the topic no cited sentence names, sub-questions nothing answers."""
        section = Section("open", "Open problems")
        seen: set[str] = set()
        claims: list[Claim] = []
        stated = [
            e
            for e in self.evidence
            if e.kind == "limitation" and states_limitation(e.quote, e.section)
        ]
        for item in self.fresh(stated):
            if item.paper not in seen:
                seen.add(item.paper)
                claims.append(self.say([item], section.key))
            if len(claims) == OPEN_PROBLEMS:
                break
        if claims:
            section.paragraphs.append(Paragraph(claims))
        written = {
            s
            for item in self.evidence
            if _key(item.quote) in self.used
            for s in claim_stems(item.quote, set())
        }
        missing = [
            f
            for f in topic_facets(self.plan.key_phrases)
            if not all(names_word(w, written) for w in content_terms(f))
        ]
        # Gaps in the evidence base, as coverage notes: statements about what the screened
        # evidence lacks, so they cite nothing (the appendix's coverage table has the counts).
        papers = {q.id: coverage.get(q.id, {}).get("papers", 0) for q in self.plan.sub_questions}
        numbered = list(enumerate(self.plan.sub_questions, start=1))
        unanswered = [f"Q{n}" for n, q in numbered if not self.by_question(q.id)]
        thin = [f"Q{n}" for n, q in numbered if papers[q.id] == 1]
        notes = []
        if missing:
            notes.append(f"No cited sentence addresses {listed([f'“{f}”' for f in missing])}.")
        if unanswered:
            notes.append(f"No screened source answers {listed(unanswered)}.")
        if thin:
            each = "" if len(thin) == 1 else " each"
            notes.append(f"The evidence on {listed(thin)} rests on a single paper{each}.")
        if notes:
            section.paragraphs += [Paragraph([_note(n)]) for n in notes]
        return section


def _note(text: str) -> Claim:
    """A coverage note: what the evidence does not hold. It cites nothing, so it is not a
    claim; reports label it and count it apart from claim sentences."""
    return Claim(text, [], flag="note")


def write_report(
    plan: Plan,
    evidence: list[EvidenceItem],
    papers: list[Paper],
    screening: list[ScreeningDecision],
    disagreements: list[Disagreement],
    coverage: dict[str, dict[str, int]],
) -> Report:
    """Executive summary (what each included paper is), one section per sub-question,
    discussion, disagreements, open problems, no sentence twice; references are the CSL
    items of the papers cited."""
    included = [d.key for d in sorted(screening, key=lambda d: -d.score) if d.included]
    by_key = {p.key: p for p in papers}
    writer = _Writer(plan, evidence, by_key, included)
    # Every sentence is written once: each paper's contribution (the summary), then the
    # sub-questions, the disagreements (quoting what no section has), the open problems.
    labels = {q.id: f"Q{n}" for n, q in enumerate(plan.sub_questions, start=1)}
    summary = writer.summary()
    questions = [writer.question(i) for i in range(len(plan.sub_questions))]
    disagreeing = writer.disagreements(disagreements)
    open_problems = writer.open_problems(coverage)
    summary = writer.summary_pointers(summary, labels)
    sections = [summary, *questions, writer.discussion(), disagreeing, open_problems]
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
