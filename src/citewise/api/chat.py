"""Library methods for a conversation held by the caller: one turn given the earlier ones.

A face that keeps no state (the HTTP server, the web app) sends the earlier turns back
with each message; they only resolve references ("its accuracy") into a standalone
question, exactly as `ChatSession` does for the CLI's `citewise chat`. Every turn is
answered from fresh retrieval, with evidence of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # opening a library (`citewise list`) imports no agent
    from citewise.agent.ask.chat import ChatSession
    from citewise.agent.ask.qa import Answer

__all__ = ["ChatMethods", "ChatReply", "PastTurn"]


def __getattr__(name: str) -> int:
    """`HISTORY_TURNS` (the most earlier turns a reply reads), read from the agent when
    first asked for."""
    if name != "HISTORY_TURNS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from citewise.agent.ask.chat import HISTORY_TURNS

    return HISTORY_TURNS


@dataclass(frozen=True)
class PastTurn:
    """An earlier turn as the caller keeps it: what was typed, what was answered (the
    `resolved` question of that turn's reply, and its answer text)."""

    question: str
    resolved: str
    answer: str


@dataclass(frozen=True)
class ChatReply:
    """One turn: what the user typed, the standalone question searched, the answer."""

    question: str
    resolved: str
    answer: Answer

    def to_dict(self) -> dict[str, object]:
        return {"question": self.question, "resolved": self.resolved, **self.answer.to_dict()}


class ChatMethods:
    """Mixed into `Library`: needs its `chat()`."""

    def chat(
        self,
        documents: list[str] | None = None,
        k: int = 8,
        llm: str | None = None,
        llm_url: str | None = None,
        use_cache: bool = True,
    ) -> ChatSession:  # pragma: no cover - Library's
        raise NotImplementedError

    def chat_turn(
        self,
        message: str,
        history: list[PastTurn] | None = None,
        documents: list[str] | None = None,
        k: int = 8,
    ) -> ChatReply:
        """Answer `message` as the next turn after `history` (oldest first)."""
        from citewise.agent.ask.chat import Turn
        from citewise.agent.ask.qa import Answer

        session = self.chat(documents, k)
        for past in history or []:
            earlier = Answer(past.question, False, past.answer, [], [], 0.0)
            session.turns.append(Turn(past.question, past.resolved or past.question, earlier))
        turn = session.send(message)
        return ChatReply(turn.question, turn.resolved, turn.answer)

    def chat_uses_model(self) -> bool:
        """Does a chat turn call a language model (to answer, or to resolve references)?
        A server then runs it on its one writer, where the model's calls take turns."""
        session = self.chat()
        return session.resolver is not None or self.generator() is not None

    def generator(self) -> object:  # pragma: no cover - Library's
        raise NotImplementedError
