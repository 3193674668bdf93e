from __future__ import annotations

import hashlib
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np

from citewise.documents.model import Block, Document
from citewise.retrieval import keyword_index, postings
from citewise.retrieval.hybrid import Retriever
from citewise.retrieval.keyword_index import KeywordIndex, TermsAhead
from citewise.retrieval.postings import (
    K1,
    B,
    analyze,
    build_segment,
    compact,
    merge_segments,
)
from citewise.store.sqlite.library import LibraryStore


def _document(name: str, texts: list[str]) -> Document:
    doc = Document(
        path=Path(f"/papers/{name}.pdf"),
        sha256=hashlib.sha256(name.encode()).hexdigest(),
        kind="pdf",
        pages=len(texts),
        title=f"On {name}",
    )
    doc.blocks = [
        Block(i, "paragraph", i + 1, (0.0, 0.0, 1.0, 1.0), t) for i, t in enumerate(texts)
    ]
    return doc


def _rowids(store: LibraryStore, doc_id: str) -> list[int]:
    return [b.rowid for b in store.blocks(doc_id)]


def test_analysis_stems_drops_stopwords_and_pairs_cjk_characters() -> None:
    assert analyze("The granites were sorted by the quarries") == ["granit", "sort", "quarry"]
    assert analyze("granite pipeline processes") == analyze("granites pipelines process")
    assert analyze("检索增强生成") == ["检索", "索增", "增强", "强生", "生成"]
    assert analyze("GPT-4 scored 86.4") == ["gpt", "4", "scor", "86", "4"]


def test_scores_equal_bm25_computed_by_hand() -> None:
    texts = ["granite granite basalt", "basalt slate", "marble", "granite slate slate slate"]
    segment = build_segment([(i + 1, t, "", "") for i, t in enumerate(texts)])
    index = KeywordIndex(Path("/nonexistent"))
    index.segments = [segment]
    lengths = [len(analyze(t)) for t in texts]
    average = sum(lengths) / len(lengths)

    def bm25(doc: int, word: str) -> float:
        (term,) = analyze(word)
        tf = analyze(texts[doc]).count(term)
        df = sum(term in analyze(t) for t in texts)
        idf = math.log1p((len(texts) - df + 0.5) / (df + 0.5))
        return idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[doc] / average))

    found = dict(index.search(["granite", "slate"], 10))
    expected = {d + 1: bm25(d, "granite") + bm25(d, "slate") for d in range(4)}
    expected = {r: s for r, s in expected.items() if s > 0}
    assert found.keys() == expected.keys()
    for rowid, score in expected.items():
        assert math.isclose(found[rowid], score, rel_tol=1e-5)
    assert [r for r, _ in index.search(["granite", "slate"], 2)] == sorted(
        expected, key=lambda r: -expected[r]
    )[:2]


def test_merged_and_compacted_segments_hold_the_same_postings() -> None:
    rows = [(i + 1, f"rock {i % 7} granite{i % 3} layer", "", "") for i in range(60)]
    whole = build_segment(rows)
    merged = merge_segments([build_segment(rows[:25]), build_segment(rows[25:])])
    assert np.array_equal(merged.keys, whole.keys)
    assert np.array_equal(merged.offsets, whole.offsets)
    assert np.array_equal(merged.docs, whole.docs)
    assert np.array_equal(merged.rowids, whole.rowids)
    live = np.arange(60) % 4 != 0
    kept = compact(whole, live)
    rebuilt = build_segment([r for r, alive in zip(rows, live, strict=True) if alive])
    assert np.array_equal(kept.rowids, rebuilt.rowids)
    assert np.array_equal(kept.offsets[-1], rebuilt.offsets[-1])
    for key in rebuilt.keys:
        (a,), (b,) = np.flatnonzero(kept.keys == key), np.flatnonzero(rebuilt.keys == key)
        assert np.array_equal(
            kept.rowids[kept.docs[kept.offsets[a] : kept.offsets[a + 1]]],
            rebuilt.rowids[rebuilt.docs[rebuilt.offsets[b] : rebuilt.offsets[b + 1]]],
        )


def test_index_follows_documents_added_and_removed(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    basalt = store.save_document(_document("basalt", ["basalt columns cool slowly", "lava"]))
    index = KeywordIndex(tmp_path)
    index.refresh(store)
    assert [r for r, _ in index.search(["basalt"], 5)] == _rowids(store, basalt)[:1]

    granite = store.save_document(_document("granite", ["granite and basalt", "quartz"]))
    index.refresh(store)
    assert len(index.segments) == 2  # the new document became its own segment
    hits = {r for r, _ in index.search(["basalt"], 5)}
    assert hits == {_rowids(store, basalt)[0], _rowids(store, granite)[0]}

    store.delete_document(basalt)
    index.refresh(store)
    assert [r for r, _ in index.search(["basalt"], 5)] == _rowids(store, granite)[:1]
    assert index.search(["lava"], 5) == []
    assert len(index) == 2

    # Another process maps the same files without rebuilding anything.
    other = KeywordIndex(tmp_path)
    other.refresh(store)
    assert other.names == index.names
    assert other.search(["quartz"], 5) == index.search(["quartz"], 5)


def test_many_small_ingests_are_merged_into_few_segments(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(keyword_index, "MAX_SEGMENTS", 3)
    store = LibraryStore(tmp_path)
    index = KeywordIndex(tmp_path)
    for n in range(7):
        store.save_document(_document(f"rock{n}", [f"sample {n} of schist"]))
        index.refresh(store)
        assert len(index.segments) <= 3
    assert len(index.search(["schist"], 10)) == 7
    files = {p.name.split(".")[0] for p in (tmp_path / "keywords").glob("*.npy")}
    assert files == set(index.names)  # merged-away segments' files are gone


def test_filter_restricts_results_and_untrusted_blocks_are_never_indexed(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    doc = _document("gneiss", ["gneiss bands", "gneiss folds", "garbled gneiss"])
    doc.blocks[2].trusted = False
    store.save_document(doc)
    index = KeywordIndex(tmp_path)
    index.refresh(store)
    rowids = _rowids(store, store.documents()[0].id)
    assert {r for r, _ in index.search(["gneiss"], 5)} == set(rowids[:2])
    allowed = np.array([rowids[1]], dtype=np.int64)
    assert [r for r, _ in index.search(["gneiss"], 5, allowed)] == [rowids[1]]


def test_deleting_every_block_of_a_segment_drops_the_segment(tmp_path: Path) -> None:
    store = LibraryStore(tmp_path)
    store.save_document(_document("flint", ["flint nodules"]))
    index = KeywordIndex(tmp_path)
    index.refresh(store)
    chert = store.save_document(_document("chert", ["chert nodules"]))
    index.refresh(store)
    store.delete_document(chert)
    index.refresh(store)
    assert len(index.segments) == 1
    assert [r for r, _ in index.search(["nodules"], 5, np.array([1, 2]))] == [1]
    store.delete_document(store.documents()[0].id)
    index.refresh(store)
    assert index.segments == [] and index.search(["nodules"], 5) == []


def test_term_frequencies_count_trusted_blocks_in_the_library_and_in_one_document(
    tmp_path: Path,
) -> None:
    store = LibraryStore(tmp_path)
    granite = _document("granite", ["granite quarries", "a granite quarry", "marble"])
    granite.blocks[1].trusted = False  # a garbled page's block is never counted
    first = store.save_document(granite)
    second = store.save_document(
        _document("basalt", ["basalt and granites", "检索增强生成", "quarry basalt"])
    )
    store.save_document(_document("slate", ["slate only"]))  # a later segment of its own
    retriever = Retriever(store, None)
    total, library = retriever.document_frequencies(["granite", "quarry", "增强", "gneiss"])
    assert total == 6
    assert library == {"granite": 2, "quarry": 2, "增强": 1, "gneiss": 0}
    counts = retriever.document_term_counts(["granite", "basalt", "检索增强"], [first, second])
    assert counts[first] == (2, {"granite": 1, "basalt": 0, "检索增强": 0})
    # a term of several indexed words counts the blocks holding all of them
    assert counts[second] == (3, {"granite": 1, "basalt": 2, "检索增强": 1})
    assert retriever.document_term_counts(["the"], [first]) == {first: (2, {"the": 0})}


def test_ascii_text_gives_the_terms_of_the_general_tokenizer() -> None:
    # ASCII text takes a translate-and-split path; it must cut words where the regex does:
    # at underscores, punctuation, control characters, and keep digits inside words.
    from citewise.retrieval.postings import _TOKEN, _term

    texts = [
        "snake_case and kebab-case, x1y2 (r=0.93)\ttab\x1fsep\x0bvt",
        "U.S. GAAP; 10-K; 3,284.5 EBITDA/Revenue's Q4'21 -- naive cafe",
        "Tables_of_contents__ ~~ @@ ## 1st 2nd e.g. i.e.",
    ]
    for text in texts:
        assert text.isascii()
        expected = [t for t in map(_term, _TOKEN.findall(text)) if t]
        assert analyze(text) == expected
        assert analyze(text + " é") == expected  # not ASCII: the regex path ("é" is dropped)


def test_documents_analysed_ahead_give_the_same_segment_and_stale_ones_are_not_used(
    tmp_path: Path, monkeypatch
) -> None:
    docs = [
        _document("basalt", ["Basalt columns cool slowly", "lava flows", "granite"]),
        _document("granite", ["granite and basalt", "quartz veins"]),
        _document("gneiss", ["gneiss bands", "lava flows"]),
    ]
    docs[0].blocks[1].section_path = "Volcanic rocks"
    docs[0].blocks[2].trusted = False
    plain, ahead_dir = tmp_path / "plain", tmp_path / "ahead"
    plain_store, ahead_store = LibraryStore(plain), LibraryStore(ahead_dir)
    ahead = TermsAhead()
    for doc in docs:
        plain_store.save_document(doc)
        ahead.add(ahead_store.save_document(doc), doc)
    stale = _document("schist", ["schist bands", "mica"])
    ahead.add("schist", stale)  # analysed as one text, stored as another
    stale.blocks[0].text = "slate cleavage"
    for store in (plain_store, ahead_store):
        store.save_document(stale)
        store.save_document(_document("marble", ["marble quarry"]))  # never analysed ahead

    analysed: list[str] = []
    real = postings.block_terms
    monkeypatch.setattr(
        postings, "block_terms", lambda t, s, lb: analysed.append(t) or real(t, s, lb)
    )
    plain_index, ahead_index = KeywordIndex(plain), KeywordIndex(ahead_dir)
    plain_index.refresh(plain_store)
    assert len(analysed) == 9  # every trusted block
    analysed.clear()
    ahead_index.refresh(ahead_store, ahead.cover)
    # only the blocks stored otherwise than analysed ahead (a document's piece is used
    # whole or not at all) and those never analysed
    assert analysed == ["slate cleavage", "mica", "marble quarry"]
    for mine, theirs in zip(ahead_index.segments, plain_index.segments, strict=True):
        for name in keyword_index.ARRAYS:
            assert np.array_equal(getattr(mine, name), getattr(theirs, name)), name
            assert getattr(mine, name).dtype == getattr(theirs, name).dtype, name
    assert ahead_index.search(["schist"], 5) == []
    assert len(ahead_index.search(["slate"], 5)) == 1
    assert ahead_index.search(["lava"], 5) == plain_index.search(["lava"], 5)


def test_building_and_merging_segments_leaves_numpy_ma_unimported() -> None:
    # np.unique imports numpy.ma (~25 ms in a fresh process): the refresh after an ingest
    # does without it
    code = (
        "import sys\n"
        "from citewise.retrieval.postings import build_segment, merge_segments\n"
        "rows = [(i + 1, f'granite {i % 5} basalt', '', '') for i in range(40)]\n"
        "whole = merge_segments([build_segment(rows[:20]), build_segment(rows[20:])])\n"
        "assert len(whole) == 40\n"
        "print('numpy.ma' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_text_beyond_ascii_gives_the_terms_of_the_general_tokenizer() -> None:
    # Text whose only non-ASCII characters are no word characters (dashes, quotes, math
    # symbols) takes the split path; letters and digits beyond ASCII, the regex.
    from citewise.retrieval.postings import _TOKEN, _term

    rng = random.Random(3)
    alphabet = "ab Z9_-'.\t\n,é²中—“”×•\u00a0\u2009ﬁ½①"
    texts = ["revenue — 12% “adjusted” × 3 • net", "naïve café 10² ﬁnance", "检索 — x"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40))) for _ in range(3000)]
    for text in texts:
        expected = [t for t in map(_term, _TOKEN.findall(text)) if t]
        if not any(0x3040 <= ord(c) <= 0xD7AF or 0xF900 <= ord(c) <= 0xFAFF for c in text):
            assert analyze(text) == expected, text  # no CJK: the words, however split
