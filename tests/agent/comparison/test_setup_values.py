"""A numeric setting read whole and ranked as a reader ranks it, on sentences the tests write:
a value for each thing it is set for, a value the conversion left as a formula, and counts of
epochs or batches that are not the training's own ranked below it."""

from __future__ import annotations

import pytest

from citewise.agent.comparison.extraction import Finding, Unit, best_distinct, find_in_unit
from citewise.agent.comparison.settings.matrix_settings import settings_findings

SECTION = "4 Experimental Setup"


def unit(text: str, n: int = 1, section: str = SECTION) -> Unit:
    return Unit(text, f"b-{n}", 3, section, "paragraph", n)


def read(aspect: str, texts: list[str]) -> list[str]:
    units = [unit(t, n) for n, t in enumerate(texts, 1)]
    found: list[Finding] = [f for u in units for f in find_in_unit(aspect, u)]
    kept = best_distinct(settings_findings(aspect, units, "", set(), found), 2)
    assert all(f.value in f.quote for f in kept)
    return [f.value for f in kept]


@pytest.mark.parametrize(
    "aspect,sentence,expected",
    [
        ("learning rate",
         "The starting learning rate was set to 0.002 for the reef corpus and 0.02 for the dune "
         "corpus.",
         "0.002 for the reef corpus and 0.02 for the dune corpus"),
        ("learning rate",
         "Both echo models use a linearly decaying learning rate with an initial value of 0.03 in "
         "ModelA and 0.06 in ModelB.",
         "0.03 in ModelA and 0.06 in ModelB"),
        ("batch size",
         "We update the weights in batches of size 96 for GRU & CNN and 48 for the tagger.",
         "96 for GRU & CNN and 48 for the tagger"),
        ("epochs",
         "The granite decoder is trained for 400 epochs on Reef and 90 epochs on Dune using Adam.",
         "400 epochs on Reef and 90 epochs on Dune"),
    ],
)  # fmt: skip
def test_every_value_is_given_with_what_it_is_for(aspect: str, sentence: str, expected: str
                                                  ) -> None:  # fmt: skip
    assert read(aspect, [sentence])[0] == expected


def test_a_value_with_one_purpose_and_no_second_value_stays_as_read() -> None:
    # "for 12 epochs" is what the rate is used for, not a second value of it
    assert read("learning rate", ["We fine-tune with a learning rate of 0.004 for 12 epochs."]) == [
        "0.004"
    ]


def test_a_setting_given_as_a_formula_is_stated_without_a_number() -> None:
    texts = ["The dune tagger is trained with Adam and a learning rate of INLINEFORM2 ."]
    assert read("learning rate", texts) == ["learning rate of INLINEFORM2"]
    assert read("batch size", ["Sequences are merged in batches of size INLINEFORM0 ."]) == [
        "batches of size INLINEFORM0"
    ]


def test_a_formula_gives_way_to_a_number_read_for_the_setting() -> None:
    texts = [
        "The reef model uses a learning rate of INLINEFORM0 during warm up.",
        "The initial learning rate is set to 0.005.",
    ]
    assert read("learning rate", texts) == ["0.005"]


def test_a_batch_of_something_given_as_a_formula_is_no_batch_size() -> None:
    assert read("batch size", ["Then the next batch of INLINEFORM1 sequences is merged."]) == []


def test_a_learning_rate_set_initially_is_read() -> None:
    texts = ["The hidden layer has 64 units and the learning rate is initially set to 0.3."]
    assert read("learning rate", texts) == ["0.3"]


def test_the_training_count_of_epochs_comes_before_one_that_trains_nothing() -> None:
    texts = [
        "Our echo model already finds the right clause with only 4 epochs.",
        "In our model, the training epochs are set to 30.",
    ]
    assert read("epochs", texts)[0] == "30"


def test_a_batch_a_speed_is_measured_on_gives_way_to_the_training_batch() -> None:
    texts = [
        "We time inference on one CPU using a batch size of 1.",
        "The dune model is trained with a batch size of 64.",
    ]
    assert read("batch size", texts) == ["64"]
    assert read("batch size", texts[:1]) == ["1"]  # all the paper says: kept


@pytest.mark.parametrize(
    "sentence,expected",
    [
        ("Dropout (rate=0.35) is applied to the granite features.", "0.35"),
        ("The tagger keeps two GRU layers, variational dropout (0.25, 0.25) and Adam.", "0.25"),
        ("The reef network uses a drop out of 0.45 between its layers.", "0.45"),
        ("We train for 9 epochs with a dropout factor of 0.15 on the dune corpus.", "0.15"),
        ("We use dropout with rates 0.25 on every granite layer.", "0.25"),
        ("We apply dropout BIBREF4 of rate 0.15 to all reef layers.", "0.15"),
        ("We apply dropout BIBREF7 with rate $0.45$ after the encoder.", "$0.45$"),
    ],
)  # fmt: skip
def test_a_dropout_rate_is_read_in_brackets_and_in_other_spellings(sentence: str, expected: str
                                                                   ) -> None:  # fmt: skip
    assert read("dropout", [sentence])[0] == expected


def test_a_batch_counted_in_thousands_with_k_is_read() -> None:
    texts = ["The reef model is trained on large batches (up to 8K examples per batch)."]
    assert read("batch size", texts) == ["8K examples per batch"]


def test_a_method_named_like_a_setting_takes_no_value_of_a_respectively_list() -> None:
    # "LR" here is a logistic regression whose score the list gives, not a learning rate
    texts = ["The SVM, GBDT and LR methods reach 0.61, 0.62 and 0.63 respectively."]
    assert read("learning rate", texts) == []


@pytest.mark.parametrize(
    "aspect,sentence,expected",
    [
        ("seeds", "Each granite experiment is run four times and the average score is reported.",
         "is run four times"),
        ("seeds", "Every number is the mean result of 3 repeated experiments on the reef data.",
         "3 repeated experiments"),
        ("schedule", "The taggers use SGD with an exponentially decaying learning rate from 0.1.",
         "exponentially decaying learning rate"),
        ("warmup", "The learning rate is warmed up for 7 epochs and then kept constant.",
         "7 epochs"),
        ("warmup", "We use a linear warmup schedule for the first $0.06$ fraction of the steps.",
         "$0.06$ fraction of the steps"),
    ],
)  # fmt: skip
def test_repeated_runs_a_decaying_rate_and_a_warmup_share_are_read(
    aspect: str, sentence: str, expected: str
) -> None:
    assert read(aspect, [sentence])[0] == expected


def test_folds_of_a_cross_validation_are_no_repeated_runs() -> None:
    texts = ["The split was repeated five times in a cross-validation and the mean is reported."]
    assert read("seeds", texts) == []


def test_a_setting_of_the_related_work_is_not_the_papers_own() -> None:
    others = Unit(
        "Matrix products let such models use the full power of TPU hardware.",
        "b-1", 2, "2 Related Work", "paragraph", 1,
    )  # fmt: skip
    ours = Unit(
        "In related work we compare to, we also train on one TPU v3.",
        "b-2", 2, "2 Related Work", "paragraph", 2,
    )  # fmt: skip
    found = [f for u in (others, ours) for f in find_in_unit("hardware", u)]
    values = [f.value for f in settings_findings("hardware", [others, ours], "", set(), found)]
    assert values == ["one TPU v3"]


def test_a_files_code_is_no_card() -> None:
    texts = ["The tagger was trained on the XML files H18 to H23 and tested on file H24."]
    assert read("hardware", texts) == []
    assert read("hardware", ["Each run trains on two V100 cards."]) != []


def test_stochastic_gradient_descent_is_the_family_of_a_named_optimizer() -> None:
    texts = ["Training is done via stochastic gradient descent with the Adadelta update rule."]
    assert read("optimizer", texts) == ["Adadelta"]
    assert read("optimizer", ["We train the reef tagger with plain SGD."]) == ["SGD"]


def test_a_setting_named_without_a_number_gives_way_to_its_number() -> None:
    texts = [
        "We apply dropout to the embeddings of the granite encoder.",
        "The dropout rate is set to 0.35.",
    ]
    assert read("dropout", texts) == ["0.35"]
    assert read("dropout", texts[:1]) == ["dropout"]


def test_a_formula_a_derivation_supposes_is_no_setting() -> None:
    texts = ["Lets assume the training batch size is INLINEFORM4 and the share is INLINEFORM5 ."]
    assert read("batch size", texts) == []
