"""Domain packs: answer shapes for one kind of document, registered with the ask pipeline like
any other proposer. `register_packs` is called once where an answerer is made (api/compare.py
`answerer_for`); agent/ outside packs/ never imports a pack (tests/test_layers.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citewise.agent.ask.registry import Registry


def register_packs(registry: Registry) -> None:
    """Each pack's scope hooks and proposers (a pack's proposer before the general `table`)."""
    from citewise.agent.packs.finance.shapes import FilingLine, FilingScope

    registry.register(FilingScope())
    registry.register(FilingLine(), before="table")
