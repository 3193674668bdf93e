"""Setup values on sentences the tests write (tenth session, setup12): a value that times
something else gives way to the training's own instead of standing beside it."""

from __future__ import annotations

from citewise.agent.comparison.extraction import Finding, Unit, best_distinct, find_in_unit
from citewise.agent.comparison.settings.matrix_settings import settings_findings

SECTION = "4 Experimental Setup"


def unit(text: str, n: int = 1, section: str = SECTION) -> Unit:
    return Unit(text, f"b-{n}", 3, section, "paragraph", n)


def read(aspect: str, texts: list[str], section: str = SECTION) -> list[str]:
    units = [unit(t, n, section) for n, t in enumerate(texts, 1)]
    found: list[Finding] = [f for u in units for f in find_in_unit(aspect, u)]
    kept = best_distinct(settings_findings(aspect, units, "", set(), found), 3)
    assert all(f.value in f.quote for f in kept)
    return [f.value for f in kept]


def test_a_count_of_epochs_a_figure_shows_gives_way_to_the_training_count() -> None:
    texts = [
        "The heron model already picks the right span with only 3 epochs.",
        "The number of training epochs is set to 40.",
    ]
    assert read("epochs", texts) == ["40"]


def test_a_count_of_epochs_that_trains_nothing_stays_when_it_is_all_there_is() -> None:
    assert read("epochs", ["The heron model already picks the right span with only 3 epochs."])


def test_weight_decay_the_paper_uses_without_a_value_is_read_by_its_name() -> None:
    assert read("weight decay", ["We train the heron tagger with SGD and an L2 regularizer."]) == [
        "L2 regularizer"
    ]
    assert read("weight decay", ["We also apply weight decay to the output layer."]) == [
        "weight decay"
    ]


def test_the_digit_of_l2_is_no_value_beside_a_stated_coefficient() -> None:
    texts = [
        "The baseline heron tagger is trained with L2 regularization.",
        "We use an L2 weight decay of 0.0005.",
    ]
    assert read("weight decay", texts) == ["0.0005"]


def test_l2_regularization_named_without_use_is_not_read() -> None:
    assert read("weight decay", ["L2 regularization is a common way to avoid overfitting."]) == []


def test_a_training_length_in_steps_a_run_is_given_is_read() -> None:
    assert read("epochs", ["All heron models are trained for 50,000 optimizer steps."]) == [
        "50,000 optimizer steps"
    ]
    assert read("epochs", ["It takes about 9 hours to run 12,000 steps of pre-training."]) == [
        "12,000 steps"
    ]


def test_steps_between_checkpoints_are_no_training_length() -> None:
    assert read("epochs", ["We save a checkpoint every 1,000 optimizer steps."]) == []


def test_the_set_a_search_tried_is_the_settings_value() -> None:
    sentence = "The learning rate is selected amongst {1e-5, 3e-5, 5e-5} on the heron dev set."
    assert read("learning rate", [sentence]) == ["{1e-5, 3e-5, 5e-5}"]
    latex = r"We try every dropout in $\lbrace 0.1,0.3\rbrace $ for the heron tagger."
    assert read("dropout", [latex]) == [r"$\lbrace 0.1,0.3\rbrace $"]


def test_a_set_of_other_things_is_no_value() -> None:
    assert read("batch size", ["The batch size depends on the language in {en, de, fr}."]) == []


def test_cards_a_run_simulates_are_not_its_hardware() -> None:
    sentence = "We train on one GPU, delaying gradient updates by factor 4 to simulate 4 GPUs."
    assert read("hardware", [sentence]) == ["one GPU"]


def test_optimizers_named_as_examples_are_not_the_one_used() -> None:
    texts = [
        "The heron network could be optimized by any SGD method, e.g., Adam BIBREF3, Adadelta "
        "BIBREF4, and so on.",
        "In our experiments, optimization uses RMSprop BIBREF5.",
    ]
    assert read("optimizer", texts) == ["RMSprop"]


def test_a_minibatch_written_as_one_word_is_a_batch() -> None:
    assert read(
        "batch size", ["The heron net is unrolled for 30 steps; each minibatch is 16."]
    ) == ["16"]


def test_dropout_named_in_quotes_or_as_a_layer_is_read() -> None:
    assert read(
        "dropout", ["For the heron layer we applied `dropout' BIBREF3 regularization."]
    ) == ["dropout"]
    assert read("dropout", ["The dense layer is followed by a drop-out layer."]) == [
        "drop-out layer"
    ]
    assert read("dropout", ["A dropout layer is a common way to regularise."]) == []
