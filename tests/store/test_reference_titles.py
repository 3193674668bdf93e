"""Title matching of bibliography entries: the bounds that skip rapidfuzz never change
what it would have decided."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from rapidfuzz import fuzz

from citewise.store.sqlite.references import TITLE_MATCH, _close, _norm

TITLES = [
    "Columnar jointing of basalt flows",
    "Columnar jointing of basalt flow",
    "Columnar jointng of basalt flows",
    "Granite sorting with acoustic probes",
    "Granite sorting, acoustic probes",
    "Attention is all you need",
    "Attention is not all you need",
    "Deep residual learning for image recognition",
    "Deep residual learning for image recognitions",
    "A survey of retrieval augmented generation",
    "Retrieval augmented generation for knowledge intensive NLP tasks",
]


def _typos(rng: random.Random, title: str) -> str:
    chars = list(title)
    for _ in range(rng.randint(0, 4)):
        i = rng.randrange(len(chars))
        chars[i : i + rng.randint(0, 2)] = rng.choice(["", "e", "s", " ", "ab"])
    return "".join(chars)


@pytest.mark.parametrize("imported", [True, False])
def test_close_titles_decide_as_rapidfuzz_alone(imported: bool, monkeypatch) -> None:
    if not imported:  # as in a process that has not imported it yet: both bounds apply
        monkeypatch.delitem(sys.modules, "rapidfuzz.fuzz")
    rng = random.Random(7)
    titles = TITLES + [_typos(rng, rng.choice(TITLES)) for _ in range(300)]
    decided = {True: 0, False: 0}
    for a in titles:
        for b in rng.sample(titles, 40) + [a]:
            na, nb = _norm(a), _norm(b)
            if len(na) < 12 or len(nb) < 12:
                continue
            expected = fuzz.ratio(na, nb) >= TITLE_MATCH
            assert _close(na, 2020, nb, 2021) is expected, (a, b)
            decided[expected] += 1
    assert ("rapidfuzz.fuzz" in sys.modules) is imported
    assert decided[True] > 300 and decided[False] > 3000  # both outcomes well exercised


def test_titles_the_bounds_rule_out_do_not_import_rapidfuzz() -> None:
    code = (
        "import sys\n"
        "from citewise.store.sqlite.references import _close, _norm\n"
        "a, b = _norm('Columnar jointing of basalt flows'), _norm('Granite sorting probes')\n"
        "assert not _close(a, None, b, None) and _close(a, None, a, None)\n"
        "assert not _close(a, None, _norm('Lava tubes of the island volcanoes'), None)\n"
        "print('rapidfuzz' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
