"""BM25 over memory-mapped postings beside library.db, kept consistent with SQLite.

FTS5 scores every block that matches any query word: at 100k blocks a question's words
match ~20% of the library and BM25 alone takes tens of milliseconds; at a million, hundreds.
Here each term's postings carry the term's weighted count in each block, so a query is a
few vectorized gathers (postings.py), ~10x faster than FTS5 at scale. It is the SQLite
library's only keyword index: it ranks blocks and counts the blocks holding a term, in the
library or in one document (the answerer's in-paper IDF), without reading any text.

Files under `keywords/`: `index.json` names the segments and the `block_changes` counters
they reflect; each segment is six .npy arrays, immutable once written. New blocks become a
new segment; deletions compact the segments that held them; small segments are merged.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from citewise.retrieval.postings import (
    BlockText,
    Cover,
    Piece,
    Segment,
    analysed,
    analyze,
    average_length,
    build_segment,
    compact,
    hashes,
    idf,
    length_norms,
    merge_segments,
    score_segment,
)
from citewise.store.protocols import BlockSource
from citewise.store.sqlite.db import READ_ONLY
from citewise.store.sqlite.index_source import BlockState, file_lock

if TYPE_CHECKING:
    from citewise.documents.model import Document

FOLDER = "keywords"
FORMAT = 4  # bump when analysis or weighting changes: old files are rebuilt
ARRAYS = ("keys", "offsets", "docs", "counts", "lengths", "rowids")
MAX_SEGMENTS = 8
SEGMENT_BLOCKS = 200_000  # blocks analysed per new segment (bounds memory while building)


def trusted_blocks(doc: Document) -> list[BlockText]:
    """A document's blocks as the keyword index reads them: trusted ones, in order."""
    return [(b.text, b.section_path, b.label or "") for b in doc.blocks if b.trusted]


def document_postings(doc: Document) -> Piece | None:
    """`doc`'s keyword postings, analysed where it was parsed (ParseOptions.analyse): the
    storing process only joins them (TermsAhead.add)."""
    blocks = trusted_blocks(doc)
    return analysed(blocks) if blocks else None


class TermsAhead:
    """The postings of each document's trusted blocks, analysed as the document is stored
    while the parse workers read the rest of the batch, so the refresh after the batch
    builds its segment without analysing the text again (the batch's tail, when the workers
    are done, is left with joining the arrays). A document's piece is used for the rows that
    hold exactly its blocks (text, section path, label, in order); rows stored otherwise are
    analysed then, as without it."""

    def __init__(self) -> None:
        self.pieces: dict[BlockText, list[Piece]] = {}  # by their first block

    def add(self, doc_id: str, doc: Document) -> None:
        """Analyse `doc`'s trusted blocks (`doc_id`: the ID it was stored under, unused:
        the signature of an ingest's on_stored); the postings its parse worker analysed
        (`document_postings`) are taken as they are when the blocks are still those."""
        blocks = trusted_blocks(doc)
        if blocks:
            ahead = doc.analysed
            piece = (
                ahead if isinstance(ahead, Piece) and ahead.blocks == blocks else analysed(blocks)
            )
            self.pieces.setdefault(blocks[0], []).append(piece)

    def cover(self, rows: list[BlockText]) -> list[tuple[int, Piece]]:
        """(start, piece) covering `rows` in order: the pieces analysed ahead where they
        match a run of rows exactly, the rows between analysed now."""
        found: list[tuple[int, Piece]] = []
        done = at = 0  # rows before `done` are covered; `at` is the row looked at
        while at < len(rows):
            candidates = self.pieces.get(rows[at], ())
            piece = next((c for c in candidates if rows[at : at + len(c.blocks)] == c.blocks), None)
            if piece is None:
                at += 1
                continue
            if done < at:
                found.append((done, analysed(rows[done:at])))
            found.append((at, piece))
            at = done = at + len(piece.blocks)
        if done < len(rows):
            found.append((done, analysed(rows[done:])))
        return found


class KeywordIndex:
    """BM25 over one library's trusted blocks; `refresh` before searching after writes."""

    def __init__(self, library_dir: Path) -> None:
        self.folder = library_dir / FOLDER
        self.state: BlockState | None = None
        self._segments: list[Segment] = []
        self._norms: list[np.ndarray] | None = None  # per segment: its blocks' length norms
        self.names: list[str] = []

    @property
    def segments(self) -> list[Segment]:
        return self._segments

    @segments.setter
    def segments(self, segments: list[Segment]) -> None:
        self._segments, self._norms = segments, None

    def __len__(self) -> int:
        return sum(len(s) for s in self.segments)

    def length_norms(self) -> list[np.ndarray]:
        """Per segment, its blocks' BM25 length norms against the mean length over every
        segment: worked out once per set of segments."""
        if self._norms is None:
            average = average_length(self._segments)
            self._norms = [length_norms(s, average) for s in self._segments]
        return self._norms

    # -- files -----------------------------------------------------------------------

    def _manifest(self) -> dict[str, object] | None:
        try:
            manifest = json.loads((self.folder / "index.json").read_text())
        except (OSError, ValueError):
            return None
        return manifest if manifest.get("format") == FORMAT else None

    def _open(self, name: str) -> Segment:
        arrays = [np.load(self.folder / f"{name}.{a}.npy", mmap_mode="r") for a in ARRAYS]
        return Segment(*arrays)

    def _write(self, segment: Segment, name: str) -> None:
        for array in ARRAYS:
            np.save(self.folder / f"{name}.{array}.npy", getattr(segment, array))

    def _load(self, manifest: dict[str, object]) -> bool:
        # The manifest is JSON this class wrote: "segments" is a list of segment names.
        names = [str(n) for n in manifest["segments"]]  # type: ignore[attr-defined]
        try:
            segments = [self._open(n) for n in names]
        except (OSError, ValueError):
            return False  # files missing or cut short: rebuild
        self.segments, self.names = segments, names
        # "state" is the BlockState this class wrote as a JSON object.
        self.state = BlockState(**manifest["state"])  # type: ignore[arg-type]
        return True

    # -- keeping up with SQLite --------------------------------------------------------

    def refresh(self, source: BlockSource, cover: Cover | None = None) -> None:
        """Make the index match the database: one tiny query when nothing changed.
        `cover`: blocks analysed ahead (TermsAhead.cover), used where the rows match."""
        state = source.block_state()
        if self.state == state:
            return
        manifest = self._manifest()
        if manifest and manifest["state"] == asdict(state) and self._load(manifest):
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with file_lock(self.folder / "index.lock"):
                manifest = self._manifest()
                if manifest and manifest["state"] == asdict(state) and self._load(manifest):
                    return
                self._update(source, state, manifest, cover)
        except OSError as exc:
            if exc.errno not in READ_ONLY:
                raise
            # A read-only library: postings built in memory for this process.
            rows = source.iter_trusted_blocks()
            self.segments = [build_segment(chunk, cover) for chunk in rows]
            self.names, self.state = [""] * len(self.segments), state

    def _update(
        self,
        source: BlockSource,
        state: BlockState,
        manifest: dict[str, object] | None,
        cover: Cover | None = None,
    ) -> None:
        # "state" is the BlockState this class wrote as a JSON object.
        previous = BlockState(**manifest["state"]) if manifest else None  # type: ignore[arg-type]
        usable = (
            manifest is not None
            and previous is not None
            and previous.updated == state.updated
            and self._load(manifest)
        )
        segments = list(self.segments) if usable else []
        names = list(self.names) if usable else []
        # "next" is the segment counter this class wrote as a JSON number.
        counter = int(manifest.get("next", 0)) if manifest else 0  # type: ignore[call-overload]
        if usable and previous is not None and previous.deleted != state.deleted:
            live = source.trusted_rowids()
            for i, segment in enumerate(segments):
                alive = np.isin(segment.rowids, live)
                if not alive.all():
                    segments[i], names[i] = compact(segment, alive), ""
        kept = [i for i, segment in enumerate(segments) if len(segment)]  # all deleted: drop
        segments, names = [segments[i] for i in kept], [names[i] for i in kept]
        after = int(max((s.rowids[-1] for s in segments), default=0))
        for rows in source.iter_trusted_blocks(after, SEGMENT_BLOCKS):
            segments.append(build_segment(rows, cover))
            names.append("")
        if len(segments) > MAX_SEGMENTS:
            # Merge the small tail into one; the whole index when the tail has grown large.
            head = 1 if len(segments[0]) > 4 * sum(len(s) for s in segments[1:]) else 0
            segments = segments[:head] + [merge_segments(segments[head:])]
            names = names[:head] + [""]
        for i, segment in enumerate(segments):
            if not names[i]:
                names[i] = f"s{counter:06d}"
                counter += 1
                self._write(segment, names[i])
        manifest = {"format": FORMAT, "segments": names, "state": asdict(state), "next": counter}
        tmp = self.folder / f"index.json.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(manifest))
        os.replace(tmp, self.folder / "index.json")
        live_names = set(names)
        for path in self.folder.glob("s*.npy"):
            if path.name.split(".")[0] not in live_names:
                path.unlink(missing_ok=True)  # mapped elsewhere? POSIX keeps it until unmapped
        self._load(manifest)

    # -- search ------------------------------------------------------------------------

    def frequencies(self, terms: list[str], allowed: np.ndarray | None = None) -> dict[str, int]:
        """Blocks holding each of `terms` (all of its words, as the index analyses them),
        among `allowed` (ascending block rowids) when given, else in the whole index."""
        counts = dict.fromkeys(terms, 0)
        words = {term: list(dict.fromkeys(analyze(term))) for term in counts}
        distinct = list(dict.fromkeys(w for term_words in words.values() for w in term_words))
        if not distinct:
            return counts
        keys = hashes(distinct)
        for segment in self.segments:
            positions, present = segment.lookup(keys)
            if not present.any():
                continue
            mask = None if allowed is None else _positions_mask(segment, allowed)
            postings = {
                word: segment.docs[segment.offsets[p] : segment.offsets[p + 1]]
                for word, p, found in zip(distinct, positions, present, strict=True)
                if found
            }
            for term, term_words in words.items():
                if not term_words or any(w not in postings for w in term_words):
                    continue
                docs = postings[term_words[0]]
                for word in term_words[1:]:
                    docs = np.intersect1d(docs, postings[word], assume_unique=True)
                counts[term] += len(docs) if mask is None else int(mask[docs].sum())
        return counts

    def search(
        self, terms: list[str], limit: int, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """(block rowid, BM25 score) of the best `limit` blocks matching any of `terms`,
        and every block tied with the last of them (up to TIES_KEPT times `limit`): which of
        equal blocks would be cut depends on the order they were stored in, so the caller
        breaks such ties by stable keys.

        `allowed` (ascending block rowids) restricts the search to those blocks.
        """
        words = list(dict.fromkeys(t for term in terms for t in analyze(term)))
        if not words or not self.segments or limit <= 0:
            return []
        keys = hashes(words)
        lookups = [segment.lookup(keys) for segment in self.segments]
        frequency = sum(
            (s.document_frequency(p, f) for s, (p, f) in zip(self.segments, lookups, strict=True)),
            start=np.zeros(len(keys), dtype=np.int64),
        )
        weights = idf(frequency, len(self))
        norms = self.length_norms()
        found_rowids, found_scores = [], []
        for n, (segment, (positions, present)) in enumerate(
            zip(self.segments, lookups, strict=True)
        ):
            if len(segment) == 0 or not present.any():
                continue
            scores = score_segment(segment, positions, present, weights, norms[n])
            if allowed is not None:
                scores[~_positions_mask(segment, allowed)] = 0.0
            hits = np.flatnonzero(scores)
            if len(hits) > limit:
                last = np.partition(scores[hits], len(hits) - limit)[len(hits) - limit]
                hits = hits[scores[hits] >= last]
            found_rowids.append(segment.rowids[hits])
            found_scores.append(scores[hits])
        if not found_rowids:
            return []
        rowids, scores = np.concatenate(found_rowids), np.concatenate(found_scores)
        order = np.lexsort((rowids, -scores))
        if len(order) > limit:
            tied = np.count_nonzero(scores[order[limit:]] == scores[order[limit - 1]])
            order = order[: min(limit + tied, TIES_KEPT * limit)]
        return [(int(rowids[i]), float(scores[i])) for i in order]


# Blocks tied with the last of a search's `limit` best are kept, up to this many times
# `limit` (a crowd of equal blocks beyond that is cut in stored order).
TIES_KEPT = 4


def _positions_mask(segment: Segment, allowed: np.ndarray) -> np.ndarray:
    """Per position of the segment: whether its block's rowid is among `allowed`."""
    mask = np.zeros(len(segment), dtype=bool)
    if len(allowed):
        where = np.clip(np.searchsorted(segment.rowids, allowed), 0, len(segment) - 1)
        mask[where[segment.rowids[where] == allowed]] = True
    return mask
