"""The parser's C-speed shortcuts give what the plain code they stand for gives: the
vocabulary's ASCII word split and its look at broken line ends only, a size rounded once."""

from __future__ import annotations

import math
import random
import struct

from citewise.documents.pdf import hyphenation
from citewise.documents.pdf.hyphenation import vocabulary
from citewise.documents.pdf.segments import round_size


def _vocabulary_by_regex(texts: list[str]) -> frozenset[str]:
    """The vocabulary as it was computed before its shortcuts: every line, one regex."""
    lines: list[str] = []
    broken = False
    for text in texts:
        if broken:
            text = hyphenation._FIRST_WORD.sub("", text)
        end = text.rstrip()
        broken = end.endswith("-") and bool(hyphenation._BROKEN.search(end))
        if text.endswith(("-", "-\n")):
            text = hyphenation._LAST_BROKEN.sub("", text)
        lines.append(text)
    return frozenset(map(str.lower, set(hyphenation._WORD.findall("\n".join(lines)))))


def test_vocabulary_matches_the_regex_on_random_lines() -> None:
    rng = random.Random(15)
    alphabet = "aZ9_- -\n\t.,éİß\u00ad–x-"
    for _ in range(20_000):
        lines = [
            "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
            for _ in range(rng.randint(0, 6))
        ]
        assert vocabulary(lines) == _vocabulary_by_regex(lines), lines


def test_vocabulary_matches_the_regex_on_prose_with_broken_words() -> None:
    lines = [
        "The state-of-the-art implemen-",
        "tation of MrBayes (Ronquist 2012) runs __init__ and x_1 in",
        "Zürich's co-author -- and a non-",
        "linear model_ is well- ",
        "known; see Fig. 3-",
        "4 and the self-",
        "",
        "-attention -x- a-b-c _ab_ 3D",
    ]
    assert vocabulary(lines) == _vocabulary_by_regex(lines)
    assert "implementation" not in vocabulary(lines)  # broken words are no words
    assert {"mrbayes", "state-of-the-art", "x_1", "init", "a-b-c", "3d"} <= vocabulary(lines)


def test_a_size_rounded_once_is_what_round_gives() -> None:
    rng = random.Random(15)
    values = [rng.uniform(0, 80) for _ in range(5_000)]
    values += [struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0] for _ in range(5_000)]
    values += [0.0, -0.0, 2.675, 0.05, 0.15, float("inf"), float("nan"), 9, True]
    for digits in (1, 2):
        for value in values * 2:  # the second time from the memo
            got, want = round_size(value, digits), round(value, digits)
            if isinstance(want, float) and math.isnan(want):
                assert math.isnan(got)
                continue
            assert type(got) is type(want) and got == want
            assert math.copysign(1, got) == math.copysign(1, want)  # -0.0 stays -0.0


def test_identifier_look_ups_find_what_their_regexes_find() -> None:
    from citewise.documents.pdf.metadata import DOI
    from citewise.documents.references.entries import ARXIV, _arxiv, _doi

    entries = [
        "Smith J. 2020. A title. arXiv:2001.01234v2.",
        "Smith J. 2020. A title. ARXIV: 2001.01234.",
        "Lee K. 2019. Another. CoRR, abs/1901.00001.",
        "Lee K. 2019. Another. corr abs/1901.00001",
        "Doe A. 2018. Web. https://arxiv.org/pdf/1801.00001v1",
        "Kim B. 2021. No identifier at all, 10 pages.",
        "Kim B. 2021. Journal 3(2). doi:10.1145/3290605.3300001.",
        "Kim B. 2021. Journal 3(2). 10.1145/3290605",
        "Unicode arXıv:2001.01234 and ſ and K: case folding beyond ASCII",
        "Nothing but ARXİV:2001.01234",
        "",
    ]
    for text in entries:
        for mine, regex in ((_arxiv, ARXIV), (_doi, DOI)):
            got, want = mine(text), regex.search(text)
            assert (got and got.span()) == (want and want.span()), text
