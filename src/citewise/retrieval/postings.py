"""Pure functions behind the keyword index: analysis, postings, BM25 scoring.

A segment is a compressed-sparse-row table: one row per term (rows ordered by a 64-bit
hash of the term, so a query looks terms up with a binary search), holding the segment's
documents that contain the term and its weighted count there, and each block's weighted
length. Scoring a query is then a handful of vectorized gathers and adds, whatever the
library's size. Lengths are normalized at query time by the whole index's average, so a
block scores the same whichever segment holds it: a library built in several batches
ranks as one built at once.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from citewise.regex import lazy
from citewise.retrieval.terms import STOPWORDS, stem

# BM25 parameters (FTS5's defaults) and field weights (FTS5 ranked with the same ones).
K1 = 1.2
B = 0.75
SECTION_WEIGHT = 0.3
LABEL_WEIGHT = 0.5

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = lazy(rf"[{_CJK}]+|[^\W_]+", re.UNICODE)
_CJK_RUN = lazy(rf"^[{_CJK}]+$")
_HAS_CJK = lazy(rf"[{_CJK}]")
_WORD_BEYOND_ASCII = lazy(r"[^\W\x00-\x7f]")  # a letter or digit outside ASCII
# ASCII bytes other than letters and digits, as spaces: what _TOKEN splits ASCII text on
_ASCII_GAPS = bytes(c if chr(c).isascii() and chr(c).isalnum() else 32 for c in range(256))


@lru_cache(maxsize=200_000)
def _term(token: str) -> str | None:
    word = token.lower()
    if "0" <= word[-1] <= "9":  # no stopword, and stem() leaves a word ending in a digit
        return word  # as it is: ids, codes and the numbers of tables, a CSV's most words
    if word in STOPWORDS or (len(word) == 1 and not word.isdigit()):
        return None
    return stem(word)  # "granite" and "granites" meet as "granit"


def analyze(text: str) -> list[str]:
    """Index terms of a text: lower-cased, stemmed words without stopwords; a run of CJK
    characters becomes its overlapping character pairs (so any 2+ character substring
    matches)."""
    if text.isascii():  # the tokens: runs of letters and digits between everything else
        words = text.encode().translate(_ASCII_GAPS).decode().split()
        return list(filter(None, map(_term, words)))
    if not _WORD_BEYOND_ASCII.search(text):
        # dashes, quotes, symbols only beyond ASCII (most non-ASCII blocks of papers and
        # filings): they cut words as any other non-word character, so the same split
        # with each of them as "?" gives the regex's tokens (at half its cost)
        words = text.encode("ascii", "replace").translate(_ASCII_GAPS).decode().split()
        return list(filter(None, map(_term, words)))
    tokens = _TOKEN.findall(text)
    if not _HAS_CJK.search(text):  # no token can be a CJK run: each is a word or nothing
        return list(filter(None, map(_term, tokens)))
    terms: list[str] = []
    for token in tokens:
        if _CJK_RUN.match(token):
            terms += (
                [token[i : i + 2] for i in range(len(token) - 1)] if len(token) > 1 else [token]
            )
        else:
            term = _term(token)
            if term:
                terms.append(term)
    return terms


@lru_cache(maxsize=500_000)
def term_hash(term: str) -> int:
    """A stable 64-bit key for a term (the same in every process and on every machine)."""
    return int.from_bytes(hashlib.blake2b(term.encode(), digest_size=8).digest(), "little")


def hashes(terms: Iterable[str]) -> np.ndarray:
    return np.fromiter(map(term_hash, terms), dtype=np.uint64)


@dataclass
class Segment:
    """Postings of a run of blocks: `docs[offsets[i]:offsets[i+1]]` contain term `keys[i]`."""

    keys: np.ndarray  # uint64, ascending
    offsets: np.ndarray  # int64, len(keys) + 1
    docs: np.ndarray  # int32 positions into rowids, ascending within a term
    counts: np.ndarray  # float32 weighted count of the term in the block
    lengths: np.ndarray  # float32 per block (position): its weighted length
    rowids: np.ndarray  # int64 block rowids, ascending

    def __len__(self) -> int:
        return len(self.rowids)

    def document_frequency(self, key_positions: np.ndarray, found: np.ndarray) -> np.ndarray:
        counts = self.offsets[key_positions + 1] - self.offsets[key_positions]
        return np.where(found, counts, 0)

    def lookup(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(row positions, whether each key is present)."""
        if len(self.keys) == 0:
            return np.zeros(len(keys), dtype=np.int64), np.zeros(len(keys), dtype=bool)
        where = np.clip(np.searchsorted(self.keys, keys), 0, len(self.keys) - 1)
        return where, self.keys[where] == keys


def block_terms(text: str, section: str, label: str) -> Counter[str]:
    """Weighted term counts of a block: its text, plus its section path and label at
    lower weights (a heading's words say less about a paragraph than its own)."""
    counts: Counter[str] = Counter(analyze(text))
    for extra, weight in ((section, SECTION_WEIGHT), (label, LABEL_WEIGHT)):
        for term in _heading_terms(extra) if extra else ():
            # Counter[str] is typed int; the weights are deliberately fractional.
            counts[term] = counts.get(term, 0) + weight  # type: ignore[assignment]
    return counts


@lru_cache(maxsize=20_000)
def _heading_terms(text: str) -> tuple[str, ...]:
    """analyze() of a section path or label: the blocks of a section share one."""
    return tuple(analyze(text))


BlockText = tuple[str, str, str]  # (text, section path, label) as the store holds a block


@dataclass
class Piece:
    """A run of blocks analysed into postings: one stored document's trusted blocks (while
    a batch is stored, keyword_index.TermsAhead) or the rows a segment met unanalysed."""

    blocks: list[BlockText]
    keys: np.ndarray  # uint64: the piece's distinct terms' hashes, ascending
    # the postings by term (as a position in keys), then by block:
    terms: np.ndarray  # int64 per posting: its term as a position in keys
    docs: np.ndarray  # int32 per posting: its block's position in the piece
    counts: np.ndarray  # float32 per posting: the weighted count of the term in the block
    lengths: np.ndarray  # float32 per block: its weighted length


def analysed(blocks: list[BlockText]) -> Piece:
    """The postings of `blocks`, in block order (each block's terms as block_terms has
    them)."""
    terms: list[str] = []  # the postings' terms, block after block
    docs: list[int] = []
    counts: list[float] = []
    lengths: list[float] = []
    for position, (text, section, label) in enumerate(blocks):
        weighted = block_terms(text, section, label)
        lengths.append(float(sum(weighted.values())))
        terms += weighted
        docs += [position] * len(weighted)
        counts += weighted.values()
    # Terms numbered in the order first met, then by their keys' order; the postings
    # sorted as a segment holds them (so joining pieces needs no sort of all postings).
    vocabulary = {term: n for n, term in enumerate(dict.fromkeys(terms))}
    ids = np.fromiter(map(vocabulary.__getitem__, terms), dtype=np.int64, count=len(terms))
    keys = hashes(vocabulary)
    order = np.argsort(keys, kind="stable")
    rank = np.empty(len(keys), dtype=np.int64)
    rank[order] = np.arange(len(keys))
    ranked, doc_array = rank[ids], np.asarray(docs, dtype=np.int32)
    by = np.lexsort((doc_array, ranked))
    tf = np.asarray(counts, dtype=np.float32)
    return Piece(
        blocks, keys[order], ranked[by], doc_array[by], tf[by], np.asarray(lengths, np.float32)
    )


# The pieces analysed ahead that may cover a segment's rows: (start position, piece) for
# each, covering every row in order (None: analyse them all now)
Cover = Callable[[list[BlockText]], list[tuple[int, Piece]]]


def build_segment(
    blocks: Iterable[tuple[int, str, str, str]], cover: Cover | None = None
) -> Segment:
    """A segment from (rowid, text, section path, label) rows in ascending rowid order;
    `cover`: blocks analysed ahead, matched to the rows by their text, section path and
    label (a row stored otherwise is analysed here), so the segment is the same either way."""
    rows = list(blocks)
    texts = [(text, section, label) for _, text, section, label in rows]
    pieces = cover(texts) if cover is not None else [(0, analysed(texts))]
    if not pieces:
        pieces = [(0, analysed([]))]
    rowids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    keys = _distinct(np.concatenate([piece.keys for _, piece in pieces]))
    # each piece's postings by the segment's term rows (ascending: both key lists are)
    rows_of = [np.searchsorted(keys, piece.keys)[piece.terms] for _, piece in pieces]
    offsets = np.zeros(len(keys) + 1, dtype=np.int64)
    np.cumsum(np.bincount(np.concatenate(rows_of), minlength=len(keys)), out=offsets[1:])
    length = np.concatenate([piece.lengths for _, piece in pieces]).astype(np.float32)
    docs = np.empty(int(offsets[-1]), dtype=np.int32)
    counts = np.empty(int(offsets[-1]), dtype=np.float32)
    filled = offsets[:-1].copy()  # per term row: where its next posting goes
    for (start, piece), term_rows in zip(pieces, rows_of, strict=True):
        # pieces come in block order and each holds its postings by term, then block: a
        # term's postings go after those of earlier pieces, in the piece's order
        first = np.searchsorted(term_rows, term_rows)  # where each posting's term begins
        at = filled[term_rows] + np.arange(len(term_rows)) - first
        docs[at] = piece.docs + start
        counts[at] = piece.counts
        begins = np.flatnonzero(first == np.arange(len(term_rows)))  # each term's first
        filled[term_rows[begins]] += np.diff(np.append(begins, len(term_rows)))
    return Segment(keys, offsets, docs, counts, length, rowids)


def _distinct(keys: np.ndarray) -> np.ndarray:
    """The distinct values of `keys`, ascending (np.unique's answer; np.unique imports
    numpy.ma, ~25 ms, in a process that has not)."""
    ordered = np.sort(keys)
    if len(ordered) < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def _csr(
    keys: np.ndarray,
    rows: np.ndarray,
    postings: tuple[np.ndarray, np.ndarray],
    lengths: np.ndarray,
    rowids: np.ndarray,
) -> Segment:
    """Sort (row, doc, count) postings into a segment with the given ascending keys."""
    docs, counts = postings
    order = np.lexsort((docs, rows))
    offsets = np.zeros(len(keys) + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=len(keys)), out=offsets[1:])
    return Segment(keys, offsets, docs[order].astype(np.int32), counts[order], lengths, rowids)


def _rows(segment: Segment) -> np.ndarray:
    return np.repeat(np.arange(len(segment.keys)), np.diff(segment.offsets))


def merge_segments(segments: list[Segment]) -> Segment:
    """One segment holding every posting of `segments` (given in ascending rowid order)."""
    keys = _distinct(np.concatenate([s.keys for s in segments]))
    rows, docs, counts = [], [], []
    base = 0
    for segment in segments:
        rows.append(np.searchsorted(keys, segment.keys)[_rows(segment)])
        docs.append(segment.docs.astype(np.int64) + base)
        counts.append(segment.counts)
        base += len(segment)
    rowids = np.concatenate([s.rowids for s in segments])
    lengths = np.concatenate([s.lengths for s in segments])
    postings = (np.concatenate(docs), np.concatenate(counts))
    return _csr(keys, np.concatenate(rows), postings, lengths, rowids)


def compact(segment: Segment, live: np.ndarray) -> Segment:
    """The segment without the blocks whose `live` flag (per position) is False."""
    if live.all():
        return segment
    renumber = np.cumsum(live) - 1
    keep = live[segment.docs]
    rows = _rows(segment)[keep]
    postings = (renumber[segment.docs[keep]], segment.counts[keep])
    return _csr(segment.keys, rows, postings, segment.lengths[live], segment.rowids[live])


def idf(document_frequency: np.ndarray, total: int) -> np.ndarray:
    """BM25 inverse document frequency, never negative (Lucene's form)."""
    df = document_frequency.astype(np.float64)
    return np.log1p((total - df + 0.5) / (df + 0.5))


def average_length(segments: Iterable[Segment]) -> float:
    """The blocks' mean weighted length over all `segments`: float32 lengths summed in
    float64 are exact, so the mean does not depend on how the blocks are split or ordered."""
    lengths = [s.lengths for s in segments]
    total = sum(float(np.sum(x, dtype=np.float64)) for x in lengths)
    count = sum(len(x) for x in lengths)
    return total / count if count else 1.0


def length_norms(segment: Segment, average: float) -> np.ndarray:
    """BM25's length term of each block of the segment, against `average` (average_length
    of the whole index)."""
    norms: np.ndarray = K1 * (1 - B + B * segment.lengths / max(average, 1e-6))
    return norms


def score_segment(
    segment: Segment,
    positions: np.ndarray,
    found: np.ndarray,
    term_idf: np.ndarray,
    norms: np.ndarray,
) -> np.ndarray:
    """BM25 score of every block of the segment (0 for blocks matching no term); `norms`:
    its blocks' length_norms."""
    scores = np.zeros(len(segment), dtype=np.float32)
    for row, present, weight in zip(positions, found, term_idf, strict=True):
        if present:
            start, end = segment.offsets[row], segment.offsets[row + 1]
            docs = segment.docs[start:end]
            tf = segment.counts[start:end]
            scores[docs] += np.float32(weight) * (tf * (K1 + 1) / (tf + norms[docs]))
    return scores
