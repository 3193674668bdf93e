"""The optional GROBID backend, replayed from the recorded TEI in ../shared/groundtruth/grobid
through httpx.MockTransport (the real client code runs; only the server is recorded)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from citewise.documents.references.grobid import GrobidClient, parse_tei_references
from citewise.ingest import ingest
from citewise.store.sqlite.library import LibraryStore
from citewise.store.sqlite.references import citations, references
from tests.conftest import SHARED

TEI = SHARED / "groundtruth" / "grobid" / "N18-3011.tei.xml"
PDF = SHARED / "corpus" / "N18-3011.pdf"

SMALL_TEI = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><back><div type="references"><listBibl>
<biblStruct xml:id="b0"><analytic>
  <title level="a" type="main">Echoes in hard rock</title>
  <author><persName><forename type="first">Ben</forename>
    <surname>Stone</surname></persName></author>
  <author><persName><forename type="first">Ada</forename>
    <surname>Quarry</surname></persName></author>
  <idno type="DOI">10.5555/rock.2021.9</idno></analytic>
  <monogr><title level="j">Journal of Rock Acoustics</title>
  <imprint><date type="published" when="2021-05" /></imprint></monogr>
  <note type="raw_reference">Stone, B. and Quarry, A. 2021. Echoes in hard rock.</note>
</biblStruct></listBibl></div></back></text></TEI>"""


def test_tei_entries_become_references() -> None:
    (ref,) = parse_tei_references(SMALL_TEI)
    assert ref.authors == ["Ben Stone", "Ada Quarry"]
    assert (ref.title, ref.year, ref.venue, ref.doi) == (
        "Echoes in hard rock",
        2021,
        "Journal of Rock Acoustics",
        "10.5555/rock.2021.9",
    )
    assert ref.raw == "Stone, B. and Quarry, A. 2021. Echoes in hard rock."


@pytest.mark.skipif(not (TEI.is_file() and PDF.is_file()), reason="shared GROBID TEI absent")
def test_ingest_with_grobid_stores_its_references_and_links(tmp_path: Path) -> None:
    seen: list[httpx.Request] = []

    def grobid(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(
            200, text=TEI.read_text(), headers={"content-type": "application/xml"}
        )

    client = GrobidClient("http://grobid.test:8070/", transport=httpx.MockTransport(grobid))
    store = LibraryStore(tmp_path / "lib")
    report = ingest(store, [PDF], grobid=client)
    assert report.failed == [] and report.warnings == []
    (request,) = seen
    assert str(request.url) == "http://grobid.test:8070/api/processReferences"
    assert b'name="input"' in request.content and b"%PDF" in request.content
    (doc_id,) = report.added
    refs = references(store, doc_id)
    assert len(refs) == 27
    assert refs[0].title.startswith("The ai2 system at semeval-2017 task 10")
    assert refs[0].authors[:2] == ["Waleed Ammar", "Matthew E Peters"]
    assert sum(r.block_id is not None for r in refs) >= 25  # each entry finds its printed block
    assert len({ref for _, ref, _ in citations(store, doc_id)}) >= 20
    store.close()


def test_grobid_down_keeps_the_built_in_references_with_a_warning(tmp_path: Path) -> None:
    def down(request: httpx.Request) -> httpx.Response:
        return httpx.Response(503, text="busy")

    from tests.structure.paper import write_structured_paper

    pdf = write_structured_paper(tmp_path / "echo.pdf")
    client = GrobidClient("http://grobid.test:8070", transport=httpx.MockTransport(down))
    store = LibraryStore(tmp_path / "lib")
    report = ingest(store, [pdf], grobid=client)
    (doc_id,) = report.added
    assert report.warnings == [
        (str(pdf.resolve()), "GROBID answered HTTP 503; built-in reference parsing used")
    ]
    assert [r.title for r in references(store, doc_id)] == [
        "Saw blades and hidden cracks",
        "Spectral features for stone",
        "Echoes in hard rock",
    ]
    store.close()
