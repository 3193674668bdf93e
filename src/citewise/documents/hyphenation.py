"""Line text repair: whitespace, spacing accents and words hyphenated at line ends."""

from __future__ import annotations

import re
import unicodedata

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


def clean(text: str) -> str:
    """Collapse whitespace and fold spacing accents (F¨arber -> Färber)."""
    if any(a in text for a in SPACING_ACCENTS):
        text = re.sub(
            r"([¨´`ˆ˜ˇ˘˚])\s?([A-Za-z])", lambda m: m.group(2) + SPACING_ACCENTS[m.group(1)], text
        )
        text = unicodedata.normalize("NFC", text)
    return re.sub(r"\s+", " ", text).strip()


def join_rows(lines: list[str], vocab: frozenset[str] = frozenset()) -> str:
    """Join line texts with spaces, repairing words hyphenated at line ends."""
    out = ""
    for line in lines:
        line = " ".join(line.split())
        if not line:
            continue
        out = join_hyphenated(out, line, vocab) if out else line
    return out


def join_hyphenated(left: str, right: str, vocab: frozenset[str] = frozenset()) -> str:
    """'implemen-' + 'tation' -> 'implementation'; 'state-of-the-' + 'art' keeps hyphens.

    `vocab` holds the document's own words (lower-case): when the joined word occurs
    elsewhere unbroken ('MrBayes') the hyphen goes, when it occurs hyphenated it stays.
    """
    if left.endswith("\u00ad"):
        return left[:-1] + right
    if not left.endswith("-") or left.endswith((" -", "--")):
        return f"{left} {right}"
    fragment = re.split(r"[\s/(\[]", left[:-1])[-1]
    head = re.match(r"[^\W_]+", right)
    if fragment and head and fragment.replace("-", "").isalnum():
        whole = (fragment + head.group(0)).lower()
        hyphenated = (fragment + "-" + head.group(0)).lower()
        if whole in vocab and hyphenated not in vocab:
            return left[:-1] + right
        if hyphenated in vocab:
            return left + right
    # otherwise drop the hyphen only for a plain word broken by the typesetter
    if fragment.isalpha() and right[:1].islower():
        return left[:-1] + right
    return left + right


def vocabulary(texts: list[str]) -> frozenset[str]:
    """Lower-case words (hyphenated compounds too) seen in the document's lines."""
    words: set[str] = set()
    for text in texts:
        text = re.sub(r"\S+-$", "", text)  # a word broken at the line end is not a word
        words.update(w.lower() for w in re.findall(r"[^\W_][\w-]*[^\W_]", text))
    return frozenset(words)
