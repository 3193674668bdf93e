"""Software and hardware readings counted over the QASPER pool (agent/comparison/settings/
setup_software.py and matrix_settings.py), on sentences the tests write: a program named by its
kind after a name in capitals, a web service the paper processes with (not one it collects its
data through), Hugging Face in any spelling, and a paper cited by its ACL Anthology ID that is
no graphics card."""

from __future__ import annotations

import pytest

from citewise.agent.comparison.extraction import Finding, Unit, best_distinct, find_in_unit
from citewise.agent.comparison.settings.matrix_settings import settings_findings
from citewise.agent.comparison.settings.setup_software import kind_named


def read(aspect: str, *sentences: str, section: str = "4 Experiments") -> list[str]:
    """The values kept for `aspect` from sentences of one section (at most six)."""
    units = [Unit(s, f"b-{n}", 3, section, "paragraph", n) for n, s in enumerate(sentences)]
    found: list[Finding] = [f for u in units for f in find_in_unit(aspect, u)]
    kept = best_distinct(settings_findings(aspect, units, "", set(), found), 6)
    assert all(f.value in f.quote for f in kept)
    return [f.value for f in kept]


@pytest.mark.parametrize(
    "sentence,expected",
    [
        ("The lemma tags were obtained using the Brockwell POS tagger BIBREF4 , then merged.",
         "Brockwell POS tagger"),
        ("We use the Halden Forced Aligner BIBREF12 to get phone boundaries for every clip.",
         "Halden Forced Aligner"),
        ("All reviews were split into words with the Quarto tokeniser before training.",
         "Quarto tokeniser"),
        ("Object labels for each photo were predicted using the Brightline Vision API.",
         "Brightline Vision API"),
    ],
)  # fmt: skip
def test_a_program_named_by_its_kind_is_software(sentence: str, expected: str) -> None:
    assert expected in read("software", sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "The parser was trained on the harbour treebank for two days.",
        "Tags come from a POS tagger that we used without any change.",
        "Word segmenters are used for the agglutinative languages of the set.",
        "We gathered 5,000 posts using the public Brightline Streaming API in May.",
        "The replies were collected with the Ferrule Search API and used as negatives.",
    ],
)
def test_no_program_from_a_kind_alone_or_a_data_source(sentence: str) -> None:
    assert read("software", sentence) == []


def test_a_program_named_once_is_not_named_again_by_its_kind() -> None:
    values = read("software", "Reviews were tokenized using the Moses tokenizer of the toolkit.")
    assert values == ["Moses"]
    assert kind_named("we used the Moses tokenizer") == ["Moses tokenizer"]


def test_hugging_face_in_any_spelling_is_software() -> None:
    values = read(
        "software",
        "We release the weights with the training code in the Transformers library from "
        "HuggingFace BIBREF6.",
    )
    assert "HuggingFace" in values


def test_an_anthology_id_is_no_graphics_card() -> None:
    sentence = (
        "As the baseline we use the mention ranker of P15-1137, trained on a single V100 GPU."
    )
    values = read("hardware", sentence)
    assert values and not any(v.startswith("P15") for v in values)
    values = read("hardware", "Unlike K18-3008, we train the tagger on two GPUs.")
    assert values == ["two GPUs"]


@pytest.mark.parametrize(
    "aspect,sentence,expected",
    [
        ("epochs", "The granite tagger usually converges within 12 epochs on every shard.",
         "converges within 12 epochs"),
        ("epochs", "Our echo model converged after three epochs of fine-tuning.",
         "converged after three epochs"),
        ("batch size", "During training each batch has 24 samples drawn at random.", "24"),
        ("batch size", "Training batches contain about 6K source and target tokens.", "6K"),
    ],
)  # fmt: skip
def test_pool_phrasings_of_training_length_and_batch(
    aspect: str, sentence: str, expected: str
) -> None:
    assert read(aspect, sentence) == [expected]


def test_a_batch_a_speed_is_measured_on_is_no_setting() -> None:
    sentence = "One update over a batch containing 48 threads takes 0.2 seconds with our method."
    assert read("batch size", sentence) == []
    assert read("epochs", "Stop early when the score does not improve within 4 epochs.") == []
