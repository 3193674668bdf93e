"""A paper's own claims: which of its sentences state what the paper did or found, as opposed
to what other work reports (a citation inside the sentence, "X et al. report ...", a related-work
section), and which state a limitation rather than a method detail. Pure functions."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

# A cited work: "(Madaan et al., 2023; Shinn et al., 2023b)", "Shinn et al. (2023)", "[12, 14]".
_AUTHOR_CITE = re.compile(
    r"\b([A-Z][\w'-]+)(?: et al\.?| and [A-Z][\w'-]+)?,?\s*\(?((?:19|20)\d\d[a-z]?)\b"
)
_NUMBER_CITE = re.compile(r"\[(\d+(?:\s*[,–-]\s*\d+)*)\]")
# Citation markers the parsers leave in place of a reference ("BIBREF12", "[12]").
_MARKER = re.compile(r"\bBIBREF\d+|\[\d+(?:\s*[,–-]\s*\d+)*\]")
# A sentence in the paper's own voice: its authors speak ("we", "our", "this paper").
_OWN_VOICE = re.compile(
    r"\b(?:we|our|us)\b|\bthis (?:paper|work|study|article)\b|\bin this (?:paper|work)\b", re.I
)
# Another work as the sentence's subject: "Tkaczyk et al. (2018) report", "Smith (2019) shows".
_CITED_SUBJECT = re.compile(
    r"^(?:[A-Z][\w'-]+(?: et al\.?| and [A-Z][\w'-]+)?\s*\(\s*(?:19|20)\d\d[a-z]?\s*\)"
    r"|BIBREF\d+|\[\d+\])"
)
# Limitations the authors state as such (the words alone say so) ...
_STATED_LIMITATION = re.compile(
    r"\b(?:limitations?|future work|in the future|drawbacks?|shortcomings?|unfortunately|"
    r"remains? (?:unclear|open|an open|a challenge)|not yet|open (?:problem|question|challenge)s?|"
    r"left for future|we leave|leave .{0,40} for future|challenges?|lacks?|lacking|impeded?)\b",
    re.I,
)
# ... and difficulties ("cannot", "errors") named in the sections where they are limitations,
# not method details (a filter rule "we filter out PDFs that produce an error" is not one).
_LIMITATION_SECTION = re.compile(
    r"limitation|limited|discussion|conclusion|future|error analysis|challenge|problem", re.I
)
_DIFFICULTY = re.compile(
    r"\b(?:cannot|could not|does not|do not|fail\w*|errors?|difficult\w*|hard|bias\w*|"
    r"limited|only|however|although|insufficient|gap|unrealistic)\b",
    re.I,
)


@lru_cache(maxsize=1)
def background_sections() -> tuple[str, ...]:
    """Section names that report other work (data/background_sections.txt)."""
    path = resources.files("citewise.agent.research").joinpath("data", "background_sections.txt")
    lines = path.read_text("utf-8").splitlines()
    return tuple(line.strip().lower() for line in lines if line.strip() and line[0] != "#")


def in_background_section(section: str) -> bool:
    """Whether a section path ("2 Related work > Parsers") is a review of other work."""
    parts = [re.sub(r"^[\dA-Z]?[\d.]*\s+", "", p).strip().lower() for p in section.split(">")]
    return any(
        p == name or p.startswith(name + " ") for p in parts for name in background_sections()
    )


def citations_in(text: str) -> set[str]:
    """The distinct works a text cites: author-year pairs, else bracketed numbers."""
    found = {f"{a} {y}" for a, y in _AUTHOR_CITE.findall(text)}
    for group in _NUMBER_CITE.findall(text):
        found |= {f"[{n.strip()}]" for n in re.split(r"[,–-]", group)}
    return found


def reports_other_work(sentence: str) -> bool:
    """A sentence about other work: it cites several works, or another work is its subject, or
    the paper's authors do not speak in it ("We parse with GROBID (Lopez, 2009)" is their own)."""
    works = citations_in(sentence) | set(_MARKER.findall(sentence))
    if not works:
        return False
    if len(works) > 1:  # a list of others' works ("such as A (2009), B (2015) and C (2019)")
        return True
    return bool(_CITED_SUBJECT.match(sentence.strip())) or not _OWN_VOICE.search(sentence)


def is_own_claim(sentence: str, section: str) -> bool:
    """Whether a sentence can stand for the paper's own claim in a report."""
    return not in_background_section(section) and not reports_other_work(sentence)


def states_limitation(sentence: str, section: str) -> bool:
    """A limitation the authors state: limitation words, or a difficulty named in a
    limitations, discussion, conclusion, problems or future-work section."""
    if _STATED_LIMITATION.search(sentence):
        return True
    return bool(_LIMITATION_SECTION.search(section) and _DIFFICULTY.search(sentence))
