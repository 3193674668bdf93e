"""The confidence gates of free-phrase columns (agent/comparison/aspect_readers/phrases/columns.py):
a reading fills the cell only where its sentence can be the paper's own statement of its own
value or choice; otherwise the cell is left "not stated" rather than filled with it.

- A count for "number of X": one written out as "one" or "two" picks a thing or a pair ("the
  similarity of two sentences", "one language at a time"), a count in an example or a
  possibility ("for example, three questions", "a word can have two tokens") illustrates, and
  a count after "trained on" where a pre-trained resource is the subject ("GloVe vectors
  pre-trained on 840B tokens") is the resource's corpus.
- A count of a unit of time ("fitting takes 6 hours", "300 annotation hours") measures how
  long something lasted; it counts data only where "of" and what the time holds follow ("45
  hours of recorded speech", "120 hours of training audio") or where it is hyphened to a thing ("a
  70-hour Welsh corpus").
- A name: the plural of a singular column with no name in it ("we train text classification
  models" for "classification model") or after a quantifier ("most CNN rock
  classifiers") speaks of a class of things; "X is/are/include ..." opening a sentence with the bare
  thing defines it in general ("Typical rock classifiers include SlateNet, ..."); a sentence
  whose subject is a cited work ("BIBREF4 learns ...", "Ashby et al. propose ...") or that
  describes a listed, cited item ("SlateCNN: a convolutional rock classifier with ...
  (Ashby et al., 2016)") speaks of another work's thing where it says nothing of the paper's
  own.

The words live in agent/data/matrix_phrases.txt.
"""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import cites_others, word_list
from citewise.agent.comparison.aspect_readers.phrases.lists import phrase_list
from citewise.agent.comparison.aspect_readers.phrases.uses import names_one
from citewise.agent.comparison.extraction import WE_OR_OUR

MAX_RESOURCE_GAP = 6  # words between a pre-trained resource and its "trained on"


def not_a_total(text: str, value: str, written_count: bool, counted: str = "") -> str:
    """Why a count read for a "number of X" column is not the paper's own total ("" when
    nothing says so). `written_count`: the count stands before X ("two sentences"), not
    linked to the whole phrase ("the number of sentences is two" keeps a count of two).
    `counted`: X; a network's parts ("a two-layer GRU", "two attention heads") are few by
    nature, so "one" or "two" of them is the network's size, not a thing picked."""
    first = value.split()[0].lower() if value.split() else ""
    if written_count and first in phrase_list("picking_counts") and not network_part(counted):
        return "a thing or a pair picked"
    if _marked().search(text):
        return "an example or a possibility"
    at = text.find(value)
    if at >= 0 and _pretrained_corpus().search(text[:at]):
        return "a pre-trained resource's corpus"
    if a_duration(text, value):
        return "a duration"
    return ""


def network_part(counted: str) -> bool:
    """Whether the counted thing is a neural network's repeated part ("layers", "attention
    heads", "hidden units"): its head noun, singular, in agent/data/matrix_phrases.txt."""
    words = counted.lower().split()
    head = words[-1] if words else ""
    return head in phrase_list("network_parts") or head.rstrip("s") in phrase_list("network_parts")


def a_duration(text: str, value: str) -> bool:
    """Whether every place the count stands before a unit of time measures a duration ("takes
    about 6 hours", "trained for 30 hours", "9,000 CPU hours", "20 hours of initial
    training"); "45 hours of recorded speech", "120 hours of training audio" and "a 70-hour
    Welsh corpus" hold data. False where the count counts no unit of time."""
    units = "|".join(sorted(phrase_list("time_units"), key=len, reverse=True))
    found = False
    for m in re.finditer(
        rf"(?<![\w.]){re.escape(value)}(?P<join>-|\s+)(?P<mid>(?:[\w-]+\s+){{0,2}}?)"
        rf"(?:{units})\b(?P<rest>.*)",
        text,
        re.I | re.S,
    ):
        found = True
        mid = m.group("mid").lower().split()
        if set(mid) & phrase_list("time_activities"):
            continue  # "300 annotation hours", "9,000 CPU hours"
        hyphened = m.group("join") == "-" and not mid
        if (held := _held(m["rest"], hyphened)) and not _activity(held):
            return False
    return found


def _held(rest: str, hyphened: bool) -> str:
    """The noun naming what a span of time holds, in the words after its unit: "of speech"
    gives "speech", "of training data" "data", a hyphened "-hour Welsh corpus" "corpus";
    "" where no "of" follows ("takes 6 hours to train", "after 12 hours Ashby's tagger leads") or a
    function word or a stop does ("6 hours of each run")."""
    m = re.match(r"\s+(?:of\s+)([\w\s-]*)" if not hyphened else r"\s+([\w\s-]*)", rest)
    words = m.group(1).lower().split()[:2] if m else []
    stop = word_list("dangling") | phrase_list("duration_followers")
    kept = []
    for word in words:
        if word in stop:
            break
        kept.append(word)
    return kept[-1] if kept else ""


def _activity(word: str) -> bool:
    """Work a duration is spent on: "training", "annotation", a verb's "-ing" form."""
    word = word.lower()
    return word in phrase_list("time_activities") or (word.endswith("ing") and len(word) > 5)


@cache
def _marked() -> re.Pattern[str]:
    """A marker of an example or a possibility anywhere in the sentence."""
    words = phrase_list("example_markers") | phrase_list("possibility_words")
    alternation = "|".join(
        r"\s+".join(re.escape(p) for p in w.split()) for w in sorted(words, key=len, reverse=True)
    )
    return re.compile(rf"(?<![\w.])(?:{alternation})(?![\w])", re.I)


@cache
def _pretrained_corpus() -> re.Pattern[str]:
    """ "<resource> ... (pre-)trained on" ending just before the count ("vectors trained on",
    "word2vec is trained on"), or "pre-trained on" alone; "X as features, trained on" is the
    paper's own classifier."""
    names = "|".join(re.escape(w) for w in sorted(phrase_list("pretrained_resources"), key=len))
    return re.compile(
        rf"(?:\b(?:{names})\b,?(?:\s+(?!as\b)[^\s.;]+){{0,{MAX_RESOURCE_GAP}}}?\s+|\bpre-?)"
        rf"trained\s+on\s+(?:[^\s.;]+\s+){{0,8}}?(?:\(\s*)?$",
        re.I,
    )


def a_kind_in_general(value: str, phrase: str, text: str = "") -> bool:
    """Whether a name phrase's value is the plural of a singular column with no name in it
    ("text classification models" for "classification model", "structured knowledge bases")
    or a plural after a quantifier ("most CNN rock classifiers" in `text`): it
    speaks of the class of such things, not of the one the paper chose."""
    head = phrase.split()[-1].lower()
    last = value.split()[-1].lower() if value.split() else ""
    plural = last in {head + "s", head + "es"} or (head.endswith("y") and last == head[:-1] + "ies")
    if head.endswith("s") or not plural:
        return False
    return not names_one(value) or _quantified(text, value)


def _quantified(text: str, value: str) -> bool:
    """Whether a quantifier stands right before the value ("most CNN ... classifiers")."""
    at = text.find(value)
    words = re.findall(r"[A-Za-z]+", text[:at]) if at > 0 else []
    return bool(words) and words[-1].lower() in phrase_list("class_quantifiers")


# a sentence whose subject is a cited work: it opens with the citation ("BIBREF4 learns",
# "Ashby et al. ashby2016slate suggest", "ashby2016slate propose")
_CITED_SUBJECT = re.compile(
    r"^\W*(?:BIBREF\d+|[A-Z][\w'-]+(?:\s+(?:and|&)\s+[A-Z][\w'-]+)?\s+et\s+al\b|[a-z]+\d{4}[a-z]+\b)"
)
# a listed item: a short label, a colon, then its description ("SlateCNN: a convolutional ...")
_LABELLED = re.compile(r"^\W*[\w+.-]+(?:\s[\w+.-]+){0,2}\s*:\s")


def anothers_work(text: str) -> bool:
    """Whether the sentence speaks of another work's thing: a cited work is its subject, or it
    describes a listed item and cites it, and it says nothing of the paper's own."""
    if WE_OR_OUR.search(text):
        return False
    return bool(_CITED_SUBJECT.match(text)) or bool(_LABELLED.match(text) and cites_others(text))


# a generic sentence opens with the thing in general as its subject: a bare or indefinite noun,
# at most two words before it ("Word embeddings are dense vectors", "A loss function is ...")
_GENERIC_OPENING = re.compile(r"^\W*(?:(?:a|an)\s+)?(?:[\w-]+\s+){0,2}$", re.I)
_DEFINITE = re.compile(r"^\W*(?:the|this|these|our|its|their|each|every)\b", re.I)


def generic(text: str, start: int, linked: str) -> bool:
    """Whether "X is/are ..." defines the thing in general rather than stating the paper's
    choice: the mention opens the sentence without a definite determiner and the sentence
    says nothing of the paper's own ("we", "our")."""
    if not re.search(r"\s(?:is|are|include[sd]?)\s", linked + " ") or WE_OR_OUR.search(text):
        return False
    return _GENERIC_OPENING.match(text[:start]) is not None and not _DEFINITE.match(text)
