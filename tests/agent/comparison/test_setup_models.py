"""Setup software includes the pre-trained models and embeddings a paper's own experiments load
(agent/comparison/settings/setup_loaded.py), on sentences the tests write: what a reader must
download to rerun them counts; a release named as an example, a baseline, a model followed,
another work's, or one the paper trains itself does not."""

from __future__ import annotations

import pytest

from tests.agent.comparison.test_setup_software import read


@pytest.mark.parametrize(
    "sentence,expected",
    [
        ("The tagger's lookup table is initialized from 200-d Glove vectors BIBREF3 .", "Glove"),
        ("We encode every claim using BERT-base and train a linear layer on the CLS vector.",
         "BERT-base"),
        ("For the Hindi runs we fine-tune bert-base-multilingual-cased for two passes.",
         "bert-base-multilingual-cased"),
        ("Region features come from a ResNet-101 pretrained on ImageNet, which we keep frozen.",
         "ResNet-101"),
        ("The word vectors are pre-trained embeddings from fastText, one per language.",
         "fastText"),
        ("Our generator is loaded with the GPT-2 weights before it reads the recipes.", "GPT-2"),
    ],
)  # fmt: skip
def test_a_release_the_paper_loads_is_software(sentence: str, expected: str) -> None:
    assert read("software", sentence) == [expected]


@pytest.mark.parametrize(
    "sentence",
    [
        "Large pretrained encoders such as ELMo BIBREF1 changed how tagging is done.",
        "We initialise the lookup table with pretrained vectors such as word2vec BIBREF2 and "
        "GloVe BIBREF3 , which help small corpora.",
        "We compare our vectors with GloVe embeddings trained on the same crawl.",
        "The strongest baseline feeds word2vec features to a linear model that we tune.",
        "Similar to ULMFiT BIBREF5 , we find that unfreezing the layers one by one helps.",
        "We keep the same dropout as ELMo in every layer of the tagger.",
        "We train word2vec on our harbour logs with a window of five.",
        "The mini BERT is pre-trained by a public pipeline on two corpora.",
        "RoBERTa was trained on far more text than the original release.",
        "We draw on prior work in which the authors fine-tune InferSent for activity phrases.",
    ],
)
def test_a_release_named_but_not_loaded_by_the_paper_is_none(sentence: str) -> None:
    assert read("software", sentence) == []


def test_a_release_in_related_work_or_the_abstract_is_none() -> None:
    sentence = "We use pre-trained GloVe vectors for the tagger's word layer."
    assert read("software", sentence, section="2 Related Work") == []
    assert read("software", sentence, section="Abstract") == []
    assert read("software", sentence) == ["GloVe"]


def test_a_program_comes_before_the_release_it_loads() -> None:
    sentence = "We use PyTorch and initialise the encoder with pre-trained ELMo layers."
    assert read("software", sentence) == ["PyTorch", "ELMo"]


def test_a_name_in_capitals_is_matched_as_written() -> None:
    assert read("software", "We used Bert, our annotator, to label the pilot batch.") == []


def test_every_item_of_a_list_of_models_followed_is_none() -> None:
    sentence = "Our fine-tuning recipe closely resembles those of BERT and RoBERTa on every task."
    assert read("software", sentence) == []
