"""Two columns a user types about a paper's own data: its size and its languages.

- `dataset size`: what the paper's own data holds, counted, with its unit ("more than 40M
  user click sessions", "we collected 12,000 tweets"): the counted readings of
  aspect_readers/matrix_datasets.py, which rank below names in the datasets cell and are the
  value here.
- `languages`: the languages the paper's own sentences name (not a sentence citing others),
  from the [language_names] list of agent/data/matrix_cells.txt ("English" from "English
  tweets"; "an Italian." is a person); the paper's languages are the ones it names most, and
  the cell is the sentence naming most of them, with the others it lists ("Spanish, Italian
  and German"). A paper naming none is "not stated". The paper's own list of its languages
  ("we extend the corpus to six languages: Chinese, French, ...") is the cell where it names
  more languages than the count finds.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

from citewise.agent.comparison.aspect_readers.matrix_cells import cites_others, word_list
from citewise.agent.comparison.aspect_readers.matrix_datasets import dataset_findings
from citewise.agent.comparison.aspect_readers.matrix_datasets_counted import named_counts
from citewise.agent.comparison.extraction import WE_OR_OUR, Finding, Unit

SIZE = "dataset size"
LANGUAGES = "languages"
DATA_FACTS = (SIZE, LANGUAGES)
# what a user writes for these two columns (one word or a short phrase)
DATA_FACT_ALIASES = {
    "data size": SIZE,
    "dataset sizes": SIZE,
    "corpus size": SIZE,
    "size of the dataset": SIZE,
    "size of the data": SIZE,
    "size of the corpus": SIZE,
    "size of dataset": SIZE,
    "number of examples": SIZE,
    "number of samples": SIZE,
    "number of instances": SIZE,
    "language": LANGUAGES,
    "languages studied": LANGUAGES,
    "languages used": LANGUAGES,
    "languages covered": LANGUAGES,
    "language studied": LANGUAGES,
    "data language": LANGUAGES,
}
# a count drawn at random from the data is a sample of it, not its size ("we randomly sampled
# 20 questions from each dataset")
_SAMPLED = re.compile(r"\brandomly\s+(?:\w+\s+){0,2}$", re.I)
# a language named this share of the top language's mentions is one of the paper's too
SHARE_OF_TOP = 0.3


def data_fact_findings(aspect: str, paper_units: list[Unit]) -> list[Finding]:
    if aspect == SIZE:
        _, counted = dataset_findings(paper_units)
        counted += named_counts([u for u in paper_units if u.kind != "table"])
        return [Finding(SIZE, f.value, f.quote, f.page, f.block_id, f.section, f.score)
                for f in counted if not _sampled(f)]  # fmt: skip
    return language_findings(paper_units)


def _sampled(finding: Finding) -> bool:
    """A random sample of the data, or a number inside a name ("Reuters-21578")."""
    start = finding.quote.find(finding.value)
    before = finding.quote[:start]
    return start > 0 and (_SAMPLED.search(before) is not None or before.endswith("-"))


@cache
def _language() -> re.Pattern[str]:
    names = sorted(word_list("language_names"), key=len, reverse=True)
    # capitalised as a language is ("English", not "english" in a URL or an identifier)
    return re.compile(r"\b(?:" + "|".join(n.capitalize() for n in names) + r")\b")


_PERSON_BEFORE = re.compile(r"\b(?:an?|the)\s+$", re.I)
_PERSON_AFTER = re.compile(r"^(?:s\b|\s*[.,;:)”\"]|\s+(?:and|or|who)\b)")


def _person(text: str, m: re.Match[str]) -> bool:
    """'an Italian.', 'a German and a Swede': a person named by a language's word."""
    return bool(_PERSON_BEFORE.search(text[: m.start()]) and _PERSON_AFTER.match(text[m.end() :]))


# the paper's own list of its languages: "we extend the corpus [cite] to six languages: Chinese,
# French, ...", "experiments on three languages (English, German, Italian)" (~4% of pool papers)
_LISTED = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|several|\d+)\s+(?:[\w-]+\s+)?"
    r"languages\s*(?:[:(,]|\s)\s*(?:(?:namely|including|i\.e\.,?|viz\.,?)\s+)?"
    r"(?P<v>[A-Z][a-z]+(?:\s*,\s*(?:and\s+)?[A-Z][a-z]+)+(?:,?\s+and\s+[A-Z][a-z]+)?)"
)
LISTED_SCORE = 100.0  # the paper's list of its languages outranks languages counted in passing


def listed_languages(paper_units: list[Unit]) -> tuple[Finding | None, int]:
    """The paper's own sentence listing the most languages after "N languages", its list as
    written ("Chinese, French, and Korean") and how many languages it names; (None, 0) where
    no own sentence lists them."""
    best: tuple[Finding | None, int] = (None, 0)
    for unit in paper_units:
        if unit.kind == "table" or "languages" not in unit.text:
            continue
        if cites_others(unit.text) and not WE_OR_OUR.search(unit.text):
            continue
        for m in _LISTED.finditer(unit.text):
            n = len({n.group() for n in _language().finditer(m.group("v"))})
            if n > best[1]:
                f = Finding(LANGUAGES, m.group("v"), unit.text, unit.page, unit.block_id,
                            unit.section, LISTED_SCORE)  # fmt: skip
                best = (f, n)
    return best


def language_findings(paper_units: list[Unit]) -> list[Finding]:
    """The languages the paper lists as its own (`listed_languages`), else the languages it
    names most, in the own sentence naming most of them."""
    listed, n = listed_languages(paper_units)
    counted = _counted_languages(paper_units)
    return [listed] if listed is not None and n > len(counted) else counted


def _counted_languages(paper_units: list[Unit]) -> list[Finding]:
    own = [u for u in paper_units if u.kind != "table" and not cites_others(u.text)]
    named = [(u, [m for m in _language().finditer(u.text) if not _person(u.text, m)]) for u in own]
    counts = Counter(m.group() for _, ms in named for m in ms)
    if not counts:
        return []
    top = counts.most_common(1)[0][1]
    ours = {n for n, c in counts.items() if c >= max(2, SHARE_OF_TOP * top) or c == top}
    best: tuple[int, Unit, list[re.Match[str]]] | None = None
    for unit, ms in named:
        kept = [m for m in ms if m.group() in ours]
        if kept and (best is None or len({m.group() for m in kept}) > best[0]):
            best = (len({m.group() for m in kept}), unit, kept)
    if best is None:
        return []
    _, unit, _ = best
    seen: dict[str, Finding] = {}
    for m in _language().finditer(unit.text):  # with the others the sentence lists
        if _person(unit.text, m):
            continue
        seen.setdefault(
            m.group(),
            Finding(LANGUAGES, m.group(), unit.text, unit.page, unit.block_id, unit.section,
                    float(counts[m.group()] + (m.group() in ours))),
        )  # fmt: skip
    return list(seen.values())
