"""benchmarks/matrix_phrases.py scores a free-phrase column against verdicts kept with the value
and quote start they judged: a cell whose value or quote changed since, a paper never judged, or
a verdict whose value is unknown is unjudged (listed, never given the old verdict), and the
floor is checked on judged cells only. Cells and verdicts here are made up."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import yaml

from tests.conftest import load_script

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "matrix_phrases.py"
JUDGED = Path(__file__).parents[2] / "benchmarks" / "matrix_phrases_judged.yaml"


def _script() -> ModuleType:
    return load_script(SCRIPT, "matrix_phrases_script")


def _verdict(file: str, verdict: str, value: str | None, quote: str | None = None) -> dict:
    entry = {"file": file, "verdict": verdict, "value": value}
    if quote is not None:
        entry["quote"] = quote
    return entry


def test_a_verdict_counts_only_for_the_value_it_judged() -> None:
    m = _script()
    quote = "Our encoder is a two-layer bidirectional GRU over the tokens."
    verdicts = [
        _verdict("a.md", "right", "bidirectional GRU", quote[: m.QUOTE_START]),
        _verdict("b.md", "wrong", "GPT-2"),
    ]
    cells = [
        m.Cell("a.md", "bidirectional GRU", quote),
        m.Cell("b.md", "a Transformer encoder", "We encode each sentence with a Transformer."),
    ]
    scored = m.score("sentence encoder", cells, verdicts)
    assert [mark for mark, _, _ in scored.marks] == ["RIGHT", "?"]
    assert scored.reasons == ["value changed"]
    assert "judged wrong for value 'GPT-2'" in scored.marks[1][2]
    assert (scored.judged, scored.precision) == (1, 1.0)


def test_a_moved_quote_a_new_paper_and_an_unknown_value_are_unjudged() -> None:
    m = _script()
    verdicts = [
        _verdict("moved.md", "right", "32", "We train with batches of 32 sentences."),
        _verdict("unknown.md", "wrong", None),
    ]
    cells = [
        m.Cell("moved.md", "32", "Table 2 lists 32 sentences drawn from the test split."),
        m.Cell("unknown.md", "5", "Each annotator labelled 5 sentences."),
        m.Cell("fresh.md", "1,200", "The corpus holds 1,200 sentences."),
    ]
    scored = m.score("number of sentences", cells, verdicts)
    assert [mark for mark, _, _ in scored.marks] == ["?", "?", "?"]
    assert scored.reasons == ["quote moved", "value unknown", "new"]
    assert scored.judged == 0 and scored.precision is None and not scored.meets_floor


def test_whitespace_alone_does_not_unjudge_a_cell() -> None:
    m = _script()
    verdicts = [_verdict("a.md", "wrong", "max  pooling", "we apply max\npooling")]
    scored = m.score(
        "pooling layer", [m.Cell("a.md", "max pooling", "we apply max pooling")], verdicts
    )
    assert [mark for mark, _, _ in scored.marks] == ["WRONG"]


def test_the_floor_needs_ten_judged_papers_at_three_quarters() -> None:
    m = _script()
    cells = [m.Cell(f"p{i}.md", "ReLU", f"We use ReLU in layer {i}.") for i in range(12)]
    verdicts = [
        _verdict(c.file, "wrong" if i < 2 else "right", c.value, c.quote)
        for i, c in enumerate(cells)
    ]
    assert m.score("activation function", cells, verdicts).meets_floor  # 10 of 12
    # the same precision on 8 judged papers (4 unjudged by a changed value) misses the floor
    changed = [m.Cell(c.file, "tanh", c.quote) if i >= 8 else c for i, c in enumerate(cells)]
    scored = m.score("activation function", changed, verdicts)
    assert (scored.judged, scored.count("?"), scored.meets_floor) == (8, 4, False)
    # many unjudged cells do not lift a phrase below the floor on its judged ones
    wrong = [
        _verdict(c.file, "wrong" if i < 4 else "right", c.value, c.quote)
        for i, c in enumerate(cells)
    ]
    extra = cells + [m.Cell(f"q{i}.md", "GELU", "We use GELU.") for i in range(20)]
    assert not m.score("activation function", extra, wrong).meets_floor  # 8 of 12 judged


def test_judged_papers_the_reader_no_longer_answers_are_counted_apart() -> None:
    m = _script()
    verdicts = [_verdict("gone.md", "right", "5"), _verdict("kept.md", "right", "4", "beam of 4")]
    scored = m.score("beam size", [m.Cell("kept.md", "4", "beam of 4")], verdicts)
    assert (scored.dropped, scored.judged, scored.count("RIGHT")) == (1, 1, 1)


def test_unjudged_cells_are_written_for_a_person_to_judge(tmp_path: Path) -> None:
    m = _script()
    long_quote = "We fine-tune RoBERTa-large on the training split " + "x" * 200
    cells = [m.Cell("a.md", "RoBERTa-large", long_quote), m.Cell("b.md", "BERT", "We use BERT.")]
    scored = [m.score("base model", cells, [_verdict("b.md", "right", "BERT", "We use BERT.")])]
    out = tmp_path / "unjudged.yaml"
    out.write_text(yaml.safe_dump(m.unjudged_entries(scored), sort_keys=False))
    back = yaml.safe_load(out.read_text())
    assert back == {
        "base model": [
            {"file": "a.md", "verdict": None, "value": "RoBERTa-large", "quote": long_quote[:80]}
        ]
    }
    # written back as verdicts, they judge the same cells
    back["base model"][0]["verdict"] = "right"
    again = m.score("base model", cells, back["base model"])
    assert [mark for mark, _, _ in again.marks] == ["RIGHT", "?"]


def test_every_stored_verdict_keeps_a_value_or_says_it_is_unknown() -> None:
    judged = yaml.safe_load(JUDGED.read_text())
    for phrase, entry in judged.items():
        assert len(entry["judged_at"]) >= 7, phrase
        keys = [(cell["file"], cell["value"], cell.get("quote")) for cell in entry["cells"]]
        assert len(keys) == len(set(keys)), phrase  # one verdict per paper, value and quote
        for cell in entry["cells"]:
            assert cell["verdict"] in ("right", "wrong"), (phrase, cell)
            assert "value" in cell, (phrase, cell)
            if cell["value"] is not None and "source" not in cell:  # a recovered verdict
                assert len(cell["quote"]) <= 80, (phrase, cell)


def test_a_paper_judged_for_two_values_keeps_both_verdicts() -> None:
    m = _script()
    verdicts = [
        _verdict("a.md", "wrong", "nonlinear activation function", "a nonlinear activation"),
        _verdict("a.md", "right", "sigmoid activation function"),
    ]
    cells = [
        m.Cell("a.md", "sigmoid activation function", "We apply a sigmoid activation function.")
    ]
    assert [mark for mark, _, _ in m.score("activation function", cells, verdicts).marks] == [
        "RIGHT"
    ]
    other = [m.Cell("a.md", "tanh", "We apply tanh.")]
    scored = m.score("activation function", other, verdicts)
    assert scored.reasons == ["value changed"]
    assert "judged wrong for value 'nonlinear activation function'" in scored.marks[0][2]
    assert "judged right for value 'sigmoid activation function'" in scored.marks[0][2]


def test_a_value_judged_on_two_quotes_keeps_each_verdict() -> None:
    m = _script()
    verdicts = [
        _verdict("a.md", "wrong", "three", "We explore three categories of information."),
        _verdict("a.md", "right", "three", "The corpus holds three categories of posts."),
    ]
    cells = [m.Cell("a.md", "three", "The corpus holds three categories of posts.")]
    assert [mark for mark, _, _ in m.score("number of categories", cells, verdicts).marks] == [
        "RIGHT"
    ]
    moved = [m.Cell("a.md", "three", "Three categories are listed in the table.")]
    assert m.score("number of categories", moved, verdicts).reasons == ["quote moved"]
