"""Name phrases in free-phrase columns (agent/comparison/aspect_readers/phrases/columns.py) read
from the paper's statement of its own choice: "we use the Universal Sentence Encoder", "we
train an LDA topic model", "we adopt the turn attention mechanism" give the object of the verb
of use, whole, up to the phrase's head noun. A kind named in passing where the paper frames its
field ("many machine learning algorithms take ...") is no such statement. The verbs live in
agent/data/matrix_phrases.txt. Also here: what says a sentence is about another work or about
more than the phrase (a number credited to a cited work, a coordinated subject, initials).
"""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import cites_others, shorten, word_list
from citewise.agent.comparison.aspect_readers.phrases.counts import modifies
from citewise.agent.comparison.aspect_readers.phrases.lists import phrase_list
from citewise.agent.comparison.aspect_readers.phrases.numbers import Reader
from citewise.agent.comparison.extraction import Unit

# the words an object may open with that name nothing: articles and possessives
_DETERMINERS = frozenset({"a", "an", "the", "our", "their", "its", "this", "these", "those"})
# words an object of use may hold besides its name: articles, coordination, "of"
_INSIDE = frozenset({"a", "an", "the", "and", "or", "of"})
MAX_OBJECT_WORDS = 16
# one name of a coordinated list, with the citation placeholder that may follow it
_ITEM = r"[^\s,]+(?:\s[A-Z]+REF\d+)?"


@cache
def use_verbs() -> str:
    """The verbs of use as an alternation, longest first ("make use of", "adopt", "employ")."""
    verbs = sorted(phrase_list("use_verbs"), key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(w) for w in v.split()) for v in verbs)


def _adverb() -> str:
    return "|".join(sorted(phrase_list("adverbs"), key=len, reverse=True))


def use_reader(mention: str) -> Reader:
    """The object of "we (also) use/adopt/train ..." that ends with the phrase's mention, from
    the words that say which one ("we use the pre-trained GloVe word embeddings" gives
    "pre-trained GloVe word embeddings"; "we propose MetaLDA, a topic model" gives "MetaLDA";
    names sharing the head, "the ConceptNet, WordNet and MCG knowledge bases", all of them).
    None where nothing but articles, counts or vague words stand before the mention ("we use
    two different word embeddings"), where the object runs through a clause ("we use X to
    train Y") or where the mention modifies a noun after it ("the target language side")."""
    statement = re.compile(
        rf"\b(?:we|I)\s+(?:(?:{_adverb()}|\w+ly)\s+){{0,2}}(?:{use_verbs()})\s+"
        rf"(?P<obj>(?:[^\s.;:!?]+\s+){{0,{MAX_OBJECT_WORDS}}}?)(?P<m>{mention})(?![\w-])"
        rf"(?:\s+(?P<next>[\w-]+))?",
        re.I,
    )
    stops = (word_list("dangling") - _INSIDE) | phrase_list("name_stops")
    single = {v for v in phrase_list("use_verbs") if " " not in v}

    def read(text: str) -> tuple[str, bool] | None:
        for m in statement.finditer(text):
            obj = m.group("obj")
            verbs = [v for v in re.finditer(r"\band\s+(\S+)", obj) if v.group(1).lower() in single]
            if verbs:  # "we follow BIBREF2 and use supervised ...": the last verb's object
                obj = obj[verbs[-1].end() :].lstrip()
            words = obj.split()
            if any(w.lower().strip(",()") in stops for w in words):
                continue  # "we use GloVe to initialise the word embeddings": another clause
            if m.group("m")[-1:].lower() != "s" and modifies(m.group("next") or ""):
                continue  # "the target language side": the mention names a kind of side
            which = _which(obj)
            if which is None:
                continue
            at = m.end("obj") - len(obj)
            if which == "":
                return (text[at : m.end("m")].split(",")[0].strip(), False)
            start = text.find(which, at)
            if start >= 0:
                return (text[start : m.end("m")], False)
        return None

    return read


def _which(obj: str) -> str | None:
    """The words of a verb's object before the mention that say which one: the last item of
    a list where it has its own ("1024-dimensional LSTMs, 128-dimensional"), the whole list
    where its items share the mention ("ConceptNet, WordNet and MCG"); "" for an appositive
    ("MetaLDA, a"); None where nothing says which one."""
    items = re.split(r",\s|\s(?:and|or)\s", " " + obj + " ")
    last = _meaningful(items[-1].split())
    pair = re.search(
        rf"(?:^|(?<=\s))(?P<names>(?:{_ITEM}\s?,\s)*{_ITEM}),?\s(?:and|or)\s"
        + re.escape(items[-1].strip())
        + r"\s*$",
        obj,
    )
    names = re.split(r"\s?,\s", pair["names"]) if pair else []
    if last and pair and all(_meaningful(n.split()) for n in names):
        return obj[pair.start("names") :].strip()  # "CBOW and SkipGram word embeddings": both
    if len(items) > 1 and not last:
        own_article = re.fullmatch(r"\s*(?:a|an|the)\s*", items[-1], re.I)
        if own_article and obj.rstrip().endswith(", " + items[-1].strip()):
            return "" if _meaningful(items[0].split()) else None  # "MetaLDA, a topic model"
        if (
            own_article
            or not re.search(r"\s(?:and|or)\s", " " + obj)
            or not all(_meaningful(i.split()) for i in items[:-1] if i.strip())
        ):
            return None
        words = obj.split()
        while words and words[0].lower() in _DETERMINERS:
            words.pop(0)
        return " ".join(words) or None
    if not last:
        return None
    return " ".join(last)


def _meaningful(words: list[str]) -> list[str]:
    """The words from the first that says which one: articles, counts, quantities ("a set
    of", "two"), vague and generic words and citation placeholders dropped."""
    vague = word_list("vague_modifiers") | phrase_list("vague_adjectives")
    counts = phrase_list("number_words") | phrase_list("quantity_nouns")
    kept = list(words)
    while kept:
        w = kept[0].lower().strip("(),")
        if (
            w in _DETERMINERS
            or w in vague
            or w in counts
            or w == "of"
            or w.isdigit()
            or re.fullmatch(r"(?:[A-Z]+REF|INLINEFORM|DISPLAYFORM)\d*", kept[0].strip("(),"))
            or w in phrase_list("adverbs")
            or w.endswith("ly")
            or w in {"and", "or"}
            or len(w) > 5
            and w.endswith(tuple(phrase_list("predicate_suffixes")))
        ):
            kept.pop(0)
        else:
            break
    if all(re.fullmatch(r"\W*(?:[A-Z]+REF\d+|INLINEFORM\d+)\W*", w) for w in kept):
        return []
    return kept


def stated_use(text: str, mention: str) -> bool:
    """Whether the sentence states the paper's own use of the mentioned thing: "we use/adopt
    ... X", "our X", "X we use"."""
    own = re.compile(
        rf"\b(?:we|I)\s+(?:(?:{_adverb()}|\w+ly)\s+){{0,2}}(?:{use_verbs()})\b[^.;:]{{0,120}}?"
        rf"{mention}|\bour\s+(?:[\w-]+\s+){{0,3}}{mention}|{mention}\w*\s+(?:that\s+)?we\s+"
        rf"(?:{use_verbs()})",
        re.I,
    )
    return own.search(text) is not None


def names_one(value: str) -> bool:
    """Whether a value names which one rather than a kind: a word with a capital after its
    first letter or a digit ("GloVe", "300-dimensional", "BERT"), or a capitalised word that
    is not the value's first ("pre-trained Glove word embeddings")."""
    words = value.split()
    return any(
        re.search(r"\d|.[A-Z]", w) or (i > 0 and w[:1].isupper()) for i, w in enumerate(words)
    )


_CAPTION = re.compile(r"^\W*(?:Figure|Fig\.|Table)\s*[\w.]*\s*[:.]", re.I)


def caption(text: str) -> bool:
    """Whether the sentence is a figure's or table's caption ("Figure 3: Neural attention
    mechanism for ..."): it labels a picture and states no choice."""
    return _CAPTION.match(text) is not None


# the paper speaking of its own work, or a thing said to be used ("we adopt ...", "X is used")
_OWN_USE = re.compile(
    r"\b(?:we|our|us)\b|\bth(?:is|e present) (?:paper|work|study|article)\b|"
    r"\b(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:used|adopted|employed|applied|"
    r"chosen|utili[sz]ed)\b",
    re.I,
)


def framing(unit: Unit) -> bool:
    """Whether the sentence stands where a paper frames its field rather than describes its
    own setup (abstract, introduction, conclusion; agent/data/matrix_phrases.txt)."""
    names = phrase_list("framing_sections")
    for heading in unit.section.split(" > "):
        words = " " + re.sub(r"^(?:[\d.]+|[IVXivx]+\.)\s*", "", heading.strip()).lower() + " "
        if any(f" {n} " in words for n in names):
            return True
    return False


def in_passing(unit: Unit, mention: str) -> bool:
    """Whether a kind is named in passing: where the paper frames its field without stating
    its own use of the thing, or after a citation in a sentence that says nothing of the
    paper's own work ("the model of BIBREF12 is based on the weighted attention ...")."""
    text = unit.text
    if framing(unit) and not stated_use(text, mention):
        return True
    m = re.search(mention, text, re.I)
    return m is not None and cites_others(text[: m.start()]) and not own_use(text)


def own_use(text: str) -> bool:
    """Whether the sentence speaks of the paper's own work or of a thing being used."""
    return _OWN_USE.search(text) is not None


def credited(text: str, value: str) -> bool:
    """Whether a number belongs to the cited work a sentence describes: a citation stands
    before it and the sentence says nothing of the paper's own work or use ("Authors in
    BIBREF10 collected 1400 sentences", "LSTM BIBREF9 is a gated RNN with three gating
    layers"); "... is based on BIBREF10, with embeddings of size 25" or "we follow BIBREF3
    with 2 layers" are the paper's own."""
    at = text.find(value)
    if at < 0 or not cites_others(text[:at]) or own_use(text):
        return False
    return not any(_used(w) for w in re.findall(r"[a-z]+", text.lower()))


def _used(word: str) -> bool:
    """A form of a verb of use ("using", "follows", "based"; agent/data/matrix_phrases.txt)."""
    verbs = _use_words()
    return (
        word in verbs
        or word.rstrip("s") in verbs
        or (word.endswith("ing") and (word[:-3] in verbs or word[:-3] + "e" in verbs))
    )


@cache
def _use_words() -> frozenset[str]:
    return phrase_list("use_verbs") | phrase_list("own_use_words")


def copula_reader(mention: str) -> Reader:
    """The name a sentence opens with and says is one of the phrase's kind: "ULMFiT is an NLP
    transfer learning algorithm that we picked", "Logistic regression is a statistical
    learning algorithm" give the name; a subject that is a pronoun, determiner or vague word
    ("This model is a ...") names none."""
    copula = re.compile(
        rf"^\W*(?P<v>[A-Z][\w.+-]*(?:\s+[A-Za-z][\w.+-]*){{0,3}}?)\s*(?:\([^)]{{0,30}}\)\s*)?"
        rf"(?:(?:[A-Z]+REF\d+|,)\s*)*\s(?:is|was)\s+(?:a|an)\s+(?P<kind>(?:[\w,-]+\s+){{0,6}}?){mention}",
        re.I,
    )
    stops = word_list("dangling") | word_list("vague_modifiers") | phrase_list("name_stops")

    def read(text: str) -> tuple[str, bool] | None:
        m = copula.match(text)
        if not m or any(w.lower() in stops for w in m.group("v").split()):
            return None
        if any(w.lower().strip(",") in word_list("dangling") for w in m.group("kind").split()):
            return None  # "X is a model which uses the ...": the phrase is in another clause
        return (m.group("v"), False)

    return read


def coordinated(text: str, m: re.Match[str]) -> bool:
    """Whether the linked subject joins the phrase to another noun ("the source and target
    languages consist of ...", "the dimensions of character and tag embedding are 200 and
    40"): what follows is said of both, not which one the phrase is."""
    before = text[: m.start()].split()[-2:]
    return bool(re.search(r"\s(?:and|or)\s", m.group())) or (
        len(before) == 2 and before[1].lower() in {"and", "or"}
    )


# a proper name of a model, tool or resource: capitalised with a capital or digit inside, or
# with a digit ("BERT", "GPT-2", "RoBERTa", "GloVe", "word2vec", "fastText", "XLNet")
NAME = r"(?:[A-Z][\w.+-]*[A-Z0-9][\w.+-]*|[a-z]+[A-Z0-9][\w.+-]*)"


def named_after(mention: str) -> Reader:
    """The name a kind is given right after it, with no comma or bracket: "the bidirectional
    transformer model BERT", "the sentence encoder SkipThought" give the name. None where the
    mention is capitalised (inside a longer name: "Auxiliary Classifier GAN"), the name is a
    placeholder or the mention's own initials ("language model LM"), or it runs on into
    another capitalised word."""
    after = re.compile(
        rf"\b(?P<m>(?i:{mention}))\s+(?P<v>{NAME})"
        r"(?=\s*[),.;:]|\s+(?:and|or|to|is|was|are|were|for|with|on|in|as|which|that|by)\b|\s*$)"
    )

    def read(text: str) -> tuple[str, bool] | None:
        for m in after.finditer(text):
            name = m.group("v").rstrip(".")
            if m.group("m")[:1].isupper() or re.search(r"REF\d|FORM\d|^UID\d", name):
                continue
            if abbreviation(name, text[: m.start("v")]):
                continue
            return (name, False)
        return None

    return read


def stated_reader(mention: str) -> Reader:
    """The paper's statement of which one: the name right after its kind, read before the
    object of a verb of use, which ends at the kind ("we use the transformer model BERT")."""
    given, used = named_after(mention), use_reader(mention)

    def read(text: str) -> tuple[str, bool] | None:
        return given(text) or used(text)

    return read


def abbreviation(name: str, before: str) -> bool:
    """Whether `name` only abbreviates the words just before it ("recurrent neural language
    model (RNNLM)", "masked language models (MLMs)"): its capitals all among their initials
    (an acronym among them counted letter by letter), its first one too."""
    letters = re.sub(r"[^A-Z]", "", name)
    words = re.findall(r"[A-Za-z]+", before)[-5:]
    initials = "".join(w if w.isupper() else w[:1].upper() for w in words)
    return len(letters) >= 2 and letters[0] in initials and set(letters) <= set(initials)


# a plural kind followed by the list of its members: "three classifiers: SVM, NB and LR",
# "several models, including Naive Bayes and SVM" (42 of the 315 QASPER pool papers write a
# kind noun then ":"/"including"/"namely" and a capitalised name)
MAX_LISTED_WORDS = 4  # words of one listed name ("Support Vector Machine (SVM)")
_LISTED = r"(?:\s*\([^)]{0,30}\))?(?:\s*:|,?\s+(?:including|namely))\s+"


def listed_reader(mention: str) -> Reader:
    """The members a plural kind lists right after it ("we train three text classifiers:
    SVM, NB and LR" gives "SVM, NB and LR"): the names, not the kind. None unless the list
    opens with a name and names one (a capital inside a word, a digit, a later capital)."""
    kind = re.compile(rf"\b(?i:{mention})(?<=s){_LISTED}(?P<v>\S)")

    def read(text: str) -> tuple[str, bool] | None:
        m = kind.search(text)
        if m is None:
            return None
        start = m.start("v")
        end = _CLAUSE_STOP.search(text, start)
        value = text[start : end.start() if end else len(text)].strip(" ,")
        first = re.split(r",|\s(?:and|or)\s", value)[0].split()
        if len(first) > MAX_LISTED_WORDS or not re.match(rf"{NAME}|[A-Z][a-z]", value):
            return None  # "X: It is a classical RNN classifier": a description, no list
        if first[0].lower() in word_list("dangling") or not names_one(value):
            return None
        return shorten(value)

    return read


_CLAUSE_STOP = re.compile(r"[;:]|\.(?:\s|$)|\s(?:which|that|to|for|on|in|as|with|from)\s")
