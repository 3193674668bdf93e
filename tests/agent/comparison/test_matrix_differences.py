"""Key differences built from the cells alone: what differs, each claim citing its cells,
papers that agree named together, numbers put in order with how far apart they are, and
nothing where the papers agree."""

from __future__ import annotations

from citewise.agent.comparison.compare import Cell, differences
from citewise.agent.comparison.extraction import Finding


def cell(doc: str, aspect: str, value: str | None, page: int = 1) -> Cell:
    if value is None:
        return Cell(doc, aspect, None)
    quote = f"In our runs we set {value} throughout."
    return Cell(doc, aspect, Finding(aspect, value, quote, page, f"{doc}-b", "4 Setup", 1.0))


def said(aspects: list[str], cells: list[Cell]) -> dict[str, str]:
    return {d.text.split(",")[0]: d.text for d in differences(aspects, cells)}


def test_papers_sharing_a_value_are_named_together_and_the_silent_one_apart() -> None:
    cells = [
        cell("moss", "optimizer", "RMSprop", page=2),
        cell("lichen", "optimizer", "RMSprop", page=6),
        cell("fern", "optimizer", None),
    ]
    text = said(["optimizer"], cells)["On optimizer"]
    assert text == (
        "On optimizer, moss and lichen both state “RMSprop” (p. 2, p. 6); fern does not state it."
    )


def test_numbers_are_ordered_with_how_far_apart_they_are() -> None:
    cells = [
        cell("moss", "learning rate", "5e-4"),
        cell("lichen", "learning rate", "1e-5", page=3),
        cell("fern", "learning rate", "5e-4", page=4),
    ]
    text = said(["learning rate"], cells)["On learning rate"]
    assert text == (
        "On learning rate, 1e-5 (lichen, p. 3) < 5e-4 (moss and fern, p. 1, p. 4): "
        "the highest is 50 times the lowest."
    )


def test_nothing_is_said_where_every_paper_states_the_same_value() -> None:
    cells = [cell("moss", "batch size", "128"), cell("lichen", "batch size", "128")]
    assert differences(["batch size"], cells) == []


def test_baselines_are_compared_as_names_shared_or_not() -> None:
    cells = [
        cell("moss", "baselines", "a bag-of-words SVM and BiLSTM", page=5),
        cell("lichen", "baselines", "BiLSTM", page=7),
    ]
    text = said(["baselines"], cells)["On baselines"]
    assert text == (
        "On baselines, moss and lichen both name BiLSTM; only moss names a bag-of-words SVM (p. 5)."
    )
