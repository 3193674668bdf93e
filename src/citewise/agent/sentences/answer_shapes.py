"""Answer shapes papers write that the name and sentence checks would miss, and two they
must write.

- "Who approached the patients?" is often answered by a role, not a person's name: papers
  write the act in the passive with its agent after "by" ("patients were approached by the
  hospital's rehabilitation coordinator", "the protocol was approved by the Research Ethics
  Committee"). A sentence stating the asked act followed by "by" names who did it.
- "Why is X done?" is answered by a sentence that gives a reason ("due to", "because",
  "in order to", "since"); a sentence that only restates X does not answer it.
- "Does ProgramFC use BM25 ...?" is settled only by text that writes one of the names it
  asks about: a sentence about "the open-book setting" that names neither says nothing of
  it.
- "Which solver does Logic-LM use?" asks to pick one thing out: the answer names it, with a
  word written as a name ("Z3", "GloVe", "PRISMA", "Pyke" inside a sentence, "8x7B") that
  the question does not already write, or describes one of the class ("the hardest
  night-shift subset", "the third head"). A sentence that only restates the class
  ("integrates LLMs with symbolic solvers") or the question's own names ("LOGIC-LM") picks
  nothing.
"""

from __future__ import annotations

import re

from citewise.agent.ask.question import Question
from citewise.agent.sentences.extractive import without_labels
from citewise.agent.sentences.subjects import names_written_as_names
from citewise.agent.yesno.polar import is_polar
from citewise.retrieval.terms import STOPWORDS, stem

_WANTS_REASON = re.compile(r"^\W*why\b", re.I)
_REASON = re.compile(
    r"\b(because|due to|owing to|since|in order to|so that|so as to|to (?:avoid|ensure|reduce|"
    r"allow|enable|keep|make|prevent|reassure|account for)|the reason|reasons?|as a result|"
    r"caused by|results? from|thus|therefore|hence|given that|motivat\w*|aim\w* to)\b",
    re.I,
)


def names_the_agent(question: Question, text: str) -> bool:
    """The text states the act the question asks about in the passive, with its agent
    ("were approached by the ..."): the answer to "who approached ...?"."""
    acts = {stem(t) for t in question.attribute}
    return any(
        re.search(rf"\b{re.escape(act)}\w*\s+by\s+\S", text, re.I) for act in acts if len(act) > 2
    )


def wants_reason(question: Question) -> bool:
    return bool(_WANTS_REASON.search(question.text))


def states_reason(text: str) -> bool:
    """The text gives a reason ("due to the difficulty of ...", "because ...")."""
    return bool(_REASON.search(text))


# "What is a breccia?", "What does the word 'gash' mean?", "What is meant by X?": the term
# a definition question asks about (a few words).
_TERM_ASKED = (
    re.compile(r"^\W*what (?:is|are) (?:an? |the )?([\w'\- ]{2,40}?)\W*$", re.I),
    re.compile(
        r"^\W*what (?:does|do) (?:the (?:word|term|phrase) )?['\"‘“]?([\w\- ]{2,40}?)['\"’”]? "
        r"(?:mean|denote|refer to)\b",
        re.I,
    ),
    re.compile(r"\bwhat is meant by (?:an? |the )?['\"‘“]?([\w\- ]{2,40}?)['\"’”]?\W*$", re.I),
)
MAX_TERM_WORDS = 4


def defined_term(question: Question) -> str | None:
    """The term a definition question asks about, or None."""
    for pattern in _TERM_ASKED:
        found = pattern.search(question.text.strip())
        if found and len(found.group(1).split()) <= MAX_TERM_WORDS:
            return found.group(1).strip()
    return None


def defines(term: str, text: str) -> bool:
    """The text defines the term the way papers do: "a breccia is a rock ...", "X refers
    to ...", "X means ...", "the word gash is ... used to express ..."."""
    name = re.escape(term).replace(r"\ ", r"\s+")
    return bool(
        re.search(
            rf"\b{name}(?:e?s)?['\"’”]?\s*(?:,[^,]{{0,40}},\s*)?(?:is|are)\s+(?:an?|the|one)\b|"
            rf"\b{name}(?:e?s)?['\"’”]?\s+(?:refers? to|means?|denotes?|is defined as|"
            rf"are defined as|is used to express)\b",
            text,
            re.I,
        )
    )


# "Which solver ...", "which two knowledge bases ...": a question picking things out of a
# class (not "which year", a date; not "which of", the question then lists the options).
_WHICH_THING = re.compile(r"^\W*(?:in |on |for |from |with |by |to |of )?which\s+(?!of\b)\w+", re.I)
_WORD = re.compile(r"[A-Za-z0-9][\w'’-]*")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\(\s*)$")
# A plural acronym ("LLMs", "GPUs") names a class, not one thing.
_PLURAL_ACRONYM = re.compile(r"^[A-Z]{2,}s$")


def asks_which_thing(question: Question) -> bool:
    """ "Which solver does X use?": the answer picks something out by name (numbers,
    dates, people and lists of options have their own checks)."""
    return bool(_WHICH_THING.search(question.text)) and not question.expects_number


# The words after "which" that say what class is asked about ("which scanner head").
_CLASS_WORDS = 3


def _class_words(question: str) -> list[str]:
    """ "Which scanner head is ..." -> ["scanner", "head"]: up to three words after "which"
    (a count skipped), to the first function word."""
    m = _WHICH_THING.search(question)
    if m is None:
        return []
    out: list[str] = []
    for w in _WORD.findall(question[m.start() :])[1:]:
        low = w.lower()
        if low in ("which", "two", "three", "four", "five") and not out:
            continue
        if low in STOPWORDS or len(out) == _CLASS_WORDS:
            break
        out.append(low)
    return out


def picks_by_description(question: Question, text: str) -> bool:
    """The text writes the asked class word as the question does ("subset", not
    "subsets") after a word the question does not have: "the hardest night-shift subset",
    "the third head" pick one out; "integrates LLMs with symbolic solvers" and "a
    symbolic solver" restate the class."""
    classes = set(_class_words(question.text))
    asked = {w.lower() for w in _WORD.findall(question.text)}
    words = [w.lower() for w in _WORD.findall(text)]
    return any(
        w in classes and i > 0 and words[i - 1] not in asked and words[i - 1] not in STOPWORDS
        for i, w in enumerate(words)
    )


def names_a_new_thing(question: Question, text: str) -> bool:
    """The text writes a name the question does not: a word with a digit or a capital
    after its first letter ("Z3", "GloVe", "BILOU"), or a capitalised word inside a
    sentence ("the Pyke expert system"); not a plural acronym ("LLMs")."""
    asked = question.text.lower()
    text = without_labels(text)  # "Section 3", "Table 2" name no thing
    for m in _WORD.finditer(text):
        word = m.group(0).rstrip("'’-")
        inside = any(c.isupper() or c.isdigit() for c in word[1:])
        capital = word[0].isupper() and not _SENTENCE_START.search(text[: m.start()])
        if not (inside or capital or word[0].isdigit()) or _PLURAL_ACRONYM.match(word):
            continue
        if word.lower() not in asked:
            return True
    return False


def misses_the_names_asked(question: Question, text: str) -> bool:
    """A yes/no question that writes names ("Does ProgramFC use BM25 ...?") and text that
    writes none of them (nor their parts: "S2ORC" of "S2ORC-SciBERT")."""
    if not is_polar(question.text):
        return False
    names = names_written_as_names(question.text)
    written = {f for w in _WORD.findall(text) for f in (w.casefold(), *w.casefold().split("-"))}
    return bool(names) and not names & written
