"""Yes/no leads that word order cannot fool (agent/yesno/polar_order.py), hedges scoped to their
clause, and the same leads for Chinese questions (agent/bridge/zh_answer.py): asked through the
real library over a PDF the test writes. A sentence that says the relation the other way
round ("Y cites X" for "Does X cite Y?") gets no lead, never the opposite one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rich.console import Console

from citewise.agent.bridge.crosslingual import bridge
from citewise.agent.bridge.zh_answer import says_all, yes_no_form
from citewise.agent.generation.verify import Verifier
from citewise.agent.yesno.polar import in_order, reversed_order
from citewise.api import Library
from citewise.report.terminal import print_answer
from tests.agent.ask.test_answers_that_generalize import FILLER, paper_library

EXTENDS = "PUMICE extends ONYX with a tone model for wet granite."
CITED_BY = "BASALT is cited by PUMICE as the first tap classifier."
TRAINED = "We train the slate classifier on the Bergen tap recordings."
NOT_CITED = "PUMICE does not cite GRANOLA, the acoustic sorter of the same group."
ASIDE = "PUMICE labels each slab with a tone model, which may be retrained every season."
HEDGED_ASIDE = "The hammer rig runs on a field laptop, which may shorten the survey."
OUTPERFORMED = "ONYX is outperformed by PUMICE on the wet slabs of the Bergen quarry."
# the paper: its opening with the first claim, then each other claim on a page of its own
OPENING = "PUMICE grades granite slabs from the tone of twelve hammer taps."
LATER = (CITED_BY, TRAINED, NOT_CITED, ASIDE, HEDGED_ASIDE, OUTPERFORMED)
PAGES = [[OPENING, EXTENDS], *([FILLER, claim] for claim in LATER)]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    title = "PUMICE: Tap Grading of Granite Slabs"
    with paper_library(tmp_path_factory, "pumice.pdf", title, PAGES) as lib:
        yield lib


def _lead(library: Library, question: str, quoted: str) -> str:
    """The first sentence's lead, after checking the answer quotes `quoted` verbatim."""
    answer = library.ask(question)
    assert not answer.refused and answer.sentences[0].text == quoted, answer.answer
    return answer.sentences[0].lead


@pytest.mark.parametrize(
    ("question", "quoted", "lead"),
    [
        ("Does PUMICE extend ONYX?", EXTENDS, "Yes"),
        ("Does ONYX extend PUMICE?", EXTENDS, ""),
        # the passive sentence: its "by" phrase does what the question's subject does
        ("Does PUMICE cite BASALT?", CITED_BY, "Yes"),
        ("Does BASALT cite PUMICE?", CITED_BY, ""),
        # a passive question, answered by a passive and by an active sentence
        ("Is BASALT cited by PUMICE?", CITED_BY, "Yes"),
        ("Is PUMICE cited by BASALT?", CITED_BY, ""),
        ("Is the slate classifier trained on the Bergen tap recordings?", TRAINED, "Yes"),
        ("Is the Bergen classifier trained on the slate tap recordings?", TRAINED, ""),
        # a negation settles "No" only the right way round
        ("Does PUMICE cite GRANOLA?", NOT_CITED, "No"),
        ("Does GRANOLA cite PUMICE?", NOT_CITED, ""),
        # a comparison named by its verb is a directed relation like any other
        ("Does PUMICE outperform ONYX on the wet slabs?", OUTPERFORMED, "Yes"),
        ("Does ONYX outperform PUMICE on the wet slabs?", OUTPERFORMED, ""),
    ],
)
def test_a_lead_needs_subject_and_object_on_the_question_s_sides(
    library: Library, question: str, quoted: str, lead: str
) -> None:
    assert _lead(library, question, quoted) == lead


def test_a_hedge_in_an_aside_about_something_else_leaves_the_yes(library: Library) -> None:
    assert _lead(library, "Does PUMICE label each slab with a tone model?", ASIDE) == "Yes"
    # the aside itself says what is asked: its "may" still leaves the quote alone
    assert _lead(library, "Does the field laptop shorten the survey?", HEDGED_ASIDE) == ""


@pytest.mark.parametrize(
    ("question", "sentence", "kept"),
    [
        ("Does the encoder use BM25?", "BM25 is used by the encoder.", True),
        ("Does the encoder use BM25?", "The encoder is used by BM25.", False),
        ("Does LINTEL cite BASALT?", "LINTEL and BASALT are cited by ONYX.", False),
        ("Is the tagger trained on the corpus?", "A tagger trained on the corpus runs.", True),
        ("Is the tagger trained on the corpus?", "The corpus is trained on the tagger.", False),
        # no relation word: the shared words keep the question's order
        ("Is the code publicly available?", "The code is publicly available.", True),
        ("Is the retriever BM25?", "BM25 is the retriever.", False),
    ],
)
def test_word_order_rules(question: str, sentence: str, kept: bool) -> None:
    assert in_order(question, sentence) is kept


@pytest.mark.parametrize(
    ("question", "quoted", "lead"),
    [
        ("PUMICE 是否扩展了 ONYX？", EXTENDS, "Yes"),
        ("PUMICE 扩展了 ONYX 吗？", EXTENDS, "Yes"),
        ("ONYX 是否扩展了 PUMICE？", EXTENDS, ""),
        ("BASALT 是否被 PUMICE 引用？", CITED_BY, "Yes"),
        ("PUMICE 是否被 BASALT 引用？", CITED_BY, ""),
        ("PUMICE 是否引用了 GRANOLA？", NOT_CITED, "No"),
        ("GRANOLA 是否引用了 PUMICE？", NOT_CITED, ""),
        ("PUMICE 是否优于 ONYX？", OUTPERFORMED, "Yes"),
        ("ONYX 是否优于 PUMICE？", OUTPERFORMED, ""),
        # a negated question: its bridge may drop the negation, so no lead at all
        ("PUMICE 是否不引用 GRANOLA？", NOT_CITED, ""),
    ],
)
def test_a_chinese_yes_no_question_gets_the_same_lead(
    library: Library, question: str, quoted: str, lead: str
) -> None:
    assert _lead(library, question, quoted) == lead


def test_the_chinese_lead_is_written_in_chinese_before_the_verbatim_quote(
    library: Library,
) -> None:
    answer = library.ask("PUMICE 是否引用了 GRANOLA？")
    assert answer.lang == "zh" and answer.answer == f"否。{NOT_CITED}"
    first = answer.to_dict()["sentences"][0]  # type: ignore[index]
    assert first["lead"] == "No" and first["text"] == NOT_CITED
    console = Console(record=True, width=200)
    print_answer(console, answer)
    assert f"否。 {NOT_CITED}" in console.export_text()
    yes = library.ask("PUMICE 是否扩展了 ONYX？")
    assert yes.answer == f"是。{EXTENDS}"


def test_chinese_yes_no_questions_are_told_apart() -> None:
    assert yes_no_form("PUMICE 是否扩展了 ONYX？")
    assert yes_no_form("PUMICE 扩展了 ONYX 吗？")
    assert yes_no_form("GRANOLA 有没有使用神经网络？")
    assert not yes_no_form("PUMICE 是否没有引用 GRANOLA？")  # negated
    assert not yes_no_form("PUMICE 是否可能扩展 ONYX？")  # hedged
    assert not yes_no_form("PUMICE 引用 BASALT 还是 GRANOLA？")  # either-or
    assert not yes_no_form("PUMICE 用什么模型？")  # a wh-question
    assert not yes_no_form("Does PUMICE extend ONYX?")


def test_a_bridge_that_leaves_out_a_translated_word_gets_no_lead() -> None:
    assert says_all(bridge("PUMICE 是否扩展了 ONYX？"))
    assert says_all(bridge("GRANOLA 是否使用神经网络来标注石块？"))
    # "扩展" (extend) is glossed, but the bridge's word order leaves it out
    dropped = bridge("PUMICE 是否在潮湿花岗岩上扩展了 ONYX？")
    assert ("扩展", "extend") in dropped.glosses and not says_all(dropped)


def test_the_checker_refuses_a_bare_chinese_lead() -> None:
    verifier = Verifier()
    for bare in ("是。", "否。", "Yes.", "No."):
        assert not verifier.check(bare, [EXTENDS]).supported
    assert verifier.check(f"是。{EXTENDS}", [EXTENDS]).supported


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        # a passive question against an active sentence, the verb hyphenated in both
        (
            "Was the gravel tagger fine-tuned on the Oslo drill logs?",
            "We fine-tune the gravel tagger on the Oslo drill logs.",
        ),
        (
            "Is the slab ranker pre-trained on quarry survey notes?",
            "We pretrain the slab ranker on quarry survey notes.",
        ),
        # an active question whose subject is a pronoun, against a passive sentence
        (
            "Did they fine-tune the gravel tagger on the Oslo drill logs?",
            "The gravel tagger was fine-tuned on the Oslo drill logs.",
        ),
        (
            "Do they train the echo model on chalk cores?",
            "The echo model is trained on chalk cores from two pits.",
        ),
        ("Did the authors crowdsource the tap labels?", "The tap labels were crowdsourced."),
    ],
)
def test_active_and_passive_state_one_relation(question: str, sentence: str) -> None:
    assert in_order(question, sentence) and not reversed_order(question, sentence)


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        (
            "Were the Oslo drill logs fine-tuned on the gravel tagger?",
            "We fine-tune the gravel tagger on the Oslo drill logs.",
        ),
        (
            "Did they train chalk cores on the echo model?",
            "The echo model is trained on chalk cores.",
        ),
    ],
)
def test_voice_does_not_hide_a_swapped_relation(question: str, sentence: str) -> None:
    assert not in_order(question, sentence) and reversed_order(question, sentence)
