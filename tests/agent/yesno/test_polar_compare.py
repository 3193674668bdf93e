"""Yes/no leads: "than" comparisons (agent/yesno/polar_compare.py) get no judged lead, fronted
phrases and "cited in" (agent/yesno/polar_order.py) and 是不是 questions (lang/zh_shapes.py) lead
by their order: asked through the real library over a PDF the test writes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.agent.bridge.crosslingual import bridge
from citewise.agent.bridge.zh_answer import says_all, yes_no_form
from citewise.agent.yesno.polar import in_order
from citewise.api import Library
from tests.agent.ask.test_answers_that_generalize import FILLER, paper_library

HIGHER = "SCREE achieves higher tap accuracy than TALUS on the dry benches."
LOWER_F1 = "The F1 of MORAINE is lower than that of CIRQUE on cracked slabs."
WORSE = "KARST is worse than DOLINE at sorting the marble offcuts."
NOT_FASTER = "GNEISS is not faster than SCHIST when grading the wet panels."
FRONTED = "As the retriever, we use BM25 over the quarry logbooks."
CITED_IN = "BASALT is cited in the PUMICE survey of tap classifiers."
MIXED = "FELDSPAR is more accurate than MICA on dry slabs but less accurate on wet ones."
OPENING = "STRATA grades granite slabs from the tone of twelve hammer taps."
LATER = (LOWER_F1, WORSE, NOT_FASTER, FRONTED, CITED_IN, MIXED)
PAGES = [[OPENING, HIGHER], *([FILLER, claim] for claim in LATER)]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    with paper_library(tmp_path_factory, "strata.pdf", "STRATA: Tap Grading", PAGES) as lib:
        yield lib


def _lead(library: Library, question: str, quoted: str) -> str:
    """The first sentence's lead, after checking the answer quotes `quoted` verbatim."""
    answer = library.ask(question)
    assert not answer.refused and answer.sentences[0].text == quoted, answer.answer
    return answer.sentences[0].lead


@pytest.mark.parametrize(
    ("question", "quoted", "lead"),
    [
        # the yes/no lead leaves a comparison unled: only the comparison would settle it
        ("Does SCREE achieve higher tap accuracy than TALUS?", HIGHER, ""),
        ("Is KARST better than DOLINE at sorting the marble offcuts?", WORSE, ""),
        ("Is SCHIST slower than GNEISS at grading the wet panels?", NOT_FASTER, ""),
        ("Is FELDSPAR more accurate than MICA on dry slabs?", MIXED, ""),
    ],
)
def test_a_than_question_gets_no_judged_lead(
    library: Library, question: str, quoted: str, lead: str
) -> None:
    assert _lead(library, question, quoted) == lead


def test_a_comparison_of_another_measure_gets_no_lead(library: Library) -> None:
    answer = library.ask("Does SCREE achieve higher tap recall than TALUS?")
    assert not answer.answer.startswith(("Yes.", "No.")), answer.answer


@pytest.mark.parametrize(
    ("question", "quoted", "lead"),
    [
        # a fronted phrase belongs at the end of its clause: "we use BM25 ... as the retriever"
        ("Is BM25 used as the retriever?", FRONTED, "Yes"),
        ("Is the retriever used as BM25?", FRONTED, ""),
        # "X is cited in Y" is "Y cites X"
        ("Does the PUMICE survey cite BASALT?", CITED_IN, "Yes"),
        ("Does BASALT cite the PUMICE survey?", CITED_IN, ""),
        ("Is BASALT cited in the PUMICE survey?", CITED_IN, "Yes"),
        ("Is the PUMICE survey cited in BASALT?", CITED_IN, ""),
    ],
)
def test_a_fronted_phrase_and_cited_in_get_the_lead_of_their_order(
    library: Library, question: str, quoted: str, lead: str
) -> None:
    assert _lead(library, question, quoted) == lead


@pytest.mark.parametrize(
    ("question", "sentence", "kept"),
    [
        ("Does ONYX use BM25 as the retriever?", "As the retriever, ONYX uses BM25.", True),
        ("Does BM25 use ONYX as the retriever?", "As the retriever, ONYX uses BM25.", False),
        # the fronted phrase's name is not the clause's subject
        ("Does ONYX use BM25?", "In contrast to ONYX, PUMICE uses BM25.", False),
        ("Does PUMICE use BM25?", "In contrast to ONYX, PUMICE uses BM25.", True),
        ("Does PUMICE record twelve taps per slab?", "Per slab, PUMICE records twelve taps.", True),
        # "As we show, ...": a clause of its own, not a fronted phrase
        ("Does ONYX cite BM25?", "As we show, ONYX cites BM25.", True),
        ("Does the survey cite BASALT?", "BASALT is cited in the survey.", True),
        # "in" is the doer only of a verb whose doer is a text
        ("Does the quarry train BASALT?", "BASALT is trained in the quarry.", False),
    ],
)
def test_fronted_phrase_and_cited_in_rules(question: str, sentence: str, kept: bool) -> None:
    assert in_order(question, sentence) is kept


@pytest.mark.parametrize(
    ("question", "english"),
    [
        ("PUMICE 是不是扩展了 ONYX？", "Does PUMICE extend ONYX?"),
        ("PUMICE 是不是使用了 BM25？", "Does PUMICE use BM25?"),
        ("BASALT 是不是被 PUMICE 引用？", "Is BASALT cited by PUMICE?"),
        ("PUMICE 是不是 ONYX？", "Is PUMICE ONYX?"),
        ("DOLINE 是不是比 KARST 好？", "Is DOLINE better than KARST?"),
        # no subject: the paper is asked about, with 是不是 as with 是否
        ("是不是用了 BM25？", "Does the paper use BM25?"),
        ("是否用了 BM25？", "Does the paper use BM25?"),
    ],
)
def test_a_shi_bu_shi_question_bridges_like_shi_fou(question: str, english: str) -> None:
    bridged = bridge(question)
    assert yes_no_form(question) and bridged.english == english and says_all(bridged)


@pytest.mark.parametrize(
    ("question", "quoted", "lead"),
    [
        ("是不是用了 BM25？", FRONTED, "Yes"),
        ("PUMICE 调查是不是引用了 BASALT？", CITED_IN, "Yes"),
    ],
)
def test_a_shi_bu_shi_question_gets_the_same_lead(
    library: Library, question: str, quoted: str, lead: str
) -> None:
    assert _lead(library, question, quoted) == lead
