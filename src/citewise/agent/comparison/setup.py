"""The reproduction layer: every setting needed to rerun a paper's experiments, each cited.

A pure function of the paper's blocks and the library's gazetteer; an aspect the paper does
not state is reported as not stated, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.comparison.aspects import Paper, find_aspect
from citewise.agent.comparison.extraction import Finding, best_distinct
from citewise.agent.comparison.gazetteer import Gazetteer
from citewise.agent.comparison.settings.setup_thanks import thanked_hardware

SETUP_ASPECTS = (
    "datasets",
    "splits",
    "model",
    "optimizer",
    "learning rate",
    "schedule",
    "warmup",
    "batch size",
    "epochs",
    "weight decay",
    "gradient clipping",
    "dropout",
    "hardware",
    "compute",
    "software",
    "seeds",
    "metrics",
    "code availability",
)
# How many distinct values an aspect may list (a paper evaluates on many datasets, but
# has one optimizer).
LIMITS = {
    "datasets": 12,
    "metrics": 6,
    "model": 4,
    "software": 6,
    "hardware": 3,
    "code availability": 3,
    "splits": 3,
}
DEFAULT_LIMIT = 2
# For a rerun, a dataset or model counts where the paper uses it, not where the
# introduction or related work mentions it.
BACKGROUND = re.compile(r"introduction|related work|background|prior work|literature", re.I)
NAMED = ("datasets", "model")


@dataclass(frozen=True)
class SetupItem:
    aspect: str
    findings: tuple[Finding, ...]

    @property
    def stated(self) -> bool:
        return bool(self.findings)

    def to_dict(self) -> dict[str, object]:
        return {
            "stated": self.stated,
            "values": [f.to_dict() for f in self.findings],
        }


@dataclass(frozen=True)
class Setup:
    """A paper's experiment setup: one item per aspect, in SETUP_ASPECTS order."""

    document: str
    title: str
    items: tuple[SetupItem, ...]

    def item(self, aspect: str) -> SetupItem:
        return next(i for i in self.items if i.aspect == aspect)

    def to_dict(self) -> dict[str, object]:
        return {
            "document": self.document,
            "title": self.title,
            "aspects": {i.aspect: i.to_dict() for i in self.items},
        }


def extract_setup(
    paper: Paper, gazetteer: Gazetteer, aspects: tuple[str, ...] = SETUP_ASPECTS
) -> Setup:
    items = []
    for a in aspects:
        found = find_aspect(a, paper, gazetteer, LIMITS.get(a, DEFAULT_LIMIT))
        kept = [
            f for f in found if a not in NAMED or not BACKGROUND.search(f.section.split(" > ")[0])
        ]
        if a == "hardware":
            # the card or computing service the acknowledgements thank for, after the body's
            kept = best_distinct(kept + thanked_hardware(paper.thanks), LIMITS[a])
        items.append(SetupItem(a, tuple(kept)))
    return Setup(paper.document.id, paper.document.title, tuple(items))
