"""Datasets a paper describes in a phrase instead of naming them: "we use a manually-curated
dataset of ...", "the corpus was crawled from ..." (a datasets cell's fallback), and the
unnamed dataset a paper presents as its own ("we present a new corpus of ...")."""

from __future__ import annotations

import re

from citewise.agent.comparison.aspect_readers.matrix_cells import shorten
from citewise.agent.comparison.extraction import Finding, Unit

# a dataset a paper describes instead of naming: "we use a manually-curated dataset of ..."
_DESCRIBED_DATA = re.compile(
    r"\b(?:we\s+(?:use|used|collect\w*|buil[dt]|create[sd]?|construct\w*|compile[sd]?|release[sd]?)|"
    r"(?:is|was|were)\s+(?:collected|built|created|constructed|compiled|used))\s+(?:\w+\s+){0,3}?"
    r"(?P<v>(?:a|an|our)\s+(?:[\w-]+\s+){0,4}?(?:dataset|data set|corpus|collection)\s+of\s+"
    r"(?:[^.;:]|\.(?=\d)){5,100})",  # "1.5 million" does not end it
    re.I,
)
DESCRIBED_DATA_SCORE = 1.5  # below a name the paper uses in its setup, above one named in passing
# where the paper's data comes from: "our dataset is derived from an NBA game report corpus",
# "the corpus was crawled from the Douban forum" (~4% of pool papers)
_DATA_SOURCE = re.compile(
    r"\b(?:our|the|this|new)\s+(?:[\w-]+\s+)?(?P<v>(?:dataset|data set|corpus)\s+(?:is|was)\s+"
    r"(?:derived|built|constructed|collected|created|extracted|compiled|sampled|drawn|crawled|"
    r"obtained)\s+from\s+(?:[^.;:,()]|[.,](?=\d)){3,70}?)(?=\s+BIBREF|\s+(?:which|that|where|and|with)\b|"
    r"\s*(?:[.,](?!\d)|[;:(])|$)",
    re.I,
)

# what the authors downloaded, crawled or scraped themselves, with where it came from: "We
# download parts of the Kelp Wikipedia from ...", "we scraped three years of reef reports using
# the official API" (~4% of pool papers); "retrieve" is left out (most often a lookup: "we
# retrieve the types of this entity from the KB")
_GATHERED = re.compile(
    r"\b[Ww]e\s+(?:download|crawl|scrap)(?:ed|e)?\s+"
    r"(?P<v>(?!(?:it|them|this|these|that|those)\b)(?:[^.;:]|\.(?=\d)){2,100}?"
    r"\b(?:from|using|via|through)\s(?:[^.;:]|\.(?=\d)){3,100})"  # with where it came from
)


# the unnamed dataset the paper itself presents, with what it holds or is for: "We describe a
# dataset developed for tagging court rulings", "we present a new mixed-domain corpus with
# annotations for ..." (a named one, "a new dataset, KelpSet", is read in matrix_datasets.py; "a
# new subset of the X corpus" is named by its corpus)
_PRESENTED = re.compile(
    r"\b(?:we|this\s+(?:paper|work|article))\s+(?:present|introduce|describe|release|propose)s?\s+"
    r"(?P<v>(?:a|an)\s+(?:(?!of\b)[\w-]+\s+){0,5}?(?:dataset|data set|corpus)\s+"
    r"(?:of|for|with|developed|based\s+on|that|containing|consisting)\b(?:[^.;:]|\.(?=\d)){5,100})",
    re.I,
)
PRESENTED_SCORE = 3.2  # the paper's own data, above a name its setup uses (3.0), below one it
# presents by name (3.5)


def described_datasets(paper_units: list[Unit]) -> list[Finding]:
    """Datasets a paper describes in a phrase rather than names ("a dataset of ...", "the
    dataset was derived from ..."), each such phrase a value."""
    found = []
    for unit in paper_units:
        presented = _PRESENTED.search(unit.text)
        m = (
            presented
            or _DESCRIBED_DATA.search(unit.text)
            or _DATA_SOURCE.search(unit.text)
            or _GATHERED.search(unit.text)
        )
        if not m or unit.kind == "table":
            continue
        value, was_cut = shorten(m.group("v").strip(" ,"))
        score = PRESENTED_SCORE if presented else DESCRIBED_DATA_SCORE
        if value in unit.text:
            found.append(Finding("datasets", value, unit.text, unit.page, unit.block_id,
                                 unit.section, score, was_cut))  # fmt: skip
    return found
