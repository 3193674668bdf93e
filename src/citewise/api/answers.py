"""What `ask` returns, for the faces: the `Answer` (sentences, citations, evidence, support,
refusal; its to_dict() is the JSON every face prints) and the same answer with its labels,
refusal words and document pointers in Chinese (`ask --lang zh`)."""

from __future__ import annotations

from citewise.agent.ask.answer import Answer
from citewise.agent.bridge.zh_answer import to_chinese

__all__ = ["Answer", "to_chinese"]
