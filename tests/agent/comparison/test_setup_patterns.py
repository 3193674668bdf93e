"""Setting patterns over many phrasings (pure functions, no PDF): the value each sentence
states, and nothing from sentences that do not state one."""

from __future__ import annotations

import pytest

from citewise.agent.comparison.extraction import Unit, extract

SECTION = "4 Experimental Setup"


def values(aspect: str, sentence: str) -> list[str]:
    unit = Unit(sentence, "b-1", 3, SECTION, "paragraph", 1)
    found = extract(aspect, [unit], limit=3)
    assert all(f.value in f.quote for f in found)
    return [f.value for f in found]


@pytest.mark.parametrize(
    "aspect,sentence,expected",
    [
        ("optimizer", "We use Adam (Kingma and Ba, 2015) with β1 = 0.9 and β2 = 0.98.", "Adam"),
        ("optimizer", "Models are optimized using stochastic gradient descent with a momentum "
                      "of 0.9.", "stochastic gradient descent with a momentum of 0.9"),
        ("optimizer", "Training uses the AdamW optimizer throughout.", "AdamW"),
        ("learning rate", "The learning rate is set to 5 × 10−5 for all runs.", "5 × 10−5"),
        ("learning rate", "We train with lr = 0.001 and no decay.", "0.001"),
        ("learning rate", "A peak learning rate of 3e-4 works best.", "3e-4"),
        ("batch size", "We use a batch size of 256 for pretraining.", "256"),
        ("batch size", "Training uses mini-batches of 64 examples.", "64"),
        ("epochs", "All models are trained for 100k steps.", "100k steps"),
        ("epochs", "We fine-tune for 3 epochs on each task.", "3 epochs"),
        ("weight decay", "We apply a weight decay of 0.01 to all weights.", "0.01"),
        ("gradient clipping", "We clip gradients at 0.5 during training.", "0.5"),
        ("gradient clipping", "Gradient norm clipping of 1 is applied.", "1"),
        ("gradient clipping", "We use a max gradient norm of 1.0.", "1.0"),
        ("dropout", "A dropout rate of 0.3 is applied after each layer.", "0.3"),
        ("dropout", "We train with dropout p = 0.2 on the embeddings.", "0.2"),
        ("hardware", "Training takes two days on 8 NVIDIA V100 GPUs.", "8 NVIDIA V100 GPUs"),
        ("seeds", "Results are averaged over three random seeds.", "three random seeds"),
        ("warmup", "We use linear warmup over the first 10% of steps.", "10%"),
        ("schedule", "The learning rate follows cosine annealing during training.",
         "cosine annealing"),
        ("schedule", "The learning rate was halved every 10 epochs.",
         "learning rate was halved every 10 epochs"),
        ("schedule", "We train with an inverse square root schedule.",
         "inverse square root schedule"),
        ("code availability", "Code is available at https://github.com/acme/echo.",
         "https://github.com/acme/echo"),
    ],
)  # fmt: skip
def test_setting_is_read_from_its_phrasing(aspect: str, sentence: str, expected: str) -> None:
    assert values(aspect, sentence)[:1] == [expected]


@pytest.mark.parametrize(
    "aspect,sentence",
    [
        ("optimizer", "Adam Smith collected the stones in 1776."),
        ("optimizer", "We thank Adam Jones for comments."),
        ("schedule", "The signal shows an exponential decay after the tap."),
        ("hardware", "The block weighs 16 GB less than expected."),
        ("code availability", "This article is distributed under "
                              "http://creativecommons.org/licenses/by/4.0 terms."),
        ("code availability", "Journal of Statistical Software http://www.jstatsoft.org/"),
        ("learning rate", "The students learn at their own rate."),
        ("batch size", "Stones arrive in batches from the quarry."),
    ],
)  # fmt: skip
def test_sentences_that_state_no_setting_give_nothing(aspect: str, sentence: str) -> None:
    assert values(aspect, sentence) == []
