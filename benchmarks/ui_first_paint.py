"""The web app's first paint of a large library: time from navigation to the document table
showing every row, in headless Debian chromium against `citewise serve` on loopback.

    python benchmarks/ui_first_paint.py [--documents 200] [--repeat 5]

Writes N one-page PDFs (tests/pdfs.py), ingests them without embeddings, serves the library,
then loads / in a fresh browser context each time and reports the median and the worst.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from citewise.api import Library  # noqa: E402
from tests.pdfs import write_paper  # noqa: E402
from tests.server.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.server.conftest import start  # noqa: E402


def build(folder: Path, count: int) -> Path:
    papers = []
    for n in range(count):
        sections = [(f"{k} Part", [f"Paper {n} reports {k * 7 + n} samples."]) for k in (1, 2)]
        papers.append(write_paper(folder / f"p{n:04d}.pdf", f"Study number {n}", sections))
    library = folder / "library"
    with Library(library, embeddings=False) as lib:
        report = lib.ingest(papers)
    assert not report.failed
    return library


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--documents", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        library = build(Path(tmp), args.documents)
        print(f"built {args.documents} documents in {time.perf_counter() - started:.1f} s")
        for server in start(library):
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                times = []
                for _ in range(args.repeat):
                    context = browser.new_context()
                    page = context.new_page()
                    began = time.perf_counter()
                    page.goto(server.url + "/")
                    # a selector, not a JS expression: the page's CSP forbids eval
                    page.wait_for_selector(f"#documents tbody tr:nth-child({args.documents})")
                    times.append(time.perf_counter() - began)
                    context.close()
                browser.close()
    median, worst = statistics.median(times), max(times)
    print(f"first paint of {args.documents} documents: median {median:.3f} s, worst {worst:.3f} s")


if __name__ == "__main__":
    main()
