"""Questions whose answer is drawn in a figure: refuse with that reason, citing the caption;
and what a question names that its paper lacks (a label, a section, a name).

Text answers a figure question only when a caption or a sentence states the answer; what
only the image shows (colours, drawn items, curve positions) cannot be read, and saying so
with the caption is more useful than an unrelated sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from citewise.agent.ask.question import Question, focus_sentence
from citewise.retrieval.hybrid import Retriever
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


def _captions(store: Store, documents: Iterable[str]) -> list[StoredBlock]:
    return [
        b
        for doc in documents
        for b in store.blocks(doc)
        if b.kind == "caption" and (b.label or "").startswith("Figure")
    ]


def figure_refusal(
    question: Question,
    store: Store,
    retrieved: Iterable[StoredBlock],
    drafted: Iterable[StoredBlock] = (),
) -> StoredBlock | None:
    """The caption to cite when refusing a figure question (None: not a figure question,
    or no caption to cite). A drafted answer built on a figure caption makes any question
    a figure question (`drawn_only`)."""
    retrieved = list(retrieved)
    drawn = [b for b in drafted if b.kind == "caption" and (b.label or "").startswith("Figure")]
    if not asks_about_figure(question):
        return drawn[0] if drawn and not asks_for_caption(question) else None
    if question.figure_labels:
        docs = question.scope or tuple(dict.fromkeys(b.document_id for b in retrieved))
        wanted = set(question.figure_labels)
        for caption in _captions(store, docs):
            if caption.label in wanted:
                return caption
        return None
    page = page_named(question.text)
    if page is not None:  # "the stamp on the 6th page": a caption on that page, if any
        docs = question.scope or tuple(dict.fromkeys(b.document_id for b in retrieved))
        on_page = [c for c in _captions(store, docs) if c.page == page]
        if on_page:
            return on_page[0]
    return next((b for b in retrieved if b.kind == "caption" and b.label), None)


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


def asked_caption(
    question: Question, store: Store, retrieved: Iterable[StoredBlock]
) -> StoredBlock | None:
    """The caption a "title of Figure 2" / "what does Table 3 show" question asks for: the
    caption block with the label the question names, in its scoped (else retrieved) papers."""
    if not question.labels or not asks_for_caption(question):
        return None
    docs = question.scope or tuple(dict.fromkeys(b.document_id for b in retrieved))
    wanted = set(question.labels)
    for doc in docs:
        for block in store.blocks(doc):
            if block.kind == "caption" and block.label in wanted:
                return block
    return None


_PAGE = re.compile(r"\bpage\s+(\d+)\b|\b(\d+)(?:st|nd|rd|th)\s+page\b", re.IGNORECASE)


def page_named(text: str) -> int | None:
    """The page a question points at ("page 6", "the 6th page"), if it names one."""
    match = _PAGE.search(text)
    return int(match.group(1) or match.group(2)) if match else None


def missing_labels(question: Question, store: Store) -> list[str]:
    """Labels the question names ("Figure 7") that none of its scoped papers has, when those
    papers do label that kind of thing (so a parser miss does not look like absence)."""
    if not question.scope or not question.labels:
        return []
    labels = {b.label for doc in question.scope for b in store.blocks(doc) if b.label}
    missing = []
    for label in question.labels:
        family = label.split()[0]
        has_family = any(lab.startswith(family) for lab in labels if lab)
        if has_family and label not in labels:
            missing.append(label)
    return missing


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


def absent_names(question: Question, retriever: Retriever) -> list[str]:
    """Names in capitals the question asks with ("HOVER") that none of the papers it is
    scoped to ever writes: what it asks about is not in them (a name the library's
    vocabulary bridges to another form does not count as absent)."""
    asking = focus_sentence(question.text)  # a lead statement's names are context
    names = list(dict.fromkeys(m.group(0) for m in _NAME_IN_QUESTION.finditer(asking)))
    if not question.scope or not names:
        return []
    counts = retriever.document_term_counts([n.lower() for n in names], list(question.scope))
    return [
        n
        for n in names
        if n.lower() not in question.aliases
        and all(freqs.get(n.lower(), 0) == 0 for _, freqs in counts.values())
    ]


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
