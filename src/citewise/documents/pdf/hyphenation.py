"""Line text repair: whitespace, spacing accents and words hyphenated at line ends."""

from __future__ import annotations

import re
import string
import unicodedata
from itertools import repeat

SPACING_ACCENTS = {
    "¨": "\u0308",
    "´": "\u0301",
    "`": "\u0300",
    "ˆ": "\u0302",
    "˜": "\u0303",
    "ˇ": "\u030c",  # Mináˇc -> Mináč
    "˘": "\u0306",  # Do˘gan -> Doğan
    "˚": "\u030a",
}


ACCENT = re.compile("[" + "".join(SPACING_ACCENTS) + "]")
ACCENTED = re.compile(r"([¨´`ˆ˜ˇ˘˚])\s?([A-Za-z])")


def clean(text: str) -> str:
    """Collapse whitespace and fold spacing accents (F¨arber -> Färber)."""
    # str.isascii is a flag lookup; of the accents only the backtick is ASCII
    if (not text.isascii() or "`" in text) and ACCENT.search(text):
        text = ACCENTED.sub(lambda m: m.group(2) + SPACING_ACCENTS[m.group(1)], text)
        text = unicodedata.normalize("NFC", text)
    return " ".join(text.split())  # str.split's whitespace is the regex \s, runs collapsed


def join_rows(
    lines: list[str], vocab: frozenset[str] = frozenset(), collapsed: bool = False
) -> str:
    """Join line texts with spaces, repairing words hyphenated at line ends. `collapsed`:
    the lines' whitespace is collapsed already (rows' texts are: `clean`)."""
    parts: list[str] = []  # joined once at the end (adding line by line is quadratic)
    for line in lines:
        if not collapsed:
            line = " ".join(line.split())
        if not line:
            continue
        if not parts:
            parts.append(line)
        elif parts[-1].endswith(("-", "\u00ad")):  # join_hyphenated decides on the text so far
            parts = [join_hyphenated("".join(parts), line, vocab)]
        else:  # what join_hyphenated does with a line that ends in no hyphen
            parts += (" ", line)
    return "".join(parts)


def join_hyphenated(left: str, right: str, vocab: frozenset[str] = frozenset()) -> str:
    """'implemen-' + 'tation' -> 'implementation'; 'state-of-the-' + 'art' keeps hyphens.

    `vocab` holds the document's own words (lower-case): when the joined word occurs
    elsewhere unbroken ('MrBayes') the hyphen goes, when it occurs hyphenated it stays.
    """
    if left.endswith("\u00ad"):
        return left[:-1] + right
    if not left.endswith("-") or left.endswith((" -", "--")):
        return f"{left} {right}"
    fragment = _last_fragment(left, len(left) - 1)
    head = _HEAD.match(right)
    if fragment and head and fragment.replace("-", "").isalnum():
        whole = (fragment + head.group(0)).lower()
        hyphenated = (fragment + "-" + head.group(0)).lower()
        if whole in vocab and hyphenated not in vocab:
            return left[:-1] + right
        if hyphenated in vocab:
            return left + right
        if head.group(0)[:1].islower() and is_compound(fragment, head.group(0), vocab):
            return left + right
    # otherwise drop the hyphen only for a plain word broken by the typesetter
    if fragment.isalpha() and right[:1].islower():
        return left[:-1] + right
    return left + right


def _last_fragment(text: str, end: int) -> str:
    """re.split(r"[\\s/(\\[]", text[:end])[-1], read from the end: the piece after the
    last space, slash or opening bracket (splitting a long paragraph costs a pass)."""
    start = end
    while start > 0:
        char = text[start - 1]
        if char.isspace() or char in "/([":
            break
        start -= 1
    return text[start:end]


def is_compound(fragment: str, head: str, vocab: frozenset[str]) -> bool:
    """A real hyphen at a line break: 'automatically-' + 'detected', 'non-' + 'linear'.

    Decided by a short list of compound parts and by both halves being words of the
    document on their own, which syllables a typesetter breaks at ('implemen', 'tation')
    seldom are.
    """
    first, second = fragment.lower().rsplit("-", 1)[-1], head.lower()
    if first in KEEP_PREFIXES or second in KEEP_TAILS:
        return True
    if f"{first}-{second}" in COMPOUNDS:
        return True
    if first.endswith("ly") and len(first) >= 5 and len(second) >= 4:
        return True  # an adverb before a participle: 'publicly-available'
    return len(first) >= 4 and len(second) >= 4 and first in vocab and second in vocab


KEEP_PREFIXES = frozenset({"non", "self", "cross", "semi", "quasi", "pseudo", "well", "state"})
KEEP_TAILS = frozenset(
    "based level specific like aware wise free driven scale grained oriented dependent "
    "enhanced provided parsed cleaned detected trained tuned annotated labeled labelled "
    "related independent agnostic friendly sensitive only art the".split()
)
COMPOUNDS = frozenset(
    "real-world large-scale small-scale end-to open-source well-known so-called long-term "
    "short-term high-quality low-resource multi-task multi-modal multi-lingual multi-label "
    "pre-trained pre-training post-processing co-occurrence co-author co-authors in-domain "
    "out-of-domain out-of fine-tuning fine-grained one-hot state-of-the".split()
)


def vocabulary(texts: list[str]) -> frozenset[str]:
    """Lower-case words (hyphenated compounds too) seen in the document's lines."""
    lines = _unbroken(texts)
    # a word is letters, digits and hyphens, so none spans a line break: ASCII lines are
    # split at C speed (_ascii_words), the others by the regex; each distinct word as
    # written is lower-cased once
    plain = [t for t in lines if t.isascii()]
    words = _ascii_words("\n".join(plain)) if plain else set()
    if len(plain) < len(lines):
        other = "\n".join([t for t in lines if not t.isascii()])
        words.update(map(str.lower, set(_WORD.findall(other))))
    return frozenset(words)


def _unbroken(texts: list[str]) -> list[str]:
    """The lines without the pieces of words broken at a line end (neither the piece
    before the hyphen nor the rest of it that opens the next line is a word). Only lines
    ending in a hyphen and the lines after them can change: the others are not looked at."""
    ends = [i for i, t in enumerate(texts) if t.rstrip().endswith("-")]
    if not ends:
        return texts
    lines = list(texts)
    broken_at = -2  # the last line that ends in a broken word
    for i in sorted({*ends, *[i + 1 for i in ends if i + 1 < len(texts)]}):
        text = texts[i]
        if broken_at == i - 1:  # nor is the rest of it that opens the next line
            text = _FIRST_WORD.sub("", text)
        end = text.rstrip()
        if end.endswith("-") and _BROKEN.match(end, max(0, len(end) - 2)):  # ends there
            broken_at = i
        if text.endswith(("-", "-\n")):  # where `$` can match
            text = _LAST_BROKEN.sub("", text)  # a word broken at the line end is not a word
        lines[i] = text
    return lines


def _ascii_words(text: str) -> set[str]:
    """_WORD's matches in ASCII `text`, lower-cased: in each run of word characters and
    hyphens, the stretch from its first letter or digit to its last, when two or more."""
    runs = set(text.encode("ascii").translate(_ASCII_RUNS).lower().decode("ascii").split())
    words = set(map(str.strip, runs, repeat("_-")))
    words -= _SHORT  # one character (or none) left: no match
    return words


# every byte but ASCII letters, digits, '_' and '-' becomes a space
_ASCII_RUNS = bytes(
    b if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "_-") else 32 for b in range(256)
)
_SHORT = frozenset(["", *string.ascii_lowercase, *string.digits])
_FIRST_WORD = re.compile(r"^\s*\S+")
_BROKEN = re.compile(r"[^\W\d_]-$")
_LAST_BROKEN = re.compile(r"\S+-$")
_WORD = re.compile(r"[^\W_][\w-]*[^\W_]")
_HEAD = re.compile(r"[^\W_]+")
