"""The one number reader: printed forms, scale notes, and the one "backed by evidence" rule."""

from __future__ import annotations

import pytest

from citewise.agent.numeric.numbers import (
    backed,
    find_numbers,
    format_number,
    parse_number,
    quantities,
    scale_of,
    unsupported,
)


@pytest.mark.parametrize(
    ("printed", "value"),
    [
        ("1,577", 1577.0),
        ("(1,577)", -1577.0),
        ("$ (1,577)", -1577.0),
        ("$ 5,363", 5363.0),
        ("−572.969394", -572.969394),
        ("2e-5", 2e-5),
        ("2 × 10⁻⁵", 2e-5),
        ("3x10^-4", 3e-4),
        ("46.5%", 46.5),
        ("0.465", 0.465),
        (".465", 0.465),
        ("12.3M", 12_300_000.0),
        ("15.2 million", 15_200_000.0),
        ("84.59 ± 0.93", 84.59),
    ],
)
def test_a_printed_number_is_read_with_its_sign_exponent_and_suffix(
    printed: str, value: float
) -> None:
    assert parse_number(printed) == pytest.approx(value)


def test_cells_that_are_not_one_number_have_no_value() -> None:
    assert parse_number("—") is None
    assert parse_number("BM25 + rerank") is None
    assert parse_number("2018 and 2019") is None


def test_names_with_digits_are_not_numbers_and_words_are() -> None:
    assert find_numbers("S2ORC beats F1 baselines on v3 data") == []
    found = find_numbers("twenty-five runs, seven seeds and 15.2 million papers")
    assert [(n.text, n.value) for n in found] == [
        ("twenty-five", 25.0),
        ("seven", 7.0),
        ("15.2 million", 15_200_000.0),
    ]
    # a year range is two years, not a negative number
    assert [n.value for n in find_numbers("from 2018-2019")] == [2018.0, 2019.0]
    assert find_numbers("46.5% of papers")[0].percent


def test_scale_notes_give_the_multiplier() -> None:
    assert scale_of("(Dollars in millions, except per share amount)") == 1e6
    assert scale_of("(In thousands, except par value)") == 1e3
    assert scale_of("(Millions) 2018 2017 2016") == 1e6
    assert scale_of("Answer in USD billions.") == 1e9
    assert scale_of("Net income for the year") == 1.0


def test_one_rule_backs_a_number_by_value_share_or_stated_precision() -> None:
    (n,) = find_numbers("0.465")
    assert backed(n, {46.5})  # a share as a fraction
    (n,) = find_numbers("93.4")
    assert backed(n, {93.41}) and not backed(n, {93.6})
    (n,) = find_numbers("-1,577")
    assert backed(n, {-1577.0}) and backed(n, {1577.0})  # signs are printed many ways
    evidence = "Purchases of PP&E (1,577) (1,373); accuracy 93.4% on 312 blocks."
    assert unsupported("Capex was 1,577 and accuracy 0.934.", evidence) == []
    assert [n.text for n in unsupported("Accuracy was 97.5%.", evidence)] == ["97.5%"]
    assert unsupported("In 2019 it was 93.4%.", evidence, "What was it in 2019?") == []


def test_quantities_leave_out_years_and_numbers_the_question_states() -> None:
    assert quantities("In 2019 the model reached 54.1 F1", "") == {"54.1"}
    assert quantities("7,918 families and .025 error", "How many of 7,918?") == {".025"}
    # a citation's bracketed year is a year, not a negative figure the sentence states
    assert quantities("Saier and Färber (2019) derive 1.0M snippets", "") == {"1.0M"}


def test_answers_print_numbers_grouped_with_the_asked_precision() -> None:
    assert format_number(1577.0) == "1,577"
    assert format_number(15.7, 2) == "15.70"
    assert format_number(-3.7012, 2) == "-3.70"
    assert format_number(0.465) == "0.465"
