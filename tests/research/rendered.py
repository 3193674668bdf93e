"""An independent recount of a rendered Markdown report's sentences, for tests: the
statistics come from the Report (`agent/research/statistics.py`); this reads the text a
reader sees, so a test can check that both agree."""

from __future__ import annotations

import re

from citewise.agent.research.statistics import SentenceCount
from citewise.agent.sentences.extractive import split_sentences
from citewise.report.markdown import EVIDENCE_ID, NOTE_LABEL

_NOTE = re.compile(r"(?<!\\)\*" + re.escape(NOTE_LABEL) + r" (.*?)(?<!\\)\*")
_CITATION = re.compile(r"(?<!\\)\[[^\[\]]*@[^\[\]]*(?<!\\)\]")
_MARKER = " \\[unverified\\]"  # the mark of a weakly supported claim, not a sentence


def body_sentences(markdown: str) -> SentenceCount:
    """Sentences in the body of a rendered report, counted as SENTENCE_COUNTING says."""
    start = max(markdown.find("## Executive summary"), 0)
    end = markdown.find("## References", start)
    body = markdown[start:end] if end >= 0 else markdown[start:]
    total = cited = notes = 0
    for line in body.splitlines():
        line = line.strip().removeprefix(">").removeprefix("- ").strip()
        if not line or line.startswith(("#", "|")):
            continue
        line = re.sub(r"^\*\*[^*]+\*\*\s*", "", line).replace(_MARKER, "")
        for note in _NOTE.finditer(line):
            notes += len(split_sentences(_plain(note.group(1))))
        line = _NOTE.sub(" ", line)
        pos = 0
        for match in _CITATION.finditer(line):
            segment = line[pos : match.start()]
            sentences = split_sentences(_plain(segment))
            total += len(sentences)
            if sentences and EVIDENCE_ID.search(match.group(0)):
                cited += 1
            pos = match.end()
        tail = split_sentences(_plain(line[pos:]))
        total += len(tail)
    return SentenceCount(total, cited, notes)


def _plain(text: str) -> str:
    # Emphasis markers go; escaped characters are the quote's own and stay.
    return re.sub(r"\\(.)", r"\1", re.sub(r"(?<!\\)\*", "", text)).strip()
