"""Extract: per paper, the contribution, method, setup, key results (with numbers),
limitations and applications, each a verbatim sentence pointing at a block (or at an abstract
sentence of a remote record); plus the passages that answer each sub-question.

Field extraction is cue-based sentence scoring, a pure function of the paper's blocks.
"""

from __future__ import annotations

import re
from pathlib import Path

from citewise.agent.ask.question import analyse
from citewise.agent.research.context import StageContext
from citewise.agent.research.model import EvidenceItem, Paper, Plan, SubQuestion, evidence_id
from citewise.agent.research.reading.claims import states_limitation
from citewise.agent.research.reading.disagree import states_measurement
from citewise.agent.research.reading.sentences import Sentence, abstract_sentences, own_sentences
from citewise.agent.research.stage import (
    ExtractInput,
    ExtractOutput,
    SearchOutput,
    decisions_made,
    stored,
)
from citewise.agent.research.stages.acquire import AcquireStage
from citewise.agent.sentences.extractive import Passage, quantities, score_candidates
from citewise.retrieval.terms import content_terms, stem
from citewise.store.sqlite.library import BlockFilter, StoredBlock

_CUES: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern, re.IGNORECASE)
    for name, pattern in {
        "contribution": r"\b(we (present|introduce|propose|describe|release|develop|report|"
        r"construct|provide)|this (paper|article|study|work|review) (presents|introduces|"
        r"describes|proposes|reports|investigates|examines|aims)|in this (paper|article|study|"
        r"work)|our (contribution|goal|aim)s?|the (aim|purpose|objective)s? of (this|the) "
        r"(study|review|paper|work))\b",
        "method": r"\b(we (use|used|train|trained|apply|applied|employ|employed|build|built|"
        r"extract|process|conducted|performed|model)|approach|method|algorithm|pipeline|"
        r"procedure|framework|classifier|was performed|were (analy[sz]ed|searched|reviewed|"
        r"interviewed|collected))\b",
        "setup": r"\b(dataset|data set|corpus|corpora|benchmark|sample[sd]?|participants|"
        r"patients|cohort|respondents|evaluat\w*|metric|accuracy|precision|recall|F1|AUC|"
        r"measured|test set|annotated|gold)\b",
        "result": r"\b(achiev\w*|outperform\w*|improv\w*|results?|increase[sd]?|decrease[sd]?|"
        r"reduc\w*|higher|lower|significant\w*|accuracy|F1|precision|recall|rate|percent|"
        r"consists? of|coverage|incidence|found)\b|%",
        "limitation": r"\b(limitations?|limited|future work|unfortunately|fail\w*|challeng\w*|"
        r"difficult\w*|does not|do not|cannot|could not|lack\w*|drawbacks?|bias\w*|errors?|"
        r"not (yet|always|possible)|remains? (unclear|open)|barriers?)\b",
        "application": r"\b(applications?|applied to|used (for|to|in|by)|enabl\w*|supports?|"
        r"useful|facilitat\w*|downstream|in practice|can be used|allows?)\b",
    }.items()
}
FIELD_FACET = {
    "method": "methods",
    "result": "results",
    "limitation": "limitations",
    "application": "applications",
}
# Sections where a field's sentences usually live get a bonus.
_SECTION_HINTS = {
    "contribution": ("abstract", "introduction", "conclusion", "summary"),
    "method": ("method", "approach", "model", "pipeline", "construct", "materials"),
    "setup": ("data", "experiment", "evaluation", "setup", "corpus", "participants"),
    "result": ("result", "evaluation", "experiment", "finding", "analysis"),
    "limitation": ("limitation", "discussion", "conclusion", "future", "challenge"),
    "application": ("application", "use", "conclusion", "discussion", "introduction"),
}
PER_FIELD = {"contribution": 1, "method": 2, "setup": 2, "result": 3, "limitation": 2}
PER_FIELD_DEFAULT = 1
PASSAGES_PER_QUESTION = 2
MIN_PASSAGE_COVERAGE = 0.3
MIN_FIELD_SCORE = 1.2
MEASUREMENTS = 4
_METRIC_WORDS = re.compile(r"\b(accuracy|precision|recall|F1|AUC|metric|score|evaluat\w*)\b", re.I)
_USES_DATA = re.compile(
    r"\b(use[sd]?|using|collect\w*|consist\w*|contain\w*|drawn|sampl\w*|recruit\w*|"
    r"interview\w*|includ\w*|enrol\w*|annotat\w*)\b",
    re.IGNORECASE,
)
_NAMED = re.compile(r"\b(?:[A-Z]{2,}[\w-]*|[A-Z][a-z]+-\d+|[A-Z][\w]*\d[\w-]*)\b")


def field_score(field: str, sentence: Sentence, topic_stems: set[str]) -> float:
    """How well a sentence states `field` (cue, section, position, topic words, numbers)."""
    cues = _CUES[field].findall(sentence.text)
    if not cues or (
        field == "limitation" and not states_limitation(sentence.text, sentence.section)
    ):
        return 0.0
    score = 1.0 + 0.1 * min(len(cues), 3)
    section = sentence.section.lower()
    if any(h in section for h in _SECTION_HINTS.get(field, ())):
        score += 0.3
    own = {stem(t) for t in content_terms(sentence.text)}
    score += 0.8 * len(own & topic_stems) / (len(topic_stems) or 1)
    numbers = quantities(sentence.text, "")
    if field == "result":
        score += 0.4 if numbers else -1.0
    if field == "setup":
        # A setup names its data or states its size; "the whole training corpus" does not.
        score += 0.3 if numbers or _NAMED.search(sentence.text) else -0.3
        score += 0.3 if _USES_DATA.search(sentence.text) else 0.0
    if field == "contribution":
        score += 0.4 * (1.0 - sentence.share)  # papers say what they do up front
    if field == "limitation" and sentence.share > 0.5:
        score += 0.2
    return round(score, 4)


def extract_fields(
    sentences: list[Sentence], topic_terms: list[str]
) -> list[tuple[str, Sentence, float]]:
    """(field, sentence, score): the best sentences for each field, never one twice."""
    topic_stems = {stem(t) for t in topic_terms}
    chosen: list[tuple[str, Sentence, float]] = []
    used: set[str] = set()
    for field in ("contribution", "result", "method", "setup", "limitation", "application"):
        ranked = sorted(
            ((field_score(field, s, topic_stems), s) for s in sentences),
            key=lambda pair: (-pair[0], pair[1].ordinal),
        )
        taken = 0
        for score, sentence in ranked:
            if score < MIN_FIELD_SCORE or taken == PER_FIELD.get(field, PER_FIELD_DEFAULT):
                break
            if sentence.text in used:
                continue
            used.add(sentence.text)
            chosen.append((field, sentence, score))
            taken += 1
    # Stated values (metrics, counts) are what disagreements are found among: keep a few more.
    measured = [s for s in sentences if s.text not in used and states_measurement(s.text)]
    measured.sort(
        key=lambda s: (-len({stem(t) for t in content_terms(s.text)} & topic_stems), s.ordinal)
    )
    for sentence in measured[:MEASUREMENTS]:
        chosen.append(("result", sentence, round(field_score("result", sentence, topic_stems), 4)))
    return chosen


def field_question(field: str, sentence: str, plan: Plan) -> str:
    """The sub-question a field's sentence answers ('' = background)."""
    facet = FIELD_FACET.get(field)
    if field == "setup":
        facet = "metrics" if _METRIC_WORDS.search(sentence) else "datasets"
    for question in plan.sub_questions:
        if question.facet == facet:
            return question.id
    return ""


def paper_evidence(
    task_id: str,
    paper: str,
    title: str,
    link: str,
    sentences: list[Sentence],
    plan: Plan,
    round_: int,
) -> list[EvidenceItem]:
    """Field evidence for one paper, from its sentences."""
    items = []
    for field, sentence, score in extract_fields(sentences, plan.topic_terms):
        question = field_question(field, sentence.text, plan)
        source = sentence.block_id or paper
        items.append(
            EvidenceItem(
                id=evidence_id(task_id, question, field, source, sentence.text),
                sub_question=question,
                kind=field,
                paper=paper,
                quote=sentence.text,
                block_id=sentence.block_id,
                page=sentence.page,
                bbox=sentence.bbox,
                section=sentence.section,
                title=title,
                link=_page_link(link, sentence.page),
                score=score,
                round=round_,
            )
        )
    return items


def question_passages(
    question: SubQuestion, passages: list[Passage], located: dict[str, Sentence]
) -> list[tuple[Sentence, float]]:
    """The sentences of retrieved blocks that best answer one sub-question."""
    analysed = analyse(question.text)
    analysed.terms = list(dict.fromkeys(question.terms + analysed.terms))

    def weight(term: str, doc: str) -> float:
        return 1.0

    found: list[tuple[Sentence, float]] = []
    for candidate in score_candidates(analysed, passages, weight):
        sentence = located.get(candidate.text)
        if sentence is None or candidate.own < MIN_PASSAGE_COVERAGE:
            continue
        if all(sentence.text != s.text for s, _ in found):
            found.append((sentence, round(candidate.own, 4)))
        if len(found) == PASSAGES_PER_QUESTION:
            break
    return found


def _page_link(link: str, page: int | None) -> str:
    if page and link.startswith("file:"):
        return f"{link}#page={page}"
    return link


class ExtractStage:
    """Included papers -> evidence items, stored paper by paper (a rerun skips done ones)."""

    name = "extract"
    state = "extracting"
    per_round = True

    def __init__(self, acquire: AcquireStage | None = None) -> None:
        self.acquire = acquire or AcquireStage()

    def inputs(self, ctx: StageContext) -> ExtractInput:
        r = ctx.task.round
        searched = stored(ctx, SearchOutput, r)
        assert searched is not None, "the search stage runs first"
        this_round = {p.key: p for p in searched.papers}
        decisions = decisions_made(ctx, r)
        new = [this_round[d.key] for d in decisions if d.included and d.round == r]
        revisit = [
            this_round[d.key]
            for d in decisions
            if d.included and d.round < r and d.key in this_round
        ]
        return ExtractInput(ctx.plan(), new, revisit, r)

    def following(self, ctx: StageContext, output: ExtractOutput) -> tuple[str, int]:
        return "analyzing", ctx.task.round

    def run(self, ctx: StageContext, inputs: ExtractInput) -> ExtractOutput:
        """Full extraction for `new` papers; sub-question passages only for `revisit`."""
        plan, new, revisit, round_ = inputs.plan, inputs.new, inputs.revisit, inputs.round
        done = {
            e.data.get("paper")
            for e in ctx.tasks.events(ctx.task.id, "progress")
            if e.stage == self.name and e.data.get("round") == round_
        }
        work = [(p, True) for p in new] + [(p, False) for p in revisit]
        for n, (paper, full) in enumerate(work, start=1):
            if paper.key not in done:
                items = self.paper_items(ctx, plan, paper, full, round_)
                progress = {"round": round_, "paper": paper.key, "evidence": len(items)}
                ctx.tasks.add_evidence(ctx.task.id, self.name, items, progress)
            ctx.checkpoint(self.state, n, len(work))
        return ExtractOutput([p.key for p, _ in work])

    def paper_items(
        self, ctx: StageContext, plan: Plan, paper: Paper, full: bool, round_: int
    ) -> list[EvidenceItem]:
        document = paper.key if paper.local else self.acquire.run(ctx, paper)
        if document is not None:
            if not paper.local:
                stored = ctx.store.document(document)
                paper.link = Path(stored.path).as_uri() if stored else paper.link
                data = {"paper": paper.key, "document": document, "url": paper.pdf_url}
                ctx.tasks.event(ctx.task.id, "acquire", "acquired", data)
            blocks = ctx.store.blocks(document)
            sentences = own_sentences(blocks)
            by_id = {b.id: b for b in blocks}
            if paper.local:
                passages = {
                    q: [_passage(by_id[b]) for b in ids if b in by_id and by_id[b].trusted]
                    for q, ids in paper.hits.items()
                }
            else:  # a fetched PDF: search it for each sub-question
                where = BlockFilter(documents=(document,))
                passages = {
                    q.id: [
                        _passage(h.block)
                        for h in ctx.retriever.search(q.queries[0], 4, where, neighbours=0)
                    ]
                    for q in plan.sub_questions
                }
        else:
            sentences = abstract_sentences(paper.abstract)
            block = Passage(paper.key, paper.key, paper.abstract, "paragraph", None, "", 1.0)
            passages = {q: [block] for q in paper.hits}
        items = (
            paper_evidence(ctx.task.id, paper.key, paper.title, paper.link, sentences, plan, round_)
            if full
            else []
        )
        located = {s.text: s for s in sentences}
        for question in plan.sub_questions:
            for sentence, score in question_passages(
                question, passages.get(question.id, []), located
            ):
                source = sentence.block_id or paper.key
                items.append(
                    EvidenceItem(
                        id=evidence_id(ctx.task.id, question.id, "passage", source, sentence.text),
                        sub_question=question.id,
                        kind="passage",
                        paper=paper.key,
                        quote=sentence.text,
                        block_id=sentence.block_id,
                        page=sentence.page,
                        bbox=sentence.bbox,
                        section=sentence.section,
                        title=paper.title,
                        link=_page_link(paper.link, sentence.page),
                        score=score,
                        round=round_,
                    )
                )
        return items


def _passage(block: StoredBlock) -> Passage:
    # Captions and lists are prose here: split into sentences as block_sentences does.
    return Passage(
        block.id,
        block.document_id,
        block.text,
        "table" if block.kind == "table" else "paragraph",
        block.label,
        block.section_path,
        1.0,
    )
