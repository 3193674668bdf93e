"""Multi-turn chat: every turn is answered from fresh retrieval.

History only resolves references ("that method", "its accuracy") into a standalone question;
it is never shown to the answering model as evidence.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from citewise.agent.ask.qa import Answer
from citewise.agent.numeric.numeric_check import checked
from citewise.llm.base import ModelError, Params
from citewise.llm.client import ModelClient
from citewise.llm.structured import structured_call
from citewise.retrieval.terms import content_terms

log = logging.getLogger(__name__)

_REFERRING = re.compile(
    r"\b(it|its|this|that|these|those|they|them|their|theirs|the same|the method|"
    r"the model|the approach|the paper|the study|the dataset|above|former|latter)\b",
    re.IGNORECASE,
)
HISTORY_TURNS = 3

RESOLVE_PROMPT = """Rewrite the user's last question so it can be understood without the
conversation: replace words like "it", "that method" or "they" with what they refer to.
Do not answer it. Reply with JSON: {"question": "..."}."""


class Standalone(BaseModel):
    question: str = Field(min_length=3, max_length=400)


@dataclass
class Turn:
    question: str  # as the user typed it
    resolved: str  # what was searched and answered
    answer: Answer


def needs_context(text: str) -> bool:
    """Does the question lean on earlier turns ("what is its accuracy?")?"""
    return bool(_REFERRING.search(text))


def resolve_with_terms(text: str, previous: str) -> str:
    """The deterministic resolution: carry the previous question's key terms along."""
    carried = [t for t in content_terms(previous) if t not in content_terms(text)]
    return f"{text} ({' '.join(carried)})" if carried else text


@dataclass
class ChatSession:
    """One conversation. `ask` answers a standalone question (retrieving afresh);
    `resolver` (the `reason` role), when set, rewrites follow-ups into standalone questions."""

    ask: Callable[[str], Answer]
    resolver: ModelClient | None = None
    turns: list[Turn] = field(default_factory=list)

    def send(self, text: str) -> Turn:
        resolved = self.resolve(text)
        # cell and computed sentences are checked as ask checks them
        # (agent/numeric/numeric_check.py)
        answer = checked(self.ask(resolved))
        answer.question = text
        turn = Turn(text, resolved, answer)
        self.turns.append(turn)
        return turn

    def resolve(self, text: str) -> str:
        if not self.turns or not needs_context(text):
            return text
        previous = self.turns[-1].resolved
        if self.resolver is None:
            return resolve_with_terms(text, previous)
        history = "\n".join(
            f"User: {t.question}\nAssistant: {t.answer.answer[:300]}"
            for t in self.turns[-HISTORY_TURNS:]
        )
        messages = [
            {"role": "system", "content": RESOLVE_PROMPT},
            {"role": "user", "content": f"Conversation:\n{history}\n\nLast question: {text}"},
        ]
        try:
            result = structured_call(
                self.resolver,
                messages,
                Standalone,
                Params(max_tokens=96),
                fallback=lambda: Standalone(question=resolve_with_terms(text, previous)),
            )
        except ModelError as exc:
            log.info("could not resolve references with a model: %s", exc)
            return resolve_with_terms(text, previous)
        assert result.value is not None
        return result.value.question
