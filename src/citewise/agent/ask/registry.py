"""The one registry of answer shapes: proposers (each adds candidates) and revisers (each
may restate the chosen answer: a "Yes"/"No" lead, a figure's caption for a refusal), in the
order they run, each switched off by name.

The pattern is a plugin registry: a shape is a small object with a `name` and one method;
`register` adds it (before another, or last), `disable` removes it from the run by name
(`CITEWISE_DISABLE_PROPOSERS=table,draft`, read once by config.py `Settings`; one at a
time in scripts/proposer_table.py) so its lift can be measured. Order matters only to the
scoring step (pick.py), which today keeps the old chain's precedence.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, cast

from citewise.errors import CitewiseError

if TYPE_CHECKING:
    from citewise.agent.ask.answer import Answer
    from citewise.agent.ask.question import Question
    from citewise.agent.ask.scope import ScopeChoice
    from citewise.agent.ask.state import AskState, Candidate
    from citewise.store.protocols import Store


class Proposer(Protocol):
    """An answer shape: reads the state (the analysed question, its scope and hits) and
    returns candidates with their features, never a support."""

    name: str

    def propose(self, state: AskState) -> list[Candidate]: ...


class Reviser(Protocol):
    """Restates the chosen answer (a lead word, a refusal's kind and cited caption), or
    returns None to leave it as it is."""

    name: str

    def revise(self, state: AskState, answer: Answer) -> Answer | None: ...


class ScopeHook(Protocol):
    """Names the documents a question is asked of before retrieval (a domain pack's: the
    filing of the company a question names); an empty list leaves it to the next hook, then
    to the papers the question names (agent/ask/scope.py). `forget` drops what it read of
    the library (after an ingest)."""

    name: str

    def scope(self, question: Question, store: Store) -> list[ScopeChoice]: ...

    def forget(self) -> None: ...


class ProposerError(CitewiseError):
    """A proposer broke the pipeline's contract (set a support, signed another's name)."""

    code = "PROPOSER_CONTRACT"


class UnknownProposerError(CitewiseError):
    """A proposer named to be disabled that the registry does not hold."""

    code = "UNKNOWN_PROPOSER"
    kind = "invalid"


@dataclass
class Registry:
    """Scope hooks, proposers and revisers in run order; `disabled` names are skipped."""

    proposers: list[Proposer] = field(default_factory=list)
    revisers: list[Reviser] = field(default_factory=list)
    scopes: list[ScopeHook] = field(default_factory=list)
    disabled: set[str] = field(default_factory=set)

    def names(self) -> list[str]:
        shapes: list[Proposer | Reviser | ScopeHook] = [*self.scopes, *self.proposers]
        return [s.name for s in shapes] + [r.name for r in self.revisers]

    def register(self, shape: Proposer | Reviser | ScopeHook, before: str | None = None) -> None:
        """Add a scope hook, a proposer or a reviser, last or before the one named `before`."""
        if shape.name in self.names():
            raise ProposerError(f"a shape named {shape.name!r} is already registered")
        if before is not None:
            self._known([before])
        if hasattr(shape, "scope"):
            self.scopes.append(cast(ScopeHook, shape))
        elif hasattr(shape, "revise"):
            at = next((i for i, s in enumerate(self.revisers) if s.name == before), None)
            self.revisers.insert(len(self.revisers) if at is None else at, cast(Reviser, shape))
        else:
            at = next((i for i, s in enumerate(self.proposers) if s.name == before), None)
            self.proposers.insert(len(self.proposers) if at is None else at, shape)

    def disable(self, names: Iterable[str]) -> None:
        """Skip these shapes (by name); an unknown name is a clear error, not a no-op."""
        wanted = [n.strip() for n in names if n.strip()]
        self._known(wanted)
        self.disabled.update(wanted)

    def enabled(self, name: str) -> bool:
        return name not in self.disabled

    def _known(self, names: list[str]) -> None:
        unknown = [n for n in names if n not in self.names()]
        if unknown:
            raise UnknownProposerError(
                f"no answer shape named {', '.join(unknown)}",
                hint=f"registered: {', '.join(self.names())}",
            )


def checked_candidates(proposer: Proposer, found: list[Candidate]) -> list[Candidate]:
    """The proposer's candidates, once they keep the contract: signed with its name, and no
    support of their own (support is the scoring step's alone, pick.py)."""
    for candidate in found:
        if candidate.proposer != proposer.name:
            raise ProposerError(
                f"proposer {proposer.name!r} returned a candidate signed {candidate.proposer!r}"
            )
        if candidate.support is not None or candidate.answer.support_score:
            raise ProposerError(
                f"proposer {proposer.name!r} set a support on its candidate",
                hint="return features; the scoring step (agent/ask/pick.py) gives support",
            )
    return found
