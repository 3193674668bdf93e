"""Setup values read the way a reader reads them, on sentences and papers the tests write:
abbreviations with a colon, several settings closed by "respectively", hyperparameter tables,
software by its usual names, and the code cell that is the paper's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.agent.comparison.extraction import Finding, Unit, best_distinct, find_in_unit
from citewise.agent.comparison.settings.matrix_settings import settings_findings
from citewise.agent.comparison.settings.setup_reading import respectively_pairs
from citewise.cli import app
from citewise.cli.testing import CliRunner

runner = CliRunner()
SECTION = "5 Training Details"


def unit(text: str, n: int = 1, page: int = 4, kind: str = "paragraph") -> Unit:
    return Unit(text, f"b-{n}", page, SECTION, kind, n)


def read(aspect: str, units: list[Unit], title: str = "") -> list[str]:
    found: list[Finding] = [f for u in units for f in find_in_unit(aspect, u)]
    kept = best_distinct(settings_findings(aspect, units, title, set(), found), 3)
    assert all(f.value in f.quote for f in kept)
    return [f.value for f in kept]


@pytest.mark.parametrize(
    "aspect,sentence,expected",
    [
        ("learning rate", "The encoder is fine-tuned with AdamW (LR: 2e-5, 3 epochs, batch 8).",
         "2e-5"),
        ("learning rate", "Granite tagger settings. learning rate: .05, window: 4, epochs: 2.",
         ".05"),
        ("learning rate", "We optimise with Adam using a learning rate of $3e-4$ throughout.",
         "$3e-4$"),
        ("batch size", "The batch size for the granite corpus was set to be 48.", "48"),
        ("batch size", "Updates use mini batches of size 24 drawn without replacement.", "24"),
        ("gradient clipping", "Step clipping at 0.5 keeps the echo weights stable.", "0.5"),
        ("gradient clipping", "We clip the gradients whenever their norm exceeds 3.", "3"),
        ("weight decay", "A cross-entropy loss with 0.0005 L2 weight decay is minimised.",
         "0.0005"),
        ("optimizer", "All echo models were trained with ADAM and early stopping.", "ADAM"),
        ("epochs", "Training the granite parser for 40 full epochs took a while.",
         "40 full epochs"),
        ("compute", "Each echo model trained for 12 epochs (about 9 h on one card).", "9 h"),
    ],
)  # fmt: skip
def test_a_setting_is_read_from_its_usual_phrasing(aspect: str, sentence: str, expected: str
                                                   ) -> None:  # fmt: skip
    assert read(aspect, [unit(sentence)])[0] == expected


def test_a_colon_abbreviation_keeps_the_whole_number() -> None:
    # "LR: 2e-5" is 2e-5, never "2" or a neighbouring count
    values = read("learning rate", [unit("Fine-tuning (LR: 2e-5, batch size 16, 10 epochs).")])
    assert values == ["2e-5"]


def test_settings_closed_by_respectively_take_their_own_values() -> None:
    sentence = (
        "The training epoch and batch size are selected from {2, 5} and {12, 48}, respectively."
    )
    assert respectively_pairs(sentence) == [("epochs", "2, 5"), ("batch size", "12, 48")]
    other = "The learning rate, dropout and batch size were set to 0.003, 0.25 and 96 respectively."
    units = [unit(other)]
    assert read("learning rate", units) == ["0.003"]
    assert read("dropout", units) == ["0.25"]
    assert read("batch size", units) == ["96"]


def test_a_name_no_setting_list_knows_keeps_its_place_in_the_coordination() -> None:
    sentence = "We set the hidden size and learning rate to 384 and 0.004 respectively."
    assert respectively_pairs(sentence) == [("learning rate", "0.004")]
    assert read("learning rate", [unit(sentence)]) == ["0.004"]


def test_respectively_with_more_values_than_names_pairs_nothing() -> None:
    assert respectively_pairs("Learning rate and batch size are 0.1, 0.2 and 7 respectively.") == []


def test_a_setting_the_sentence_denies_is_not_read_as_used() -> None:
    # the denial itself is the paper's statement of the setting (seventh session)
    assert read("dropout", [unit("We did not use dropout on the granite encoder.")]) == [
        "did not use dropout"
    ]


def test_an_amount_of_recorded_data_is_no_training_time() -> None:
    units = [unit("The training set holds 300 hours of speech from granite workers.")]
    assert read("compute", units) == []


@pytest.mark.parametrize(
    "sentence,expected",
    [
        ("Transcripts were analysed with Stata 16.1 and NVivo by two coders.",
         ["Stata 16.1", "NVivo"]),
        ("We split sentences using Spacy before tagging.", ["Spacy"]),
        ("Alignments were computed using GIZA++ in both directions.", ["GIZA++"]),
    ],
)  # fmt: skip
def test_software_by_its_usual_names(sentence: str, expected: list[str]) -> None:
    assert read("software", [unit(sentence)]) == expected


def test_a_language_a_library_is_written_for_is_no_software_of_the_paper() -> None:
    units = [unit("Entities were extracted with the Python library Granitex.")]
    from citewise.agent.comparison.settings.setup_software import learn_software

    learned = learn_software(units)
    assert "Granitex" in learned
    found = [f for u in units for f in find_in_unit("software", u)]
    values = [
        f.value for f in settings_findings("software", units, "", learned | {"Python"}, found)
    ]
    assert "Granitex" in values and "Python" not in values


def test_an_outside_url_is_not_the_code_cell() -> None:
    units = [
        unit("Echo Parsing for Granite. ana@quarrylab.org", n=1, page=1),
        unit("We tokenise with the implementation at https://github.com/otherlab/tok first.", n=2),
        unit("Our code is at https://github.com/quarrylab/echo-parse for reuse.", n=3),
    ]
    assert read("code availability", units, "Echo Parsing for Granite") == [
        "https://github.com/quarrylab/echo-parse"
    ]
    alone = [units[0], units[1]]
    assert read("code availability", alone, "Echo Parsing for Granite") == []


HYPER_PAPER = """# Granite Parsing with Echo Networks

## Abstract

We parse granite field notes with echo networks.

## 4 Experimental Setup

Table 3 lists the settings of both echo models.

| Hyperparameter | Echo-S | Echo-L |
|---|---|---|
| Learning rate | 5e-4 | 1e-4 |
| Batch size | 64 | 128 |
| Epochs | 12 | 20 |
| Dropout | 0.3 | 0.1 |

Fine-tuning runs use the settings below.

| Run | warmup steps | weight decay |
|---|---|---|
| tune-a | 500 | 0.01 |
"""


def test_a_table_of_hyperparameters_is_read(tmp_path: Path) -> None:
    paper = tmp_path / "echo.md"
    paper.write_text(HYPER_PAPER, encoding="utf-8")
    lib = tmp_path / "lib"
    assert runner.invoke(app, ["-L", str(lib), "ingest", "--no-embed", str(paper)]).exit_code == 0
    doc = json.loads(runner.invoke(app, ["-L", str(lib), "list", "--json"]).stdout)[0]["id"]
    out = json.loads(runner.invoke(app, ["-L", str(lib), "setup", doc, "--json"]).stdout)
    values = {a: [v["value"] for v in item["values"]] for a, item in out["aspects"].items()}
    assert values["learning rate"] == ["5e-4", "1e-4"]
    assert values["batch size"] == ["64", "128"]
    assert values["epochs"] == ["12", "20"]
    assert values["dropout"] == ["0.3", "0.1"]
    # a column headed by a setting gives its cell in each row
    assert values["warmup"] == ["500"]
    assert values["weight decay"] == ["0.01"]
    for item in out["aspects"].values():
        for v in item["values"]:
            assert v["value"] in v["quote"]
