"""Answers are a function of the library's content (issue 35): the same files ingested in
another order, by another number of parse workers, and asked in a process with another hash
seed give byte-identical `ask --json` output, timings apart.

The corpus repeats a sentence across papers and a table row across reports, so whole-library
retrieval meets exact ties, which must be broken by the blocks' place in the library (document
ID, reading order), never by the order the files happened to be stored in."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.commands import citewise

REPEATED = "Every measurement was repeated five times and the median of the five runs is reported."
PAPERS = {
    "glacier.md": f"""# Listening to Glaciers with Cheap Seismic Sensors

## Method

We buried twelve geophones along the tongue of the Vadret glacier. {REPEATED}

## Results

The sensor network detected 412 icequakes in July. Battery life reached 41 days in the cold.
""",
    "orchard.md": f"""# Counting Apples from a Tractor Camera

## Method

A camera on the tractor photographed each tree row twice a week. {REPEATED}

## Results

The counting model reached a mean absolute error of 3.1 apples per tree.
""",
    "harbour.md": f"""# Harbour Noise and Porpoise Calls

## Method

Hydrophones recorded the harbour entrance for a whole winter. {REPEATED}

## Results

Porpoise calls fell by 38 percent on days with ferry traffic.
""",
    # two sets of field notes that share a paragraph word for word: one block twice, an
    # exact tie for both retrievers
    "notes-east.txt": f"""Field notes from the eastern weather station

The station logged wind speed and snow depth every ten minutes.

{REPEATED}
""",
    "notes-west.txt": f"""Field notes from the western weather station

The station logged air pressure and rainfall every five minutes.

{REPEATED}
""",
    "river.html": """<html><head><title>River Level Forecasts from Upstream Gauges</title></head>
<body><h1>River Level Forecasts from Upstream Gauges</h1>
<p>The forecast model reads six upstream gauges every hour.</p>
<table><tr><th>Dataset</th><th>2021</th><th>2022</th></tr>
<tr><td>Spring floods</td><td>0.81</td><td>0.84</td></tr>
<tr><td>Summer storms</td><td>0.77</td><td>0.79</td></tr></table>
<p>Accuracy is the share of hours whose forecast fell within ten centimetres.</p>
</body></html>
""",
    "creek.html": """<html><head><title>Creek Level Forecasts in Small Catchments</title></head>
<body><h1>Creek Level Forecasts in Small Catchments</h1>
<p>The forecast model reads two gauges every hour.</p>
<table><tr><th>Dataset</th><th>2021</th><th>2022</th></tr>
<tr><td>Spring floods</td><td>0.81</td><td>0.84</td></tr>
<tr><td>Autumn rain</td><td>0.70</td><td>0.72</td></tr></table>
<p>Accuracy is the share of hours whose forecast fell within ten centimetres.</p>
</body></html>
""",
}
QUESTIONS = [
    "How many times was each measurement repeated?",
    "What accuracy did the forecasts reach on spring floods in 2022?",
    "How many icequakes did the glacier sensors detect?",
    "What error did the apple counting model reach?",
    "Which telescope observed the comet?",
]
ASK_ALL = """
import json, sys
from citewise.api import Library
with Library(sys.argv[1]) as lib:
    for question in json.loads(sys.argv[2]):
        answer = lib.ask(question, review=False).to_dict()
        answer.pop("timings_ms", None)
        print(json.dumps(answer, sort_keys=True))
"""


def _corpus(folder: Path) -> list[Path]:
    """The papers, each padded to one size: a batch parses its largest files first, so
    files of one size are stored in the order they are named."""
    folder.mkdir()
    size = max(len(text.encode()) for text in PAPERS.values()) + 64
    paths = []
    for name, text in PAPERS.items():
        path = folder / name
        path.write_bytes(text.encode() + b"\n" * (size - len(text.encode())))
        paths.append(path)
    return sorted(paths)


def _stored_order(library: Path) -> list[str]:
    db = sqlite3.connect(library / "library.db")
    try:
        rows = db.execute("SELECT document_id FROM blocks ORDER BY rowid").fetchall()
    finally:
        db.close()
    return list(dict.fromkeys(r[0] for r in rows))


def _held(library: Path, text: str) -> int:
    db = sqlite3.connect(library / "library.db")
    try:
        return int(db.execute("SELECT count(*) FROM blocks WHERE text = ?", (text,)).fetchone()[0])
    finally:
        db.close()


def _answers(library: Path, seed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", ASK_ALL, str(library), json.dumps(QUESTIONS)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    return done.stdout.splitlines()


def test_the_same_files_in_another_order_give_the_same_answers(tmp_path: Path) -> None:
    papers = _corpus(tmp_path / "papers")
    one, two = tmp_path / "one", tmp_path / "two"
    first = citewise(
        one, "ingest", str(tmp_path / "papers"), CITEWISE_PARSE_WORKERS="2", PYTHONHASHSEED="1"
    )
    assert first.returncode == 0, first.stderr
    for path in reversed(papers):  # one batch per file, last name first, one worker
        again = citewise(two, "ingest", str(path), CITEWISE_PARSE_WORKERS="1", PYTHONHASHSEED="2")
        assert again.returncode == 0, again.stderr
    assert _stored_order(one) != _stored_order(two)
    assert sorted(_stored_order(one)) == sorted(_stored_order(two))

    answers = _answers(one, "3")
    assert len(answers) == len(QUESTIONS)
    assert answers == _answers(two, "4")
    # there were ties to break: the answer quotes a block the library holds twice
    quoted = json.loads(answers[0])["evidence"][0]["quote"]
    assert _held(one, quoted) == 2
