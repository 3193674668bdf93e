"""The answer pipeline's contract (agent/ask/): every candidate goes through the same
checks and gets its support from the one scoring step, a proposer that sets a support
breaks the run, refusals carry their kind, a shape is switched off by name, and the trace
shows what each shape proposed — on a small report these tests write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.agent.ask.answer import Answer, AnswerSentence
from citewise.agent.ask.checks import CHECKS
from citewise.agent.ask.pick import support_of
from citewise.agent.ask.qa import QuestionAnswerer
from citewise.agent.ask.refusal import REFUSALS
from citewise.agent.ask.registry import ProposerError, UnknownProposerError
from citewise.agent.ask.state import AskState, Candidate
from citewise.api import Library
from citewise.cli import app
from citewise.cli.testing import CliRunner
from citewise.config import Settings
from tests.pdfs import write_paper

REPORT = """# Moss Growth on North Walls

We measured how fast moss spreads on stone walls in three towns over two summers.

## Method

Each wall was photographed every week with a fixed camera, and the moss cover was traced
by two volunteers who never saw the other's tracing.

## Results

The moss covered more of the wall in the wetter town, and the cover grew fastest in June.

Table 1: Moss cover by town (percent of the wall)

| Town | 2021 | 2022 |
|---|---|---|
| Harrow | 12.5 | 18.0 |
| Dunmere | 30.0 | 41.5 |
| Eastley | 8.0 | 9.5 |

## Limitations

Only north-facing walls were studied, so the results may not hold for walls in the sun.
"""

CELL = "By how much did the moss cover of Harrow change between 2021 and 2022?"
PROSE = "How was the moss cover traced on the photographs?"
FIGURE = "Moss cover on the north walls over two summers."


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pipeline")
    (folder / "moss.md").write_text(REPORT)
    figures = [("1 Results", ["The moss grew fastest in June.", f"Figure 1: {FIGURE}"])]
    write_paper(folder / "walls.pdf", "Moss on Walls", figures)
    lib = Library(folder / "lib", embeddings=False)
    lib.ingest([folder / "moss.md", folder / "walls.pdf"])
    lib.close()
    return folder


@pytest.fixture()
def library(folder: Path) -> Library:
    lib = Library(folder / "lib", embeddings=False)
    lib.prepare()  # the answerer `ask` uses, so a test's proposer registers on it
    yield lib  # type: ignore[misc]
    lib.close()


def _doc(library: Library, stem: str = "moss") -> list[str]:
    return [next(d.id for d in library.documents() if Path(d.path).stem == stem)]


def _candidates(answer: Answer) -> list[dict[str, object]]:
    trace = answer.pipeline or {}
    return [c for p in trace["proposers"] for c in p["candidates"]]  # type: ignore[attr-defined]


def test_every_candidate_is_checked_and_scored_by_the_one_scoring_step(library: Library) -> None:
    answer = library.ask(CELL, _doc(library), trace=True)
    assert not answer.refused and "5.5" in answer.answer
    trace = answer.pipeline or {}
    assert trace["winner"] == "table" and trace["exhaustive"]
    candidates = _candidates(answer)
    assert len(candidates) >= 2  # a traced run lets the later shapes propose too
    for candidate in candidates:
        assert isinstance(candidate["support"], float)  # every one scored
        assert candidate["problems"] == {}  # every one passed the checks it went through
    won = [c for c in candidates if c["won"]]
    assert len(won) == 1 and won[0]["support"] == answer.support_score


def test_the_checks_run_on_every_candidate_whatever_its_shape(library: Library) -> None:
    seen: list[Candidate] = []
    answerer = library.answerer
    original = answerer.registry.proposers[:]

    class Spy:
        name = "spy"

        def propose(self, state: AskState) -> list[Candidate]:
            seen.extend(state.candidates)
            return []

    answerer.registry.register(Spy())
    try:
        library.ask(PROSE, _doc(library), trace=True)
    finally:
        answerer.registry.proposers[:] = original
    assert {c.proposer for c in seen} >= {"draft"}
    assert all(set(c.problems) == set(CHECKS) for c in seen)
    assert all(c.support == support_of(c) for c in seen)


def test_a_candidate_that_fails_a_check_cannot_win(library: Library) -> None:
    answerer = library.answerer
    original = answerer.registry.proposers[:]

    class Uncited:
        name = "uncited"

        def propose(self, state: AskState) -> list[Candidate]:
            said = AnswerSentence("Moss likes rain.", ["no-such-block"], 0.0)
            answer = Answer(state.question.text, False, said.text, [said], [], 0.0)
            return [Candidate(self.name, answer)]

    answerer.registry.register(Uncited(), before="compare")
    try:
        answer = library.ask(PROSE, _doc(library), trace=True)
    finally:
        answerer.registry.proposers[:] = original
    assert "Moss likes rain" not in answer.answer
    uncited = [p for p in (answer.pipeline or {})["proposers"] if p["name"] == "uncited"]  # type: ignore[attr-defined]
    assert uncited[0]["candidates"][0]["problems"]["cited"]


@pytest.mark.parametrize("field", ["candidate", "answer"])
def test_a_proposer_that_sets_a_support_breaks_the_run(library: Library, field: str) -> None:
    answerer = library.answerer
    original = answerer.registry.proposers[:]

    class Confident:
        name = "confident"

        def propose(self, state: AskState) -> list[Candidate]:
            said = AnswerSentence("Moss grows.", [state.hits[0].block.id], 1.0)
            answer = Answer(state.question.text, False, said.text, [said], [], 0.0)
            candidate = Candidate(self.name, answer)
            if field == "candidate":
                candidate.support = 0.99
            else:
                answer.support_score = 0.99
            return [candidate]

    answerer.registry.register(Confident(), before="compare")
    try:
        with pytest.raises(ProposerError) as raised:
            library.ask(PROSE, _doc(library))
    finally:
        answerer.registry.proposers[:] = original
    assert raised.value.code == "PROPOSER_CONTRACT" and "pick.py" in raised.value.hint


def test_refusals_carry_their_kind(library: Library) -> None:
    walls = _doc(library, "walls")
    for question, documents in (
        ("What does Figure 9 plot against the town names?", walls),
        ("How many walls did the MOSSNET survey photograph?", _doc(library)),
    ):
        answer = library.ask(question, documents, trace=True)
        assert answer.refused, answer.answer
        assert answer.refusal_kind in REFUSALS
        assert answer.answer.startswith(REFUSALS[answer.refusal_kind])


def test_a_shape_is_switched_off_by_name(folder: Path) -> None:
    environ = {"CITEWISE_DISABLE_PROPOSERS": "table"}
    settings = Settings.load(folder / "lib", environ=environ)
    with Library(folder / "lib", embeddings=False, settings=settings) as lib:
        answer = lib.ask(CELL, _doc(lib), trace=True)
        trace = answer.pipeline or {}
        table = [p for p in trace["proposers"] if p["name"] == "table"]  # type: ignore[attr-defined]
        assert table[0]["status"] == "disabled" and table[0]["candidates"] == []
        assert trace["winner"] != "table"
        assert all(s.kind != "computed" for s in answer.sentences)
    answerer = QuestionAnswerer(lib.store, lib.answerer.retriever, disabled=("yes_no",))
    assert answerer.registry.disabled == {"yes_no"}


def test_an_unknown_shape_name_is_a_clear_error(folder: Path) -> None:
    settings = Settings.load(folder / "lib", environ={"CITEWISE_DISABLE_PROPOSERS": "tabel"})
    with (
        Library(folder / "lib", embeddings=False, settings=settings) as lib,
        pytest.raises(UnknownProposerError) as raised,
    ):
        lib.ask(CELL, _doc(lib))
    assert "tabel" in raised.value.message and "table" in raised.value.hint


def test_ask_trace_shows_each_proposer_and_the_winner(folder: Path) -> None:
    runner = CliRunner()
    lib = str(folder / "lib")
    shown = runner.invoke(app, ["--library", lib, "ask", CELL, "--trace", "--json"])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    names = [p["name"] for p in data["pipeline"]["proposers"]]
    assert names[:2] == ["compare_table", "compare"] and {"table", "draft"} <= set(names)
    assert data["pipeline"]["winner"] == "table"
    plain = runner.invoke(app, ["--library", lib, "ask", CELL, "--json"])
    assert "pipeline" not in json.loads(plain.stdout)  # only when asked for
    printed = runner.invoke(app, ["--library", lib, "ask", CELL, "--trace"])
    assert printed.exit_code == 0
    assert "table" in printed.stderr and "won" in printed.stderr and "draft" in printed.stderr


def test_a_domain_pack_registers_its_scope_hook_and_proposer(folder: Path) -> None:
    environ = {"CITEWISE_DISABLE_PROPOSERS": "filing,filing_scope"}
    settings = Settings.load(folder / "lib", environ=environ)
    with Library(folder / "lib", embeddings=False, settings=settings) as lib:
        registry = lib.answerer.registry
        names = [p.name for p in registry.proposers]
        assert names.index("filing") < names.index("table")  # the pack's, before the general
        assert [hook.name for hook in registry.scopes] == ["filing_scope"]
        assert registry.disabled == {"filing", "filing_scope"}
        # the pipeline alone knows no pack: only the start-up registers one (api/)
        bare = QuestionAnswerer(lib.store, lib.answerer.retriever)
        assert "filing" not in bare.registry.names() and bare.registry.scopes == []
