"""Short answers: the shortest verbatim span of a chosen sentence that still answers."""

from __future__ import annotations

import re
from collections.abc import Callable

from citewise.agent.ask.question import Question
from citewise.agent.sentences.extractive import quantities, stems
from citewise.agent.yesno.asking import yes_no_shape
from citewise.retrieval.terms import content_terms, stem, word_count

# Sentences up to this long are already short; longer ones are cut to a clause.
SHORT_WORDS = 25
MIN_SPAN_WORDS = 5
# A span keeps at least this share of the sentence's weighted question terms.
KEEP_COVERAGE = 0.75
# A clause opening with a relative pronoun says its words of the clause before it: a span
# cut there ("which consist of 8.1M GROBID-parsed PDFs") has lost what it is said of.
_RELATIVE_START = re.compile(r"^\W*(?:which|who|whom|whose|where)\b", re.I)
# A comma between two figures ("December 31, 2019, 2018 and 2017") joins a date or a list
# of figures, not two clauses.
_CLAUSE_END = re.compile(
    r"(?<=[;:])\s+|(?<=,)(?<!\d,)\s+|(?<=\d,)\s+(?!\d)|(?<=[，；：])\s*"
    r"|\s+(?=\((?:i|ii|iii|iv|v|\d)\)\s)"
)


# An item of a comma list ("EMBASE,", "and Medline."): short, and what follows a list's comma.
_LIST_ITEM_WORDS = 3
_LAST_ITEM = re.compile(r"^(?:and|or)\s", re.I)


def clauses(sentence: str) -> list[str]:
    """The sentence cut at semicolons, colons and commas (pieces keep their punctuation);
    the items of a comma list stay with the clause that starts it ("using PubMed, EMBASE,
    and Medline" is one piece: cutting inside a list drops some of what it lists)."""
    pieces: list[str] = []
    for piece in (p for p in _CLAUSE_END.split(sentence) if p.strip()):
        words = piece.split()
        last = bool(_LAST_ITEM.match(piece)) and len(words) <= _LIST_ITEM_WORDS + 1
        item = len(words) <= _LIST_ITEM_WORDS and piece.rstrip().endswith(",")
        if pieces and pieces[-1].rstrip().endswith(",") and (item or last):
            pieces[-1] = f"{pieces[-1]} {piece}"
        else:
            pieces.append(piece)
    return pieces


# A clause that ends on the first item a copula or "include" opens ("the activities were
# health,"): the items after it belong to the same list.
_OPENS_LIST = re.compile(r"\b(?:is|are|was|were|include[sd]?|including)\s+[\w-]+(?:\s+[\w-]+)?,$")
_FIGURE = re.compile(r"\d+(?:[,.]\d+)*")


def _says_more(span: str, asked: set[str]) -> bool:
    """The span writes a word or a figure the question does not: one made only of the
    question's own words ("the tax benefits realized for the year ended 2019") restates it."""
    return any(stem(t) not in asked for t in content_terms(span)) or bool(
        re.search(r"\d", span) and set(re.findall(_FIGURE, span)) - asked
    )


def shortest_span(
    sentence: str,
    question: Question,
    weight: Callable[[str], float] = lambda _t: 1.0,
    keeps: Callable[[str], bool] = lambda _span: True,
    then_next: bool = True,
) -> str:
    """The shortest run of whole clauses that keeps what the sentence answers: most of
    its weighted question terms, its number when the question asks for one, and whatever
    else `keeps` asks for (the answer's shape: a date, a comparison).

    One widening rule, with `then_next`: the span takes the clause that follows it. The
    clauses that keep the question's terms echo it; what it asks of them is said next,
    in a clause of its own ("..., we established six categories: Assertion, ...") or a
    relative clause said of the echo ("... the remaining service, which was about 11
    years"). A yes/no question is settled by the clause that states its claim, so its
    caller passes `then_next=False`."""
    if word_count(sentence) <= SHORT_WORDS:
        return sentence
    pieces = clauses(sentence)
    if len(pieces) < 2:
        return sentence
    wanted = {stem(t): weight(t) for t in question.terms}

    def covered(text: str) -> float:
        own = stems(text)
        return sum(w for s, w in wanted.items() if s in own)

    full = covered(sentence)
    asked = {stem(t) for t in content_terms(question.text)} | set(
        re.findall(_FIGURE, question.text)
    )
    needs_number = question.expects_number and bool(quantities(sentence, question))
    # a yes/no question is answered by a span that restates it ("working with the same data")
    restates = yes_no_shape(question.text) is not None
    best, first, after = sentence, 0, len(pieces)
    for start in range(len(pieces)):
        for end in range(start + 1, len(pieces) + 1):
            span = " ".join(pieces[start:end]).strip().rstrip(",;:")
            words = word_count(span)
            if words < MIN_SPAN_WORDS or words >= word_count(best):
                continue
            if start > 0 and _RELATIVE_START.match(pieces[start]):
                continue
            if full and covered(span) < KEEP_COVERAGE * full:
                continue
            if needs_number and not quantities(span, question):
                continue
            opened = any(_OPENS_LIST.search(p) for p in pieces[start:end])
            if opened and pieces[end - 1].rstrip().endswith(","):
                continue  # "... were health, life," cuts the list it opens
            if not restates and not _says_more(span, asked):
                continue
            if not keeps(span):
                continue
            best, first, after = span, start, end
    if then_next and after < len(pieces):  # the one widening rule (docstring)
        return " ".join(pieces[first : after + 1]).strip().rstrip(",;:")
    return best


NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}
WHICH_N = re.compile(r"\b(?:which|what|name(?: the)?) (two|three|four|five|[2-5]) \w+", re.I)
# An item of a "Name: what it is" list: a capitalised name and a colon, at a sentence start.
_ITEM_HEAD = re.compile(r"(?:^|(?<=[.:]\s))([A-Z][\w-]*(?: [A-Z][\w-]*){0,3}):\s")


def listed_items(question: str, span: str, passage: str) -> str:
    """ "Which two KBs ...?" answered by "We use two KBs: UMLS: The UMLS ... DBpedia: ...":
    the span that announces the N-item list, followed by the N item names its passage lists
    after it ("We use two KBs: UMLS, DBpedia"). The span itself when there is no such list."""
    asked = WHICH_N.search(question)
    if not asked:
        return span
    word = asked.group(1).lower()
    intro = re.search(rf"\b{word} [\w()-]+(?: [\w()-]+){{0,3}}:\s", span, re.I)
    start = passage.find(span)
    if intro is None or start < 0:
        return span
    after = passage[start + span.find(intro.group(0)) + len(intro.group(0)) :]
    heads = list(dict.fromkeys(m.group(1) for m in _ITEM_HEAD.finditer(after)))
    wanted = NUMBER_WORDS[word]
    if len(heads) < wanted:
        return span
    return span[: span.find(intro.group(0)) + len(intro.group(0))] + ", ".join(heads[:wanted])
