"""The one check of cell and computed sentences (agent/numeric/numeric_check.py): what ask returns
passes it; a result, an operand's figure or a cell value that the cited quotes do not bear
out fails it, and a chat turn carrying such a sentence is refused with the reason."""

from __future__ import annotations

import copy

import pytest

from citewise.agent.ask.chat import ChatSession
from citewise.agent.ask.qa import Answer
from citewise.agent.numeric.numeric_check import numeric_problems
from citewise.api import Library
from tests.agent.tables_pdf import write_results_paper

DIFFERENCE = "How much higher is the SciFact nDCG@10 of BM25 + rerank than BM25?"
CELL = "What nDCG@10 does BM25 + rerank reach on SciFact?"


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("check")
    write_results_paper(folder / "results.pdf")
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([folder / "results.pdf"])
    return lib


def test_what_ask_returns_passes_the_check(library: Library) -> None:
    computed = library.ask(DIFFERENCE)
    (sentence,) = computed.sentences
    assert sentence.kind == "computed"
    assert sentence.computation == {"expression": "a - b", "result": "6.70"}  # two decimals
    assert numeric_problems(computed) == []
    assert numeric_problems(library.ask(CELL)) == []


def test_a_result_the_operands_do_not_give_fails(library: Library) -> None:
    answer = copy.deepcopy(library.ask(DIFFERENCE))
    assert answer.sentences[0].computation is not None
    answer.sentences[0].computation["result"] = "7.7"
    assert numeric_problems(answer) == ["a - b gives 6.7, not the 7.7 shown"]


def test_an_operand_not_in_its_quote_fails(library: Library) -> None:
    answer = copy.deepcopy(library.ask(DIFFERENCE))
    operands = answer.sentences[0].operands
    assert operands is not None
    operands[1]["value"] = "56.5"
    operands[1]["used"] = 56.5
    problems = numeric_problems(answer)
    assert problems[0] == "operand BM25, SciFact nDCG@10: 56.5 is not in the quote it cites"


def test_a_chat_turn_with_a_result_its_operands_do_not_give_is_refused(
    library: Library,
) -> None:
    def tampered(question: str) -> Answer:
        answer = copy.deepcopy(library.ask(question))
        assert answer.sentences[0].computation is not None
        answer.sentences[0].computation["result"] = "7.7"
        return answer

    turn = ChatSession(tampered).send(DIFFERENCE)
    assert turn.answer.refused and turn.answer.refusal_kind == "not_answered"
    assert "a - b gives 6.7, not the 7.7 shown" in turn.answer.answer
    assert turn.answer.withheld and turn.answer.sentences == []
    honest = ChatSession(library.ask).send(DIFFERENCE)
    assert not honest.answer.refused and "6.70" in honest.answer.answer


def test_a_rows_total_is_borne_out_by_the_figures_its_quoted_row_prints() -> None:
    from citewise.agent.ask.answer import AnswerSentence, Evidence

    def answer(value: str) -> Answer:
        cell = {"table": "Table 2", "row": "Subtask", "column": "total", "value": value}
        sentence = AnswerSentence("Subtask (total: 9; Table 2).", ["b1"], 1.0, "cell", cell)
        quote = Evidence("b1", "d", "", 8, [0, 0, 1, 1], "", "Subtask 2% 3% 4%", "")
        return Answer("Which error has the lowest total?", False, "", [sentence], [quote], 1.0)

    assert numeric_problems(answer("9")) == []
    assert numeric_problems(answer("10")) == ["10 is not in the quoted evidence it cites"]
