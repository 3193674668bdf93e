"""Setup phrasings counted over the QASPER pool (agent/comparison/settings/setup_phrasings.py and
the
value checks of agent/comparison/settings/matrix_settings.py), on sentences the tests write: each
form
gives its value, and a number that belongs to something else gives none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.agent.comparison.extraction import Finding, Unit, best_distinct, find_in_unit
from citewise.agent.comparison.settings.matrix_settings import settings_findings
from citewise.agent.comparison.settings.setup_code import code_findings
from citewise.cli import app
from citewise.cli.testing import CliRunner

runner = CliRunner()

SECTION = "4 Training"


def unit(text: str, n: int = 1) -> Unit:
    return Unit(text, f"b-{n}", 3, SECTION, "paragraph", n)


def read(aspect: str, *sentences: str) -> list[str]:
    units = [unit(s, n) for n, s in enumerate(sentences)]
    found: list[Finding] = [f for u in units for f in find_in_unit(aspect, u)]
    kept = best_distinct(settings_findings(aspect, units, "", set(), found), 3)
    assert all(f.value in f.quote for f in kept)
    return [f.value for f in kept]


@pytest.mark.parametrize(
    "aspect,sentence,expected",
    [
        ("epochs", "For the granite tagger we set the maximum number of epochs to 60.", "60"),
        ("dropout", "We set the initial learning rate to 0.002, the dropout rate to 0.4 and "
                    "the margin to 1.", "0.4"),
        ("learning rate", "Echo weights use momentum and we set the learning rate to $0.2$.",
         "$0.2$"),
        ("learning rate", "The echo encoder was trained with a learning rate of ${0.05}$.",
         "${0.05}$"),
        ("learning rate", "We fix the peak learning rate at $7e^{-4}$ for the echo runs.",
         "$7e^{-4}$"),
        ("learning rate", "Granite models use $lr=3\\cdot 10^{-4}$ and no decay.",
         "3\\cdot 10^{-4}"),
        ("epochs", "Both granite taggers are fine-tuned for three epochs on the shards.",
         "three epochs"),
        ("seeds", "All granite scores are averaged over 7 runs of each configuration.",
         "7 runs"),
        ("seeds", "We report the mean and standard deviation across four random restarts.",
         "four random restarts"),
        ("warmup", "The echo schedule warms up over the first 3,000 steps and then stays flat.",
         "3,000 steps"),
        ("warmup", "We use a learning-rate warm-up of 12K steps for the granite model.",
         "12K steps"),
        ("dropout", "Each dense block is followed by a dropout layer at a rate of 30%.", "30%"),
        ("hardware", "Every echo model was trained on two NVIDIA GTX1070Ti GPUs.",
         "two NVIDIA GTX1070Ti GPUs"),
        ("compute", "Training the granite model took about three days on the cluster.",
         "three days"),
    ],
)  # fmt: skip
def test_a_setting_is_read_from_a_phrasing_papers_use(aspect: str, sentence: str, expected: str
                                                      ) -> None:  # fmt: skip
    assert read(aspect, sentence)[0] == expected


@pytest.mark.parametrize(
    "aspect,sentence",
    [
        # a count that times something else, not the length of training
        ("epochs", "The echo encoder is frozen for the first 2000 steps."),
        ("epochs", "Training stops when the granite score does not rise for more than 4 epochs."),
        ("epochs", "The optimiser warms up for 4,000 steps before the decay."),
        # a number another unit follows
        ("learning rate", "Training ends after halving the learning rate 4 times."),
        ("learning rate", "Frames use a window of 25 ms and a step-size of 10 ms."),
        # a speed measured over runs is no repeated training
        ("seeds", "We measure the parser's speed on an idle box and average it over 5 runs."),
        # hours of recordings are no training time
        ("compute", "The annotators needed about forty hours of training on the guidelines."),
    ],
)  # fmt: skip
def test_a_number_of_something_else_gives_no_value(aspect: str, sentence: str) -> None:
    assert read(aspect, sentence) == []


def test_a_value_cut_inside_its_list_keeps_its_first_item() -> None:
    # the next setting's number closes the list: only the first item is this setting's
    assert read("learning rate", "Granite settings: learning rate 0.2 and 3000 warm-up steps."
                ) == ["0.2"]  # fmt: skip
    assert read("batch size", "The echo model uses batch size 16, and 25% dropout.") == ["16"]


def test_a_rate_set_then_decayed_is_read_as_set() -> None:
    values = read("learning rate", "We set the learning rate to 0.01 and later decay the "
                                   "learning rate to 0.001 for the granite runs.")  # fmt: skip
    assert values == ["0.01"]


def test_a_countdown_no_longer_hides_the_sentences_own_value() -> None:
    sentence = "The maximum number of epochs is 40, and most echo models stop within 12 epochs."
    assert read("epochs", sentence) == ["40"]


def test_a_link_the_paper_took_a_checkpoint_from_is_no_offer_of_its_code() -> None:
    taken = unit("We used the granite checkpoint from https://github.com/stonelab/granite.", 1)
    own = unit("Our code is available at https://github.com/echo-team/echo-tagger.", 2)
    found = [
        Finding("code availability", link, u.text, 3, u.block_id, SECTION, 1.5)
        for u, link in ((taken, "https://github.com/stonelab/granite"),
                        (own, "https://github.com/echo-team/echo-tagger"))
    ]  # fmt: skip
    values = {f.value for f in code_findings([taken, own], "Granite Echo", found)}
    assert values == {"https://github.com/echo-team/echo-tagger"}


def test_available_methods_of_others_are_no_code_offer() -> None:
    said = unit("We compared three of the tagging methods that are available.")
    assert code_findings([said], "Echo", []) == []


def test_a_value_is_checked_where_it_stands_as_a_number_of_its_own() -> None:
    # "300" also occurs inside "30000": the check looks at the value itself
    sentence = "The granite vocabulary was set to 30000 and the batch size to 300."
    assert read("batch size", sentence) == ["300"]
    assert read("dropout", "The rate was set to 0.25 with a dropout of 0.2 on the echo layer.") == [
        "0.2"
    ]


def test_values_both_set_at_once_are_read() -> None:
    sentence = "The input dropout and the state dropout rate are both set to $0.35$ ."
    assert read("dropout", sentence) == ["$0.35$"]


@pytest.mark.parametrize(
    "sentence",
    [
        "Okafor et al. (2018) used a learning rate of 0.3 for their granite tagger.",
        "They trained the echo model with a learning rate of 0.3 on the old shards.",
        "Our tagger converges quickly, where a learning rate of 0.3 for BIBREF7 was needed.",
    ],
)
def test_another_works_setting_is_not_the_papers(sentence: str) -> None:
    assert read("learning rate", sentence) == []


def test_a_setting_taken_over_from_a_cited_work_is_the_papers_own() -> None:
    assert read("learning rate", "Following Okafor et al. (2018), we use a learning rate of 0.3."
                ) == ["0.3"]  # fmt: skip
    assert read("learning rate", "The learning rate is 0.3 as in BIBREF4.") == ["0.3"]
    epochs = read("epochs", "The echo model needs only 8 epochs, unlike 30 epochs for BIBREF2.")
    assert epochs == ["8 epochs"]
    # a threshold ("greater than 5") is no contrast with another work
    clip = "We clipped the gradients if their norm is greater than 4 to steady training BIBREF9."
    assert read("gradient clipping", clip) == ["4"]


RESULTS_PAPER = """# Echo Tagging of Granite Logs

## Abstract

We tag granite logs with an echo encoder.

## Results

Scores of the echo runs on the granite test split.

| Model | Epochs | Batch size | F1 |
|---|---|---|---|
| echo-small | 10 | 16 | 81.2 |
| echo-large | 40 | 64 | 84.9 |
"""


def test_a_table_of_results_gives_no_setting(tmp_path: Path) -> None:
    # a column of epochs beside the F1 it produced lists the runs compared, not the setting
    paper = tmp_path / "echo.md"
    paper.write_text(RESULTS_PAPER, encoding="utf-8")
    lib = tmp_path / "lib"
    assert runner.invoke(app, ["-L", str(lib), "ingest", "--no-embed", str(paper)]).exit_code == 0
    doc = json.loads(runner.invoke(app, ["-L", str(lib), "list", "--json"]).stdout)[0]["id"]
    out = json.loads(runner.invoke(app, ["-L", str(lib), "setup", doc, "--json"]).stdout)
    assert not out["aspects"]["epochs"]["stated"]
    assert not out["aspects"]["batch size"]["stated"]
