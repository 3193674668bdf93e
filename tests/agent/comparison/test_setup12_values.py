"""Setup values on sentences the tests write (tenth session, setup12): a value that times
something else gives way to the training's own instead of standing beside it."""

from __future__ import annotations

from citewise.agent.comparison.extraction import Finding, Unit, best_distinct, find_in_unit
from citewise.agent.comparison.settings.matrix_settings import settings_findings

SECTION = "4 Experimental Setup"


def unit(text: str, n: int = 1, section: str = SECTION) -> Unit:
    return Unit(text, f"b-{n}", 3, section, "paragraph", n)


def read(aspect: str, texts: list[str], section: str = SECTION) -> list[str]:
    units = [unit(t, n, section) for n, t in enumerate(texts, 1)]
    found: list[Finding] = [f for u in units for f in find_in_unit(aspect, u)]
    kept = best_distinct(settings_findings(aspect, units, "", set(), found), 3)
    assert all(f.value in f.quote for f in kept)
    return [f.value for f in kept]


def test_a_count_of_epochs_a_figure_shows_gives_way_to_the_training_count() -> None:
    texts = [
        "The heron model already picks the right span with only 3 epochs.",
        "The number of training epochs is set to 40.",
    ]
    assert read("epochs", texts) == ["40"]


def test_a_count_of_epochs_that_trains_nothing_stays_when_it_is_all_there_is() -> None:
    assert read("epochs", ["The heron model already picks the right span with only 3 epochs."])
