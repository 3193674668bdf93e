"""Garbage text-layer detection: cipher-like text is flagged, language and code are not."""

from __future__ import annotations

import random

from citewise.documents.pdf.ocr import (
    FUNCTION_WORDS,
    WORD,
    _surely_language,
    page_text_is_garbage,
    text_stats,
)
from tests.documents.conftest import ABSTRACT, INTRO, METHOD, TRAINING, caesar

ENGLISH = " ".join(ABSTRACT + INTRO + METHOD + TRAINING)
R_CODE = """
R> model1 <- initModel(mod_type = "kin", kinpar = c(7.9, 1.08, 0.129, .0225, .00156),
+ irfpar = c(-.1018, 0.0434), parmu = list(c(.230)), lambdac = 650, seqmod = TRUE,
+ positivepar = c("kinpar"), weightpar = list(c(-16, -.1, NA, NA, .1)),
+ cohspec = list(type = "irf"))
R> fit1 <- fitModel(data = list(psi_1, psi_2), list(model1), opt = kinopt(iter = 5,
+ linrange = 10, makeps = "den1", selectedtraces = c(1, 5, 10), plotkinspec = TRUE,
+ output = "pdf", xlab = "time (ps)", ylab = "wavelength"))
Read 1 item Read 2385 items psi_1 <- preProcess(data = psi_1, scalx2 = c(3.78, 643.5))
"""
GERMAN = (
    "Die Proben wurden im Steinbruch gesammelt und anschließend im Labor untersucht. "
    "Jeder Block wurde vierzigmal angeschlagen, und das Echo wurde mit einem Mikrofon "
    "aufgezeichnet. Die Ergebnisse zeigen, dass nasse Blöcke schwieriger zu erkennen sind, "
    "weil das Wasser die Schwingungen dämpft und die Frequenzen verschiebt. "
) * 2
TABLE = (
    "Model Tree Model type p lnL LRT modelA Sample_MSA_Primates Lineage-site 3 2 "
    "−568.572319 m1Neutral p0 = 0.35065 p1 = 0.64935 w0 = 0.08403 w1 = 1.00000 No "
    "modelAnull Sample_MSA_Chimp Lineage-site 3 1 −557.052657 N/A BLAST HMMER NCBI GTR "
) * 3


def test_english_prose_is_not_garbage() -> None:
    assert not page_text_is_garbage(ENGLISH)


def test_shifted_font_encoding_is_garbage() -> None:
    garbled = caesar(ENGLISH)
    assert garbled.startswith("Ptzqqhdr knrd lnmdx")
    assert page_text_is_garbage(garbled)


def test_code_listing_other_languages_and_tables_are_not_garbage() -> None:
    assert not page_text_is_garbage(R_CODE)
    assert not page_text_is_garbage(GERMAN)
    assert not page_text_is_garbage(TABLE)


def test_too_little_text_is_never_judged() -> None:
    assert not page_text_is_garbage("Opnbddchmfr ne sgd 51mc mmtZk Lddshmf")
    assert not page_text_is_garbage("")


def test_text_stats_signals() -> None:
    stats = text_stats("the sgd mmtZk of BLAST")
    assert stats.tokens == 5
    assert stats.function_share == 0.4
    # of 'the', 'sgd', 'mmtZk' two lack vowels; the acronym BLAST does not count
    assert stats.voweless_share == 2 / 3
    assert stats.inner_caps_share == 0.2


def test_the_quick_bound_only_ever_answers_as_the_word_count_would() -> None:
    """`_surely_language` decides prose from whitespace tokens; wherever it says yes, the
    regex word count finds >= 5% function words (or too few words to judge) as well."""

    def counted(text: str) -> bool:
        words = WORD.findall(text)
        function = sum(w.lower() in FUNCTION_WORDS for w in words)
        return len(words) < 40 or function / len(words) >= 0.05

    assert _surely_language(ENGLISH)  # English prose: decided quickly
    assert not _surely_language(caesar(ENGLISH))  # cipher text: left to the full check
    rng = random.Random(15)
    alphabet = ["the", "of", "a", "x", "ﬁ", "²", "½", "_", "9", ".", "-", "é", " ", "\n", "x.y"]
    texts = [ENGLISH, R_CODE, GERMAN, TABLE, caesar(ENGLISH), "the", "", " ".join("ab" * 99)]
    texts += ["".join(rng.choices(alphabet, k=rng.randint(0, 200))) for _ in range(3000)]
    # many words packed into one token each ('x.x.x.x'): few tokens, many WORDs
    texts += ["the of " * n + "x.x.x.x.x.x.x.x " * 40 for n in range(1, 40)]
    decided = [t for t in texts if _surely_language(t)]
    assert len(decided) > 100  # the random texts reach the bound often enough to test it
    assert all(counted(t) for t in decided)
