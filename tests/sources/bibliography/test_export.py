"""Exports: BibTeX that bibtexparser reads back (special characters escaped, unique keys), RIS."""

from __future__ import annotations

import bibtexparser

from citewise.sources.bibliography.export import citation_keys, export, to_bibtex, to_ris
from citewise.sources.csl import parse_name
from citewise.sources.record import SearchRecord, make_record


def record(title: str, authors: list[str], year: int, **ids: str) -> SearchRecord:
    return make_record(
        "crossref",
        csl_type="article-journal",
        title=title,
        names=[parse_name(a) for a in authors],
        issued=[year, 5],
        ids=dict(ids),
        container="J. Tests & Methods",
        page="10-20",
    )


def test_bibtex_escapes_special_characters_and_reads_back() -> None:
    records = [
        record(
            "50% of {braces} & under_scores cost $5 #1",
            ["Ana Ortiz", "Bo Chen"],
            2020,
            doi="10.1/a_b",
        ),
        record("Another paper", ["Ana Ortiz"], 2020),
        record("Another paper again", ["Ana Ortiz"], 2020),
    ]
    text = to_bibtex(records)
    entries = bibtexparser.loads(text).entries
    assert [e["ID"] for e in entries] == [
        "ortiz2020braces",
        "ortiz2020another",
        "ortiz2020anothera",
    ]
    first = entries[0]
    assert first["title"] == r"50\% of \{braces\} \& under\_scores cost \$5 \#1"
    assert first["journal"] == r"J. Tests \& Methods" and first["pages"] == "10--20"
    assert first["author"] == "Ortiz, Ana and Chen, Bo"


def test_citation_keys_fall_back_when_fields_are_missing() -> None:
    bare = make_record("arxiv", csl_type="article", title="", names=[], issued=None, ids={})
    assert citation_keys([bare]) == ["anonnduntitled"]


def test_ris_has_one_block_per_record_with_standard_tags() -> None:
    text = to_ris([record("A title", ["Ana Ortiz"], 2020, doi="10.1/x")])
    lines = text.split("\r\n")
    assert lines[0] == "TY  - JOUR"
    assert "AU  - Ortiz, Ana" in lines and "DA  - 2020/05" in lines
    assert "SP  - 10" in lines and "EP  - 20" in lines and "DO  - 10.1/x" in lines
    assert lines[-2] == "ER  - "
    assert export([], "ris") == ""
