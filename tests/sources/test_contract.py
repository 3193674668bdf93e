"""Contract tests: every recorded response in ../shared/fixtures/literature goes through the
connector parsers, and every normalized record validates against the official CSL schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from citewise.sources.base import ParseError
from citewise.sources.record import SearchRecord
from tests.conftest import shared_cases
from tests.sources.contract import expects_garbage, parser_for
from tests.sources.recorded import CSL_SCHEMA, LITERATURE, fixture_files, load

pytestmark = pytest.mark.skipif(not LITERATURE.is_dir(), reason="shared fixtures absent")

FILES = fixture_files()


@pytest.fixture(scope="module")
def csl_validator() -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(json.loads(CSL_SCHEMA.read_text("utf-8")))


def parse_file(path: Path) -> tuple[list[SearchRecord], int]:
    """(records from the exchanges a connector consumes, number of rejected exchanges)."""
    records: list[SearchRecord] = []
    rejected = 0
    for exchange in load(path):
        parser = parser_for(path, exchange)
        if parser is None:
            continue
        if expects_garbage(path, exchange):
            with pytest.raises(ParseError) as caught:
                parser(exchange.body)
            assert caught.value.source in str(caught.value)
            rejected += 1
            continue
        records += parser(exchange.body)
    return records, rejected


@pytest.mark.parametrize(
    "path",
    shared_cases(list(FILES), "shared literature fixtures absent"),
    ids=[f"{p.parent.name}/{p.name}" for p in FILES] or None,
)
def test_every_fixture_parses_to_schema_valid_csl(
    path: Path, csl_validator: jsonschema.Draft7Validator
) -> None:
    records, _ = parse_file(path)
    items = [r.csl for r in records]
    errors = [f"{e.json_path}: {e.message}" for e in csl_validator.iter_errors(items)]
    assert errors == []
    for record in records:
        assert record.csl["id"] == record.key
        assert record.key.split(":", 1)[0] in {
            "doi",
            "arxiv",
            "pmid",
            "pmcid",
            "openalex",
            "s2",
            "core",
            "doaj",
            "title",
        }
        assert record.sources and record.csl["type"]


def test_the_fixtures_yield_thousands_of_records_all_valid(
    csl_validator: jsonschema.Draft7Validator,
) -> None:
    total = rejected = 0
    for path in FILES:
        records, bad = parse_file(path)
        assert not list(csl_validator.iter_errors([r.csl for r in records]))
        total += len(records)
        rejected += bad
    assert len(FILES) >= 60
    assert total >= 3000
    assert rejected >= 15  # errors, redirects, BibTeX, espell/esummary: all recognized


def test_crossref_own_csl_transform_becomes_valid_csl(
    csl_validator: jsonschema.Draft7Validator,
) -> None:
    exchange = load(LITERATURE / "crossref" / "transform_csl_json_science_1970.vcr.yaml")[-1]
    raw = json.loads(exchange.body)
    assert list(csl_validator.iter_errors([raw]))  # Crossref's output is not valid CSL...
    records, _ = parse_file(LITERATURE / "crossref" / "transform_csl_json_science_1970.vcr.yaml")
    (record,) = records
    assert not list(csl_validator.iter_errors([record.csl]))  # ...ours is
    assert record.csl["type"] == "article-journal"
    assert record.doi == "10.1126/science.169.3946.635"
    assert record.year == 1970
