"""The no-model backend: answer with verbatim sentences picked from retrieved blocks.

Everything here is a pure function of the question, the retrieved passages and term
statistics, so the same library and question always give the same answer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from citewise.agent.ask.question import Question
from citewise.agent.numeric.numbers import WORDS as NUMBER_WORDS
from citewise.agent.numeric.numbers import quantities as stated_quantities
from citewise.agent.sentences.subjects import other_subject_rows, without_other_subjects
from citewise.regex import lazy
from citewise.retrieval.terms import stem, tokens, word_count

# An answer ranked by the fitted scorer takes at most this many sentences; its 80 words
# (MAX_WORDS) bind first: on QASPER (main's library, odd / even answerable) a cap of 4 gave
# 117 / 100 right, 5 gave 118 / 102, and 6, 8 or none 118 / 103 (docs/benchmarks.md,
# "Fifth session: QASPER reader"): the cap only cut answers of short sentences early. With
# more room a section heading could join; it no longer does (119 / 103).
MAX_SENTENCES = 6
COVERAGE_SENTENCES = 3
# A sentence the fitted scorer finds at least this likely, relative to the best, joins it.
SECOND_SHARE = 0.1
MAX_WORDS = 80

_ABBREVIATIONS = re.compile(
    r"(?:\bet al|\be\.g|\bi\.e|\bvs|\bcf|\bFig|\bFigs|\bEq|\bEqs|\bNo|\bSec|\bTab|\bResp|\bapprox"
    r"|\bDr|\bProf|\bMrs?|\bMs|\bJr|\bSr|\bal|\bSt|\b[A-Z])\.$"
)
_SENTENCE_END = re.compile(
    r"(?<=[.!?])[\"'”’)\]]*\s+(?=[A-Z0-9(\"“‘\[])"
    r"|(?<=[。！？])[”’」』）]*\s*(?=\S)"  # CJK sentences end without a space
)
_DIGIT = re.compile(r"\d")
# A short line in capitals only, often beside a page number ("166 BRECCIA-GASHES."), is a
# running head or a title line (the paper's or journal's title, printed on every page):
# it states nothing.
_TWO_CAPITALS = re.compile(r"[A-Z]{2}")
RUNNING_HEAD_WORDS = 12


@dataclass(frozen=True)
class Passage:
    """A block offered as evidence: its ID, text, kind, label and retrieval strength."""

    block_id: str
    document_id: str
    text: str
    kind: str
    label: str | None
    section_path: str
    retrieval: float  # 0..1, best retrieved block = 1
    is_context: bool = False  # a neighbour of a retrieved block, not retrieved itself
    context: str = ""  # words around the block that frame it: caption of a table, neighbours


@dataclass(frozen=True)
class Candidate:
    """One sentence (or table row) of a passage, scored against the question."""

    block_id: str
    text: str
    coverage: float  # IDF-weighted share of question terms the sentence (in context) covers
    own: float  # the same share counting only the sentence's own words
    score: float
    terms: frozenset[str]
    # weighted share of the question's attribute ("mean age") named in the sentence (for a
    # table row: in the row, its header or caption); 1.0 when the question names none
    attribute: float = 1.0
    # the fitted scorer's log-odds that the sentence holds the answer (agent/ask/scorer.py;
    # None until it has scored it); `fitted`: the score is that probability
    logit: float | None = None
    fitted: bool = False
    kind: str = "paragraph"  # its block's kind


def split_sentences(text: str, kind: str = "paragraph") -> list[str]:
    """Sentences of prose; rows (lines) of tables. Abbreviations do not end a sentence."""
    if kind == "table" or (kind != "paragraph" and "\n" in text):
        return [line.strip() for line in text.split("\n") if line.strip()]
    text = " ".join(text.split())
    pieces: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        candidate = text[start : match.start()].strip()
        if _ABBREVIATIONS.search(candidate):
            continue
        if candidate:
            pieces.append(candidate)
        start = match.end()
    tail = text[start:].strip()
    if tail:
        pieces.append(tail)
    return pieces


def stems(text: str) -> set[str]:
    return {stem(t) for t in tokens(text)}


# A number that only names a part of the paper ("Figure 2", "Table 1", "§ 3", "Example 1")
# states nothing.
_LABEL_NUMBER = re.compile(
    r"\b(?:fig(?:ure)?s?|tables?|tab|sections?|sec|eqs?|equations?|appendix|chapters?|examples?|"
    r"steps?|phases?|stages?|rows?|columns?|algorithms?|theorems?|lemmas?)\.?\s*\(?"
    r"\d+(?:\.\d+)*|§\s*\d+(?:\.\d+)*",
    re.IGNORECASE,
)


def without_labels(text: str) -> str:
    """The text without numbers that only name a part of the paper ("Table 2", "§ 3")."""
    return _LABEL_NUMBER.sub(" ", text)


# A multiplier ("three times more", "a 2-fold increase", "3x faster") compares two amounts;
# it is no count, so it does not answer "how many papers" (it does "how many times more").
_MULTIPLIER = lazy(
    r"(?<![\w.,])(?:\d[\d.,]*|(?:" + "|".join(NUMBER_WORDS) + r")\b)\s*-?\s*"
    r"(?:fold\b|(?:times|x|×)\s+(?=(?:more|fewer|less|larger|smaller|bigger|greater|higher|"
    r"lower|faster|slower|longer|shorter|as)\b))",
    re.IGNORECASE,
)
_ASKS_COUNT = lazy(r"\bhow many\b(?!\s+times\b)", re.IGNORECASE)
_ASKS_RATIO = lazy(
    r"\b(?:times|fold|factor|ratio|compared?|speed-?up|more|fewer|less|larger|smaller|faster|"
    r"slower)\b",
    re.IGNORECASE,
)


def without_multipliers(text: str, question: str) -> str:
    """The text without its multipliers, when the question asks for a count (not a ratio)."""
    if not _ASKS_COUNT.search(question) or _ASKS_RATIO.search(question):
        return text
    return _MULTIPLIER.sub(" ", text)


def quantities(sentence: str, question: Question | str) -> set[str]:
    """Numbers a sentence states that the question does not (publication years, numbers
    that only label a figure, table or section, multipliers for a count, and numbers said
    of another subject than the one the question names aside: agent/sentences/subjects.py), read by
    agent/numeric/numbers.py."""
    text = question if isinstance(question, str) else question.text
    own = without_multipliers(without_other_subjects(sentence, question), text)
    return stated_quantities(without_labels(own), without_labels(text))


def score_candidates(
    question: Question,
    passages: list[Passage],
    weight: Callable[[str, str], float],
) -> list[Candidate]:
    """Every sentence of every passage, scored; best first.

    `weight(term, document_id)` says how much finding a question term in that paper tells
    (in-paper IDF: a word on every page of the paper is its topic, not the answer).
    """
    candidates = [c for p in passages for c in _passage_candidates(question, p, weight)]
    candidates.sort(key=lambda c: -c.score)
    return candidates


def _passage_candidates(
    question: Question, passage: Passage, weight: Callable[[str, str], float]
) -> list[Candidate]:
    """The passage's sentences, scored by the question terms they and their context cover."""
    aliases = question.aliases

    def has(term_stem: str, words: set[str]) -> bool:
        # "lr" in the sentence covers "learning rate" in the question (agent/ask/vocabulary.py)
        return term_stem in words or any(a <= words for a in aliases.get(term_stem, ()))

    qstems: dict[str, float] = {}
    for t in question.terms:
        qstems[stem(t)] = max(qstems.get(stem(t), 0.0), weight(t, passage.document_id))
    total = sum(qstems.values()) or 1.0
    attribute = {stem(t): weight(t, passage.document_id) for t in question.attribute}
    # A sentence inherits the words of its block, heading, label and caption as context.
    # what a clause says of another subject than the one the question names is not said of
    # it (agent/sentences/subjects.py)
    said = without_other_subjects(f"{passage.context}\n{passage.text}", question)
    context = stems(f"{passage.section_path} {passage.label or ''} {said}")
    # a table's rows named after another subject than the one asked are set aside
    aside = other_subject_rows(passage.text, question) if passage.kind == "table" else set()
    candidates: list[Candidate] = []
    for sentence in split_sentences(passage.text, passage.kind):
        if sentence in aside:
            continue
        words = word_count(sentence)
        if passage.kind != "table" and (words < 3 or is_running_head(sentence, words)):
            continue
        own = stems(without_other_subjects(sentence, question))
        # lists in the question's order: a float sum over a set would round by its hash order
        covered = [s for s in qstems if has(s, own)]
        in_context = [s for s in qstems if has(s, context) and s not in covered]
        own_share = sum(qstems[s] for s in covered) / total
        # A table row means little without its header and caption; prose stands alone.
        context_weight = 0.8 if passage.kind == "table" else 0.5
        coverage = own_share + context_weight * sum(qstems[s] for s in in_context) / total
        score = _sentence_score(coverage, question, passage, sentence, words)
        frame = own | context if passage.kind == "table" else own
        named = (
            sum(w for s, w in attribute.items() if has(s, frame)) / (sum(attribute.values()) or 1)
            if attribute
            else 1.0
        )
        candidates.append(
            Candidate(
                passage.block_id,
                sentence,
                coverage,
                own_share,
                score,
                frozenset(covered),
                named,
                kind=passage.kind,
            )
        )
    return candidates


def is_running_head(sentence: str, words: int) -> bool:
    """A few words in capitals only (and page numbers): a running head, not a statement."""
    if words > RUNNING_HEAD_WORDS or not _TWO_CAPITALS.search(sentence):
        return False
    # no lower-case Latin letter, no Han character (told without a regex: a class of the
    # Han range costs ~5 ms to compile in every process that answers)
    return not any("a" <= c <= "z" or "\u3400" <= c <= "\u9fff" for c in sentence)


def _sentence_score(
    coverage: float, question: Question, passage: Passage, sentence: str, words: int
) -> float:
    """Coverage and retrieval strength, adjusted for what the question wants of a sentence."""
    score = coverage + 0.25 * passage.retrieval
    if question.expects_number and not quantities(sentence, question):
        score *= 0.6
    label = (passage.label or "").lower()
    if question.labels and label in {lb.lower() for lb in question.labels}:
        score += 0.15
    if words > 60:
        score *= 0.85  # overlong "sentences" are usually merged layout debris
    if passage.is_context:
        score *= 0.9
    return score


def select_answer(candidates: list[Candidate], question: Question) -> list[Candidate]:
    """The best sentence, plus up to two more that cover question terms it misses or score
    nearly as well (the answer is often in the sentence next to the best match)."""
    if not candidates:
        return []
    best = candidates[0]
    chosen = [best]
    covered = set(best.terms)
    words = len(best.text.split())
    # the scorer's probability says a further sentence likely holds the answer too; term
    # coverage alone (a table among the best, a yes/no question) takes fewer along
    most = MAX_SENTENCES if best.fitted else COVERAGE_SENTENCES
    for candidate in candidates[1:]:
        if len(chosen) == most:
            break
        if words + len(candidate.text.split()) > MAX_WORDS or any(
            candidate.text == c.text for c in chosen
        ):
            continue
        if best.fitted:  # scored by the fitted scorer: a likely second sentence goes along
            if "table" in (candidate.kind, best.kind):
                continue  # a table row says little without its header; one row is an answer
            if candidate.kind in ("caption", "heading") and best.kind != candidate.kind:
                continue  # a caption names a figure, a heading a section: neither goes on
                # with a prose answer
            if candidate.score >= SECOND_SHARE * best.score:
                chosen.append(candidate)
                covered |= candidate.terms
                words += len(candidate.text.split())
            continue
        adds_terms = bool(candidate.terms - covered) and candidate.score >= 0.6 * best.score
        # an explanation goes on in the paragraph that begins it
        explains = (
            question.wants_list
            and candidate.block_id == best.block_id
            and candidate.score >= 0.6 * best.score
        )
        if adds_terms or explains or candidate.score >= 0.8 * best.score:
            chosen.append(candidate)
            covered |= candidate.terms
            words += len(candidate.text.split())
    return chosen


def idf_function(total_blocks: int, frequencies: dict[str, int]) -> Callable[[str], float]:
    """Smoothed inverse document frequency; a term the library never uses weighs most."""

    def idf(term: str) -> float:
        df = frequencies.get(term, 0)
        return math.log((total_blocks + 1) / (df + 0.5))

    return idf
