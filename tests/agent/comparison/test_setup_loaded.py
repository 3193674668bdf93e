"""Settings the seventh session read on unseen papers (agent/comparison/settings/), on sentences
the tests write: seeds, schedule and a denied dropout stated in words, and hardware the
acknowledgements say served the work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.agent.comparison.extraction import Unit
from citewise.agent.comparison.settings.setup_thanks import thanked_hardware
from citewise.cli import app
from citewise.cli.testing import CliRunner
from tests.agent.comparison.test_setup_software import read

runner = CliRunner()


@pytest.mark.parametrize(
    "aspect,sentence,expected",
    [
        ("seeds", "Every tagger is run four times with different initializations and we report "
         "the mean F1.", "four times with different initializations"),
        ("seeds", "Scores in the table come from 6 different random initializations per corpus, "
         "as reported below.", "6 different random initializations"),
        ("schedule", "The parser was trained with RMSProp and a constant learning rate of 0.01.",
         "constant learning rate"),
        ("dropout", "We did not use dropout, since the tagger never overfit the small corpus.",
         "did not use dropout"),
        ("dropout", "Weight decay is applied to every matrix, but no dropout anywhere.",
         "no dropout"),
    ],
)  # fmt: skip
def test_a_setting_stated_by_what_the_paper_does(aspect: str, sentence: str, expected: str) -> None:
    assert read(aspect, sentence) == [expected]


@pytest.mark.parametrize(
    "aspect,sentence",
    [
        ("seeds", "The ensemble joins three taggers trained from different initializations."),
        ("dropout", "Without dropout the deep tagger overfits, as no dropout remains between "
         "its layers."),
        ("schedule", "A fixed learning rate is known to slow the late phase of optimisation."),
    ],
)  # fmt: skip
def test_no_setting_from_an_ensemble_an_ablation_or_a_remark(aspect: str, sentence: str) -> None:
    assert read(aspect, sentence) == []


def _thanked(*sentences: str) -> list[str]:
    units = tuple(Unit(s, f"t-{n}", 9, "Acknowledgments", "paragraph", n) for n, s in
                  enumerate(sentences))  # fmt: skip
    return [f.value for f in thanked_hardware(units)]


@pytest.mark.parametrize(
    "sentence,expected",
    [
        ("The Titan Xp card used for this study was donated by a hardware maker.", "Titan Xp"),
        ("We thank the vendor for the donation of a GPU used for part of this work.", "GPU"),
        ("The work was performed using resources provided by the Harwick Tier-2 system run "
         "by the university.", "Harwick Tier-2 system"),
    ],
)  # fmt: skip
def test_hardware_the_acknowledgements_say_served_the_work(sentence: str, expected: str) -> None:
    assert expected in _thanked(sentence)


def test_no_hardware_from_thanks_for_other_things() -> None:
    assert _thanked("We thank the reviewers and the GPU team for their comments.") == []
    assert _thanked("This work was funded by a grant of the national science board.") == []


def test_setup_reads_the_card_a_paper_thanks_for(tmp_path: Path) -> None:
    paper = tmp_path / "thanks.md"
    paper.write_text(
        "# Tagging Harbour Logs\n\n## Experiments\n\nWe train the tagger with Adam for ten "
        "epochs on the harbour corpus and report accuracy on its test split.\n\n"
        "## Acknowledgements\n\nWe thank the port authority for the logs. The Titan Xp used "
        "for this research was donated by a hardware maker.\n"
    )
    lib = tmp_path / "lib"
    assert runner.invoke(app, ["-L", str(lib), "ingest", "--no-embed", str(paper)]).exit_code == 0
    doc = json.loads(runner.invoke(app, ["-L", str(lib), "list", "--json"]).stdout)[0]["id"]
    out = json.loads(runner.invoke(app, ["-L", str(lib), "setup", doc, "--json"]).stdout)
    hardware = out["aspects"]["hardware"]["values"]
    assert [v["value"] for v in hardware] == ["Titan Xp"]
    assert "donated" in hardware[0]["quote"]
