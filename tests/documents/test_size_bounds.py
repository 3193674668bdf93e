"""Size bounds at ingest: no block beyond MAX_BLOCK_CHARS, no file beyond its type's cap."""

from __future__ import annotations

from pathlib import Path

from citewise.api import Library
from citewise.config import Settings
from citewise.documents import read_document
from citewise.documents.bounds import MAX_BLOCK_CHARS, bound_blocks, split_text
from citewise.documents.model import Citation, Reference
from citewise.documents.options import ParseOptions
from citewise.ingest import FILE_MB_VARIABLE, ingest
from citewise.store.sqlite.library import LibraryStore
from tests.hostile import write_one_line_markdown


def test_split_text_cuts_after_sentences_then_spaces_then_anywhere() -> None:
    prose = "One short sentence here. " * 40
    pieces = split_text(prose, limit=100)
    assert all(len(p) <= 100 and p.endswith("here.") for p in pieces)
    assert " ".join(pieces) == prose.strip()
    words = "word " * 100
    assert all(len(p) <= 64 and not p.endswith(" ") for p in split_text(words, limit=64))
    assert split_text("x" * 250, limit=100) == ["x" * 100, "x" * 100, "x" * 50]
    code = "".join(f"line {i}\n" for i in range(50))
    assert "\n".join(split_text(code, limit=60, lines=True)) == code.rstrip()


def test_one_line_markdown_becomes_bounded_blocks_with_all_its_text(tmp_path: Path) -> None:
    path = write_one_line_markdown(tmp_path / "one-line.md", megabytes=1.0)
    doc = read_document(path)
    original = [b.text for b in doc.blocks]
    assert max(len(t) for t in original) > 900_000  # what the reader gives: one block
    bound_blocks(doc)
    assert max(len(b.text) for b in doc.blocks) <= MAX_BLOCK_CHARS
    assert [b.ordinal for b in doc.blocks] == list(range(len(doc.blocks)))
    assert " ".join(b.text for b in doc.blocks) == " ".join(original)
    words = set(doc.blocks[1].text.split())
    assert all(b.text.split()[-1] in words for b in doc.blocks[1:-1])  # cut between words
    assert {b.section_path for b in doc.blocks[1:]} == {"One line"}


def test_references_and_citations_follow_the_split_blocks(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("# Notes\n\n" + "Filler sentence. " * 2000 + "As shown in [7].\n\nEnd.\n")
    doc = read_document(path)
    doc.references = [Reference(ordinal=0, raw="[7] Someone.", block=2)]  # the 'End.' block
    doc.citations = [Citation(block=1, reference=0, marker="[7]")]
    bound_blocks(doc)
    [end] = [b for b in doc.blocks if b.text == "End."]
    assert doc.references[0].block == end.ordinal
    assert "[7]" in doc.blocks[doc.citations[0].block].text


def test_an_answer_from_a_one_line_file_quotes_a_bounded_passage(tmp_path: Path) -> None:
    path = write_one_line_markdown(tmp_path / "dump.md", megabytes=0.5)
    with Library(tmp_path / "lib", embeddings=False) as lib:
        lib.ingest([path])
        answer = lib.ask("How many taps per block did the quarry probe use?")
    assert not answer.refused
    assert 0 < max(len(s.text) for s in answer.sentences) <= MAX_BLOCK_CHARS


def test_ingest_stores_bounded_blocks_and_refuses_files_above_the_cap(
    tmp_path: Path,
) -> None:
    small = write_one_line_markdown(tmp_path / "small.md", megabytes=0.5)
    big = write_one_line_markdown(tmp_path / "big.md", megabytes=2.5)
    options = ParseOptions.from_environ({FILE_MB_VARIABLE: "1"})
    store = LibraryStore(tmp_path / "lib")
    try:
        report = ingest(store, [small, big], options=options)
        [doc_id] = report.added
        texts = [b.text for b in store.blocks(doc_id)]
    finally:
        store.close()
    assert max(len(t) for t in texts) <= MAX_BLOCK_CHARS and len(texts) > 30
    [failure] = report.failed
    assert (Path(failure.path).name, failure.code) == ("big.md", "TOO_LARGE")
    assert failure.reason == "file is 2.5 MB; .md files above 1 MB are not read"


def test_the_file_cap_comes_from_the_settings_the_face_built(tmp_path: Path) -> None:
    """The environment is read once into Settings; Library hands it to ingest as
    ParseOptions (no os.environ read below the faces)."""
    big = write_one_line_markdown(tmp_path / "big.md", megabytes=1.5)
    lowered = Settings.load(tmp_path / "lib", environ={FILE_MB_VARIABLE: "1"})
    with Library(tmp_path / "lib", embeddings=False, settings=lowered) as lib:
        assert lib.parse_options.max_file_mb == 1.0
        [failure] = lib.ingest([big]).failed
    assert failure.code == "TOO_LARGE"
    with Library(tmp_path / "lib", embeddings=False, settings=Settings.load(environ={})) as lib:
        assert lib.ingest([big]).failed == []  # the per-type cap (markdown) is higher
