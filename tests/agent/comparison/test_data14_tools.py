"""A known name in a list a tool word opens is a tool, not data
(agent/comparison/gazetteer.py, `_TOOL_BEFORE`); sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.extraction import Unit
from citewise.agent.comparison.gazetteer import Gazetteer, name_findings


def known(*texts: str) -> list[str]:
    gazetteer = Gazetteer({"datasets": {"REEFKIT", "KelpSet"}, "model": set()})
    units = [Unit(t, f"b-{i}", 3, "4 Experiments", "paragraph", i) for i, t in enumerate(texts)]
    return [f.value for f in name_findings("datasets", units, [], gazetteer)]


def test_a_name_a_tool_list_holds_is_a_tool() -> None:
    assert known("We use Python packages such as REEFKIT, NetworkX and SKlearn.") == []
    assert known("We use Python packages such as NetworkX, SKlearn and REEFKIT.") == []
    assert known("We rely on different tools (e.g., REEFKIT BIBREF3, Mallet).") == []


def test_a_name_after_a_list_of_tools_ends_is_still_data() -> None:
    assert known("We use tools such as NetworkX; we train on KelpSet.") == ["KelpSet"]
    assert known("We use the same tools and train on KelpSet.") == ["KelpSet"]


def test_datasets_such_as_a_name_are_still_data() -> None:
    assert known("We evaluate on datasets such as KelpSet and ReefCount.") == ["KelpSet"]
