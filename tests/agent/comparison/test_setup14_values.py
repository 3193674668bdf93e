"""Setup values read whole (eleventh session, setup14): a phrase a reading stopped at a decimal
point is read on over its number."""

from __future__ import annotations

from citewise.agent.comparison.extraction import Finding, Unit, best_distinct, find_in_unit
from citewise.agent.comparison.settings.matrix_settings import settings_findings

SECTION = "4 Training Details"


def read(aspect: str, texts: list[str]) -> list[str]:
    units = [Unit(t, f"b-{n}", 3, SECTION, "paragraph", n) for n, t in enumerate(texts, 1)]
    found: list[Finding] = [f for u in units for f in find_in_unit(aspect, u)]
    kept = best_distinct(settings_findings(aspect, units, "", set(), found), 3)
    assert all(f.value in f.quote for f in kept)
    return [f.value for f in kept]


def test_a_schedule_cut_at_a_decimal_point_is_read_over_its_number() -> None:
    text = "The learning rate is multiplied by 0.5 whenever the heron loss stalls for 3 checks."
    assert read("schedule", [text]) == [
        "learning rate is multiplied by 0.5 whenever the heron loss stalls for 3 checks"
    ]
    text = "The initial learning rate was 1 and decayed with a factor of 0.9 every 200 batches."
    assert read("schedule", [text]) == ["decayed with a factor of 0.9 every 200 batches"]


def test_a_schedule_ending_in_a_whole_number_stays_as_read() -> None:
    text = "The learning rate is halved after epoch 4. Then the heron model is saved."
    assert read("schedule", [text]) == ["learning rate is halved after epoch 4"]


def test_an_l2_coefficient_written_in_latex_or_as_a_factor_is_the_weight_decay() -> None:
    text = "Here the weight $\\lambda $ of $\\mathcal {L}_2$ regularization term is $10^{-4}$."
    assert read("weight decay", [text]) == ["$10^{-4}$"]
    text = "A $L_2$ regularization is added, for which the coefficient $\\lambda $ is set as 0.003."
    assert read("weight decay", [text]) == ["0.003"]
    assert read("weight decay", ["Heron tagger settings. Regularization factor: 0.0002"]) == [
        "0.0002"
    ]


def test_a_regularization_term_without_a_coefficient_gives_no_value() -> None:
    text = "We add a regularisation term $\\mathcal {L}_{reg}$ to keep the heron codes apart."
    assert read("weight decay", [text]) == []
