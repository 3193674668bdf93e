"""A number question's sentence in the unit of the measure it asks about.

"How much memory" is answered in bytes, "what did it cost" in money, "how thick / deep /
far" in a length: papers and filings state a measure with its unit, so a nearly as good
sentence stating a figure in that unit goes before one stating only a count or a year.
"""

from __future__ import annotations

import re

from citewise.agent.ask.question import Question
from citewise.agent.sentences.extractive import Candidate

# A sentence of the needed shape may replace a better-scoring one down to this share.
SHAPE_FLOOR = 0.6

# What a measure is stated in: "how much memory" is answered in bytes, not by a count.
_MEASURES = {
    re.compile(r"\b(memory|ram|storage|disk|space)\b", re.I): re.compile(
        r"\d\s*(?:[kmgtp]i?b(?:ytes?)?|[kmgt]?bytes?|(?:kilo|mega|giga|tera)bytes?)\b", re.I
    ),
    re.compile(r"\b(cost|price|spend|spent|paid|budget)\b", re.I): re.compile(
        r"[$€£]\s*\d|\d\s*(?:usd|eur|dollars?|euros?)\b", re.I
    ),
    # "how thick / deep / far" is answered in a length ("400 feet"), not by a count
    re.compile(
        r"\bhow (thick|deep|tall|wide|high|far)\b|\b(thickness|depth|height|width|distance)\b",
        re.I,
    ): re.compile(
        r"\d\s*(?:feet|foot|ft|inch(?:es)?|yards?|miles?|km|cm|mm|m|met(?:er|re)s?|"
        r"kilomet(?:er|re)s?|centimet(?:er|re)s?|millimet(?:er|re)s?)\b",
        re.I,
    ),
}


def in_unit_first(
    question: Question, chosen: list[Candidate], ranked: list[Candidate]
) -> list[Candidate]:
    """For "how much memory / what did it cost / how thick", a nearly as good sentence
    stating a figure in that measure's unit goes before one that does not (a count, a
    year)."""
    if not question.expects_number or not chosen:
        return chosen
    units = [u for m, u in _MEASURES.items() if m.search(question.text)]
    if not units or any(u.search(chosen[0].text) for u in units):
        return chosen
    floor = SHAPE_FLOOR * chosen[0].score
    for candidate in ranked[:30]:
        if candidate.score < floor:
            break
        if any(u.search(candidate.text) for u in units):
            return [candidate, *[c for c in chosen if c.text != candidate.text]]
    return chosen
