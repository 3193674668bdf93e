"""Parsing a batch in worker processes gives what parsing it here gives, errors included."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from citewise.documents import Document, read_document
from citewise.documents.pool.parallel import WORKERS_VARIABLE, ParseOptions, ParsePool, worker_count
from citewise.errors import CitewiseError
from tests.hostile import write_stacked_lines
from tests.pdfs import write_paper


def outcome(parse, path: Path) -> tuple[str, ...]:
    try:
        doc = parse(path)
    except CitewiseError as exc:
        return ("error", type(exc).__name__, exc.code, exc.message, exc.hint)
    return ("doc", doc.title or "", str(doc.pages), *(b.text for b in doc.blocks))


def given(result: Document | Exception):
    def parse(path: Path) -> Document:
        if isinstance(result, Exception):
            raise result
        return result

    return parse


def test_pool_gives_the_same_documents_and_errors_as_parsing_in_process(tmp_path: Path) -> None:
    files = [write_paper(tmp_path / f"paper{i}.pdf", title=f"Paper number {i}") for i in range(3)]
    (tmp_path / "empty.pdf").write_bytes(b"")
    (tmp_path / "notes.pdf").write_text("not a PDF at all\n" * 10)
    (tmp_path / "table.xyz").write_text("unsupported")
    files += [tmp_path / "empty.pdf", tmp_path / "notes.pdf", tmp_path / "table.xyz"]
    expected = {f: outcome(read_document, f) for f in files}
    with ParsePool(files, options=ParseOptions(workers=2)) as pool:
        got = {path: outcome(given(result), path) for path, result in pool.results()}
    assert got == expected
    assert sorted(o[0] for o in got.values()) == ["doc"] * 3 + ["error"] * 3
    assert got[files[3]][2] == got[files[4]][2] == "BAD_DOCUMENT" and got[files[5]][4]  # hint


def test_parse_runs_a_file_not_submitted_in_a_worker_too(tmp_path: Path) -> None:
    paper = write_paper(tmp_path / "paper.pdf")
    with ParsePool([]) as pool:
        assert pool.parse(paper).title == read_document(paper).title
        with pytest.raises(CitewiseError) as caught:
            pool.parse(tmp_path / "missing.pdf")
        assert caught.value.code == "BAD_DOCUMENT"


def test_a_digest_the_caller_has_reaches_the_document_unhashed_again(tmp_path: Path) -> None:
    papers = [write_paper(tmp_path / f"paper{i}.pdf", title=f"Paper {i}") for i in range(2)]
    real = hashlib.sha256(papers[0].read_bytes()).hexdigest()
    assert read_document(papers[0]).sha256 == real  # hashed by the reader when not given
    given_digest = "ab" * 32  # not the content's: only a digest taken as given shows up
    assert read_document(papers[0], sha256=given_digest).sha256 == given_digest
    with ParsePool(papers, options=ParseOptions(workers=1), digests={papers[0]: real}) as pool:
        got = {path: result for path, result in pool.results()}
    assert isinstance(got[papers[0]], Document) and got[papers[0]].sha256 == real
    other = got[papers[1]]  # no digest given: the worker hashes it
    assert isinstance(other, Document)
    assert other.sha256 == hashlib.sha256(papers[1].read_bytes()).hexdigest()


def test_worker_count_follows_the_override_and_the_batch_size() -> None:
    wanted = ParseOptions.from_environ({WORKERS_VARIABLE: "3"}).workers
    assert worker_count(10, wanted) == 3
    assert worker_count(2, wanted) == 2
    assert worker_count(10, 1) == 1
    assert worker_count(0, 1) == 1
    assert ParseOptions.from_environ({WORKERS_VARIABLE: "none"}).workers is None


def test_one_worker_parses_file_after_file_and_a_killed_one_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = write_stacked_lines(tmp_path / "slow.pdf", lines=40_000)  # seconds of work
    good = [write_paper(tmp_path / f"good{i}.pdf", title=f"Good paper {i}") for i in range(3)]
    expected = {f: outcome(read_document, f) for f in good}
    pids: dict[str, int] = {}  # which process each file's job ran in, in the order they ended
    release = ParsePool._release

    def recording(self: ParsePool, job: Any) -> None:  # every job passes here as it ends
        pids[job.path.name] = job.pid
        release(self, job)

    monkeypatch.setattr(ParsePool, "_release", recording)
    with ParsePool([good[0], good[1], slow, good[2]], options=ParseOptions(workers=1)) as pool:
        got: dict[Path, tuple[str, ...]] = {}
        killed = False
        with pool._changed:  # the pool's thread changes the jobs under this, and says so
            while len(got) < 4:
                for job in pool._running:
                    if job.path == slow and not killed:
                        os.kill(job.pid, signal.SIGKILL)  # mid-parse: what the OOM killer does
                        killed = True
                got.update((path, outcome(given(result), path)) for path, result in pool._done)
                pool._done.clear()
                pool._changed.wait(1.0)
    assert {f: got[f] for f in good} == expected
    assert got[slow][:3] == ("error", "TooLargeError", "TOO_LARGE")
    # the largest file goes first; after it was killed one new process parsed the rest
    assert list(pids)[0] == "slow.pdf"
    assert pids["good0.pdf"] == pids["good1.pdf"] == pids["good2.pdf"] != pids["slow.pdf"]


def test_a_worker_without_colour_management_reads_cmyk_text_as_a_process_does(
    tmp_path: Path,
) -> None:
    """Workers read text with MuPDF's colour management off (no CMYK transform to build:
    ocr.without_colour_management); CMYK-coloured text comes out exactly as a process with
    it on reads it."""
    import pymupdf

    path = tmp_path / "cmyk.pdf"
    with pymupdf.open() as doc:
        page = doc.new_page()
        page.insert_text((72, 100), "Results in process colour", fontsize=14, color=(1, 0, 0, 0))
        page.insert_text((72, 130), "Body text set in black ink.", color=(0, 0, 0, 1))
        doc.save(path)
    with ParsePool([path], options=ParseOptions(workers=1)) as pool:
        got = {p: outcome(given(result), p) for p, result in pool.results()}
    assert got[path] == outcome(read_document, path)
    assert "Body text set in black ink." in got[path]


def test_workers_end_as_the_queue_empties_and_a_later_file_gets_a_new_one(tmp_path: Path) -> None:
    papers = [write_paper(tmp_path / f"paper{i}.pdf", title=f"Paper {i}") for i in range(3)]
    with ParsePool(papers[:2], options=ParseOptions(workers=2)) as pool:
        done = dict(pool.results())
        assert all(isinstance(d, Document) for d in done.values())
        assert pool._idle == [] and len(pool._ending) == 2  # nothing left for them to parse
        for worker in pool._ending:
            worker.process.join(timeout=10)  # killed already: it exits without being told
            assert worker.process.exitcode == -signal.SIGKILL
        later = pool.parse(papers[2])
        assert outcome(given(later), papers[2]) == outcome(read_document, papers[2])
        ended = list(pool._ending)
    assert len(ended) == 3 and all(w.reaped for w in ended)  # close reaped every one


def test_files_submitted_one_by_one_are_parsed_as_they_come(tmp_path: Path) -> None:
    papers = [write_paper(tmp_path / f"paper{i}.pdf", title=f"Paper {i}") for i in range(3)]
    with ParsePool([], options=ParseOptions(workers=2), expected=len(papers)) as pool:
        pool.submit(papers[0])
        # the first file is with a worker before any other is given
        assert [child.pid for child in multiprocessing.active_children()]
        for paper in papers[1:]:
            pool.submit(paper, hashlib.sha256(paper.read_bytes()).hexdigest())
        got = {path: result for path, result in pool.results()}
    assert sorted(got) == sorted(papers)
    assert all(isinstance(doc, Document) for doc in got.values())
    assert [got[p].title for p in papers] == [read_document(p).title for p in papers]


def test_an_ingest_starts_parsing_before_the_last_file_is_hashed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citewise import ingest_files
    from citewise.api import Library

    papers = [write_paper(tmp_path / f"paper{i}.pdf", title=f"Paper {i}") for i in range(3)]
    hashed = ingest_files.digest
    parsing_while_hashing: list[bool] = []

    def digest(path: Path, max_mb: float | None = None) -> str | None:
        parsing_while_hashing.append(bool(multiprocessing.active_children()))
        return hashed(path, max_mb)

    monkeypatch.setattr(ingest_files, "digest", digest)
    with Library(tmp_path / "lib", embeddings=False) as lib:
        report = lib.ingest(papers)
    assert len(report.added) == 3 and not report.failed
    # the largest file is hashed first with no worker yet; the others once it is parsing
    assert parsing_while_hashing == [False, True, True]
