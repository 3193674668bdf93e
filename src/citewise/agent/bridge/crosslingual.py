"""Chinese questions over English papers, with no model and no network (issue 19).

A Chinese question is segmented and its words translated offline (lang/zh.py); here the
words are put in the order an English question has, so that the normal analysis and hybrid
search run on it. Where a word has several senses, the library decides: the sense its papers
use most is the search term, the other used senses cover it as aliases. Answers stay
verbatim quotes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citewise.lang.zh import (
    HAN_CHAR,
    PUNCT,
    Frequencies,
    _by_use,
    dictionary,
    is_chinese,
    is_verb,
    segment,
    used_senses,
    word_forms,
)
from citewise.lang.zh_labels import english_labels
from citewise.lang.zh_senses import (
    VERB_CONTEXT,
    choose_in_context,
    composed_in_context,
    inflections,
)
from citewise.lang.zh_shapes import LIST_MARK, shaped
from citewise.lang.zh_words import (
    COMPARATIVES,
    GLOSSARY,
    MEASURE_WORDS,
    QUESTION_FORMS,
    QUESTION_WORDS,
    STOPWORDS,
)
from citewise.retrieval.terms import content_terms, stem

__all__ = ["Bridged", "bridge", "is_chinese", "native_terms", "segment"]

_QUESTION_PHRASES = dict(QUESTION_WORDS)
_CLAUSES = re.compile(r"[，,；;]")
_SENTENCE_END = re.compile(r"(?<=[?!.])\s*(?![\d])")
_DATE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月")
_YEAR = re.compile(r"(\d{4})\s*年")
_MONTHS = "January February March April May June July August September October November December"
# Full-width punctuation -> ASCII, so English fragments read as they would in English.


@dataclass
class Bridged:
    """A Chinese question and the English question the answerer runs on."""

    original: str
    english: str
    glosses: list[tuple[str, str]] = field(default_factory=list)  # (Chinese word, English)
    aliases: dict[str, list[frozenset[str]]] = field(default_factory=dict)
    expansion: list[str] = field(default_factory=list)  # other senses the library uses
    # the library itself is in Chinese here: search the question's own words (native_terms)
    native: bool = False
    # Chinese content words no dictionary reading covers (not searched in English)
    unknown: list[str] = field(default_factory=list)
    # (Chinese word, English) of the question's names and unambiguous words: the context
    # that chooses between the other words' senses
    context: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    verbs: set[str] = field(default_factory=set)  # verbs the library writes in context


def _question_form(text: str) -> tuple[str, str]:
    """("What does {} stand for?", the question without its form words), or ("", text)."""
    for chinese, form in QUESTION_FORMS:
        if chinese in text:
            return form, text.replace(chinese, " ")
    return "", text


# A word's part in a clause: a question word, a boundary (particle, verb), content (its
# English), a word without a reading, or 的 (which joins a noun phrase's parts).
_ASK, _BOUNDARY, _CONTENT, _UNKNOWN, _OF = "ask", "boundary", "content", "unknown", "of"
# a verb the library writes beside the question's other words ("持续": "last"): searched and
# scored, never part of the asked phrase
_VERB = "verb"


def _clause(
    words: list[str], frequencies: Frequencies | None, bridged: Bridged, noun: bool = False
) -> str:
    """One clause in English: its question word, then the phrase it asks about (the words
    right after it, as in "多少个 PDF", else right before it, as in "准确率是多少": a
    Chinese noun phrase has the English order, modifiers first), then the rest in order."""
    phrases = dict(QUESTION_WORDS)
    parts: list[tuple[str, str]] = []  # (role, English)
    for n, word in enumerate(words):
        if phrases.get(word) == "compare" and n > 0:
            parts.append((_CONTENT, "comparison"))  # a noun ("the comparison") here
        elif word in phrases:
            parts.append((_ASK, phrases[word]))
        elif n + 1 < len(words) and word in COMPARATIVES and words[n + 1] in phrases:
            parts.append((_CONTENT, COMPARATIVES[word]))  # "快多少": "how much faster"
        else:
            # what a count asks about is a noun ("多少个示例": examples), whatever else
            # the dictionary says the word can be
            counted = noun or _counted(words[:n])
            english = _translate(word, frequencies, bridged, noun=counted)
            if english:
                parts.append((_VERB if word in bridged.verbs else _CONTENT, english))
            elif word == "的":
                parts.append((_OF, ""))
            elif not HAN_CHAR.search(word) or word in STOPWORDS or len(word) == 1:
                parts.append((_BOUNDARY, ""))
            elif not is_verb(word):
                # no reading: kept as written, so that an answer must still account for it
                # when it is part of what is asked (it matches no English passage)
                bridged.unknown.append(word)
                parts.append((_UNKNOWN, word))
            else:
                parts.append((_BOUNDARY, ""))
    asks = [n for n, (role, _) in enumerate(parts) if role == _ASK]
    if not asks:
        return " ".join(e for role, e in parts if role in (_CONTENT, _VERB))
    at = asks[0]
    if at > 0 and parts[at - 1][1] in COMPARATIVES.values():
        # "X 比 Y 快多少": how much faster, and nothing else is what is asked
        parts[at] = (_ASK, "how many times" if parts[at][1] == "how many times" else "how much")
        asked = [at - 1]
    else:
        asked = _after(parts, at + 1) or _before(parts, at - 1)
    # a rate ("每秒": per second) qualifies the quantity asked, wherever the clause has it
    asked += [n for n, (role, e) in enumerate(parts) if role == _CONTENT and e[:4] == "per "]
    asked = list(dict.fromkeys(asked))
    rest = [e for n, (role, e) in enumerate(parts) if role in (_CONTENT, _VERB) and n not in asked]
    words_asked = [parts[n][1] for n in asked]
    later = [e for n, (role, e) in enumerate(parts) if role == _ASK and n != at]
    if words_asked and (later or rest):
        # the comma closes the asked phrase, so it is what the answer has to name
        words_asked[-1] += ","
    return " ".join([parts[at][1], *words_asked, *later, *rest])


def _counted(before: list[str]) -> bool:
    """Whether the next word is what a count asks about: right after "多少" or "几",
    past measure words only ("多少个示例", not "多少人来自")."""
    phrases = dict(QUESTION_WORDS)
    for word in reversed(before):
        if phrases.get(word, "").startswith("how many"):
            return True
        if not (len(word) == 1 and word in MEASURE_WORDS):
            return False
    return False


def _after(parts: list[tuple[str, str]], start: int) -> list[int]:
    """The noun phrase after a question word ("多少条论文之间的引用链接"), past measure words,
    across 的 up to the next boundary; its head (after the last 的) first, as English puts
    it: "citation links between papers"."""
    n = start
    while n < len(parts) and parts[n][0] in (_BOUNDARY, _OF):
        n += 1
    pieces: list[list[int]] = [[]]
    while n < len(parts) and parts[n][0] in (_CONTENT, _UNKNOWN, _OF):
        if parts[n][0] == _OF:
            pieces.append([])
        else:
            pieces[-1].append(n)
        n += 1
    return [i for piece in reversed(pieces) for i in piece]


def _before(parts: list[tuple[str, str]], start: int) -> list[int]:
    """The words right before a question word ("准确率是多少"), back to a boundary or 的."""
    found: list[int] = []
    n = start
    while n >= 0 and parts[n][0] in (_CONTENT, _UNKNOWN):
        found.insert(0, n)
        n -= 1
    return found


def _translate(
    word: str, frequencies: Frequencies | None, bridged: Bridged, noun: bool = False
) -> str:
    if not HAN_CHAR.search(word):
        return word.translate(PUNCT).strip("?!.:,")
    if word in STOPWORDS or word in dict(QUESTION_WORDS):
        return ""
    if len(word) == 1 and word not in GLOSSARY:
        return ""  # a lone character is mostly grammar (到, 而, 出); its senses are many
    context = [english for other, english in bridged.context if other != word]
    if frequencies is not None and word not in dictionary() and not word.startswith("每"):
        senses = composed_in_context(word, frequencies, context)
    elif word in GLOSSARY:
        senses = GLOSSARY[word]  # in the glossary's order of preference
    else:
        senses = used_senses(word, frequencies)
    if not senses:
        return ""
    enough = sum(1 for senses_ in context if senses_) >= 2
    primary, others, fit = choose_in_context(
        senses, frequencies, context, is_verb(word), word in GLOSSARY
    )
    bridged.glosses.append((word, primary))
    if is_verb(word) and not noun:
        # a verb's translation rarely is the paper's verb ("耗费" is "take", not "waste"):
        # its senses help find passages; only a sense the library writes beside the
        # question's other words is a term of the question
        bridged.expansion += [t for sense in (primary, *others) for t in content_terms(sense)]
        if fit < VERB_CONTEXT or not enough:
            return ""
        bridged.verbs.add(word)
        if frequencies is not None:
            for form in inflections(senses, primary, frequencies):
                bridged.aliases.setdefault(stem(primary), []).append(frozenset([stem(form)]))
                bridged.expansion.append(form)
        return primary
    bridged.expansion += [t for other in others for t in content_terms(other)]
    for term in content_terms(primary):
        for other in others:
            bridged.aliases.setdefault(stem(term), []).append(
                frozenset(stem(t) for t in content_terms(other))
            )
        # a Chinese word is noun and adjective at once: "同源" is "homology" and "homologous"
        for form in word_forms(term, frequencies):
            bridged.aliases.setdefault(stem(term), []).append(frozenset([stem(form)]))
            bridged.expansion.append(form)
    return primary


def _dates(text: str) -> str:
    months = _MONTHS.split()
    text = _DATE.sub(lambda m: f" {months[int(m.group(2)) - 1]} {m.group(1)} ", text)
    return _YEAR.sub(lambda m: f" {m.group(1)} ", text)


def bridge(text: str, frequencies: Frequencies | None = None) -> Bridged:
    """The English question for a Chinese one; `frequencies` (term -> blocks using it)
    lets the library choose between a word's senses."""
    bridged = Bridged(original=text, english="")
    # a list's "、" stays apart from the clauses' commas for the question frames
    text = english_labels(_dates(text)).replace("、", LIST_MARK)
    sentences = [s for s in _SENTENCE_END.split(text.translate(PUNCT)) if s.strip()]
    if frequencies is not None:
        bridged.context = _context(" ".join(sentences), frequencies)
    bridged.english = " ".join(_sentence(s, frequencies, bridged) for s in sentences)
    return bridged


def _context(text: str, frequencies: Frequencies) -> list[tuple[str, tuple[str, ...]]]:
    """(word, its English readings the library uses) for each name, acronym and content
    word of the question: what tells the other words' senses apart."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for word in segment(text):
        if not HAN_CHAR.search(word):
            name = word.strip("?!.:,()，；")
            if re.search(r"[A-Za-z]", name) and content_terms(name):
                found.append((word, (name,)))
        elif word not in STOPWORDS and word not in _QUESTION_PHRASES and len(word) > 1:
            senses = used_senses(word, frequencies)
            used = _by_use(senses, frequencies) if len(senses) > 1 else list(senses)
            if used:
                found.append((word, tuple(used[:3])))
    return found


def _sentence(text: str, frequencies: Frequencies | None, bridged: Bridged) -> str:
    def translate(text: str, noun: bool = False) -> str:
        return _clause(segment(text), frequencies, bridged, noun)

    framed = shaped(text, translate)
    if framed:
        return framed
    form, rest = _question_form(text.replace(LIST_MARK, ","))
    parts: list[str] = []
    context: list[str] = []  # clauses without a question word lead into the next one
    for clause in (c for c in _CLAUSES.split(rest) if c.strip()):
        english = _clause(segment(clause), frequencies, bridged)
        if any(w in clause for w, _ in QUESTION_WORDS):
            parts.append(" ".join([english, *context]))
            context = []
        elif english:
            context.append(english)
    if context:
        parts = parts[:-1] + [" ".join([*parts[-1:], *context])]
    if form:
        return form.format(" ".join(parts))
    asking = any(w in text for w, _ in QUESTION_WORDS) or text.rstrip().endswith("?")
    # "..., and what ..." lets agent/ask/question.py split a two-part question
    sentence = ", and ".join(parts)
    return sentence[:1].upper() + sentence[1:] + ("?" if asking else ".")


def native_terms(text: str) -> list[str]:
    """The question's own Chinese words as search terms (character pairs), without its
    question words and particles: for a library whose documents are Chinese."""
    kept = [w for w in segment(text) if w not in _QUESTION_PHRASES and w not in STOPWORDS]
    return content_terms(" ".join(kept))
