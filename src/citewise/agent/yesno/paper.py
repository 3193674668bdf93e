"""A paper as the yes/no judge reads it: its sentences, each known to lie in the paper's
body (methods, experiments, results) or in its front or back matter (title, abstract,
introduction, related work, conclusion)."""

from __future__ import annotations

from dataclasses import dataclass

from citewise.agent.sentences.extractive import split_sentences
from citewise.agent.yesno.cues import cues
from citewise.retrieval.terms import stem, tokens
from citewise.store.protocols import Store


@dataclass(frozen=True)
class Sentence:
    text: str
    words: tuple[str, ...]
    stems: frozenset[str]
    body: bool = True  # in the paper's body, not its front or back matter


def sentence(text: str, body: bool = True) -> Sentence:
    words = tuple(tokens(text))
    return Sentence(text, words, frozenset(stem(w) for w in words), body)


def in_body(section_path: str, title: str) -> bool | None:
    """In a section of the paper's body: under a heading (below the title) that names no part
    of the front or back matter ("Introduction", "Related Work", "Conclusions"); None under
    no heading at all."""
    parts = [p.strip() for p in section_path.split(" > ") if p.strip()]
    if parts and parts[0].lower() == title.strip().lower():
        parts = parts[1:]
    if not parts:
        return None
    framing = cues().words("background_sections")
    return not any(set(tokens(p)) & framing for p in parts)


class PaperSentences:
    """Each paper's sentences, split once per answerer."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._read: dict[str, list[Sentence]] = {}

    def of(self, document: str) -> list[Sentence]:
        """The document's sentences in order; a heading names a topic and a question asks
        one, so neither is among them. Text under no heading is the front matter of a paper
        with headings (its title, authors), and the body of one without."""
        if document not in self._read:
            stored = self.store.document(document)
            title = stored.title if stored is not None else ""
            placed = [
                (s, in_body(block.section_path, title))
                for block in self.store.blocks(document)
                if block.kind != "heading"
                for s in split_sentences(block.text, block.kind)
                if not s.rstrip().endswith("?")
            ]
            headed = any(body is not None for _, body in placed)
            self._read[document] = [
                sentence(s, bool(body) if headed else True) for s, body in placed
            ]
        return self._read[document]
