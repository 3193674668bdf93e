"""Questions whose answer is drawn in a figure (refused: what only the image shows,
colours, drawn items, curve positions, cannot be read), and what a question names that its
paper's drafted passages lack (a section, a name a table never writes).
"""

from __future__ import annotations

import re

from citewise.agent.ask.question import Question, focus_sentence
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredBlock

_VISUAL_WORD = re.compile(
    r"\b(colou?rs?|red|green|blue|yellow|grey|gray|black|white|purple|orange|pink|italic|"
    r"background|shaded|arrows?|icons?|stamp|curves?)\b"
    # where on the page or in the figure something is drawn: layout only the image shows
    r"|\b(top|bottom|left|right|upper|lower)\b(?= (?:part )?of (?:the )?(?:page|figure|image))",
    re.IGNORECASE,
)
# ("graph" is left out: papers build knowledge and citation graphs)
_FIGURE_WORDS = re.compile(r"\b(figures?|fig\.|charts?|plots?|diagrams?|images?)\b", re.I)


def asks_about_figure(question: Question) -> bool:
    return bool(question.figure_labels or question.is_visual or _FIGURE_WORDS.search(question.text))


def visual_words(question: Question) -> set[str]:
    """The visual properties a question asks about ("green", "background")."""
    return {m.group(0).lower() for m in _VISUAL_WORD.finditer(question.text)}


# "What is the title of Figure 2?", "What does Figure 3 show?": the caption is the answer.
_ABOUT_CAPTION = re.compile(
    r"\b(title|caption|heading)s? of\b|\bwhat (do|does|did) (the |this )?"
    r"(figures?|fig\.|charts?|plots?|diagrams?|tables?)\b[^?]*\b(show|depict|illustrate|present|"
    r"describe|list|summari[sz]e)",
    re.IGNORECASE,
)
# A question about a figure is answered from text only when a sentence states it outright.
FIGURE_SUPPORT = 0.6


def asks_for_caption(question: Question) -> bool:
    return bool(_ABOUT_CAPTION.search(question.text))


def drawn_only(question: Question, spans: list[StoredBlock], support: float) -> bool:
    """The drafted answer only points at a figure: the value asked for is drawn in it.

    A figure caption says what a figure is, not the values it plots, and a sentence that
    points at a figure ("as illustrated in Figure 1") leaves the reading to the image. So:
    an answer built on a figure caption (unless the caption itself is asked for) is a
    figure's answer; and a question about a figure takes a text answer only when its
    support is high (a sentence that states the answer in words)."""
    if asks_for_caption(question):
        return False
    if any(b.kind == "caption" and (b.label or "").startswith("Figure") for b in spans):
        return True
    return asks_about_figure(question) and support < FIGURE_SUPPORT


_PAGE = re.compile(r"\bpage\s+(\d+)\b|\b(\d+)(?:st|nd|rd|th)\s+page\b", re.IGNORECASE)


def page_named(text: str) -> int | None:
    """The page a question points at ("page 6", "the 6th page"), if it names one."""
    match = _PAGE.search(text)
    return int(match.group(1) or match.group(2)) if match else None


_APPENDIX = re.compile(
    r"\b(?:in|from) (?:the )?(?:appendix|appendices|supplementary material)\b", re.I
)
_APPENDIX_HEADING = re.compile(r"^(?:appendix\b|[A-H](?:\.\d+)*\s+[A-Z])", re.I)


def named_sections(question: Question, store: Store) -> set[str] | None:
    """The sections a question points the answer at ("in Section 3.4", "in the Appendix"),
    as the top headings of its scoped papers' section paths; None when it names none, or
    its papers have no such section (then nothing is restricted)."""
    numbers = [label.split()[-1] for label in question.labels if label.startswith("Section")]
    appendix = bool(_APPENDIX.search(question.text))
    if not question.scope or not (numbers or appendix):
        return None
    found: set[str] = set()
    for doc in question.scope:
        for block in store.blocks(doc):
            for part in block.section_path.split(" > ") if block.section_path else []:
                first = part.split(" ")[0].rstrip(".")
                if first in numbers or (appendix and _APPENDIX_HEADING.match(part)):
                    found.add(part)
    return found or None


def outside_sections(spans: list[StoredBlock], sections: set[str] | None) -> bool:
    """Every drafted span lies outside the sections the question names."""
    if not sections or not spans:
        return False
    return all(not sections & set(b.section_path.split(" > ")) for b in spans)


# A name written in capitals ("HOVER", "FEVER", "S2ORC"): what a question about it names.
_NAME_IN_QUESTION = re.compile(r"\b[A-Z][A-Z0-9]{3,}\b")


def table_without_names(
    question: Question, drafted: list[StoredBlock], store: Store, own: set[str]
) -> bool:
    """A drafted answer read only from table rows, while the question names in capitals
    ("FEVER") what neither the table nor its caption writes: a table about HOVER does not
    answer a question about FEVER (as agent/numeric/cells.py holds for cells). The names `own`
    (lower case) are the tables' papers' own ("S2ORC"): a paper's tables need not repeat it."""
    if not drafted or any(b.kind != "table" or not b.label for b in drafted):
        return False
    asking = focus_sentence(question.text)
    names = {m.group(0).lower() for m in _NAME_IN_QUESTION.finditer(asking)} - own
    # a name the vocabulary bridges to another form does not count, nor a code ("FY2020")
    names = {n for n in names - set(question.aliases) if sum(c.isalpha() for c in n) >= 3}
    if not names:
        return False
    for table in drafted:
        captions = [
            b.text
            for b in store.blocks(table.document_id)
            if b.kind == "caption" and b.label == table.label
        ]
        written = " ".join([table.text, *captions]).lower()
        if all(re.search(rf"\b{re.escape(n)}\b", written) for n in names):
            return False
    return True
