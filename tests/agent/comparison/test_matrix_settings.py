"""Settings read the way a reader reads them (agent/comparison/settings/matrix_settings.py and the
bare-value
lists of
agent/comparison/patterns.py): sentences the tests write, each value verbatim in its quote."""

from __future__ import annotations

import pytest

from citewise.agent.comparison.extraction import Finding, Unit, best_distinct, extract, find_in_unit
from citewise.agent.comparison.settings.matrix_settings import (
    learn_software,
    settings_findings,
    software_names,
)

SECTION = "4 Experimental Setup"


def unit(text: str, page: int = 3, section: str = SECTION, n: int = 1) -> Unit:
    return Unit(text, f"b-{n}", page, section, "paragraph", n)


def read(aspect: str, units: list[Unit], title: str = "", software: set[str] | None = None
         ) -> list[str]:  # fmt: skip
    found: list[Finding] = [f for u in units for f in find_in_unit(aspect, u)]
    found = settings_findings(aspect, units, title, software or set(), found)
    kept = best_distinct(found, 3)
    assert all(f.value in f.quote for f in kept)
    return [f.value for f in kept]


@pytest.mark.parametrize(
    "aspect,sentence,expected",
    [
        ("batch size", "We train with a batch size 32, 5 epochs and a dropout of 0.2.", ["32"]),
        ("batch size", "Batch size is 8, 3 epochs of fine-tuning follow.", ["8"]),
        ("batch size", "We tried batch sizes of 16, 32 or 64 on the dev set.", ["16, 32 or 64"]),
        ("learning rate", "Learning rates of 1e-4, 3e-4 or 1e-3 were searched.",
         ["1e-4, 3e-4 or 1e-3"]),
        ("learning rate", "The learning rate 0.01 and batch size 4 were kept.", ["0.01"]),
        ("epochs", "We fine-tune for 2 to 6 epochs.", ["2 to 6 epochs"]),
    ],
)  # fmt: skip
def test_a_list_of_values_stops_where_another_setting_starts(
    aspect: str, sentence: str, expected: list[str]
) -> None:
    assert [f.value for f in extract(aspect, [unit(sentence)])] == expected


@pytest.mark.parametrize(
    "aspect,sentence,expected",
    [
        ("software", "The tagger is implemented in C++ for speed.", ["C++"]),
        ("software", "All networks were trained using PyTorch on one machine.", ["PyTorch"]),
        ("warmup", "Training used no warm-up and a constant learning rate.", ["no warm-up"]),
        ("compute", "The total training time was about 3 days on one GPU.", ["3 days"]),
        ("schedule", "After each epoch we kept multiplying 0.5 to the learning rate.",
         ["multiplying 0.5 to the learning rate"]),
        ("dropout", "We apply dropout on the final projection layer only.",
         ["dropout on the final projection layer"]),
        ("code availability", "Our scripts are available on GitHub for anyone to reuse.",
         ["available on GitHub"]),
        ("dropout", "During training we also apply layer normalisation and dropout everywhere.",
         ["dropout"]),
        ("dropout", "Our small network uses $P_{dropout} = 0.2$ and four heads.", ["0.2"]),
        ("gradient clipping", "To keep training stable we used gradient clipping throughout.",
         ["gradient clipping"]),
        ("schedule", "The initial learning rate is 0.5 and halved whenever the loss plateaus.",
         ["halved whenever the loss plateaus"]),
        ("schedule", "We keep the warmup and decay schedule of the original recipe.",
         ["warmup and decay schedule"]),
        ("batch size", "We cap the number of tokens per batch at 3000 on each device.", ["3000"]),
        ("learning rate", "Plain SGD is used and we fixed the training rate at 0.05.", ["0.05"]),
    ],
)  # fmt: skip
def test_settings_in_their_usual_phrasings(aspect: str, sentence: str, expected: list[str]) -> None:
    assert read(aspect, [unit(sentence)]) == expected


def test_an_epoch_count_that_times_something_else_is_no_training_length() -> None:
    said = unit("The step size is halved when the dev loss does not fall after 4 epochs.")
    assert read("epochs", [said]) == []
    assert read("epochs", [unit("We then fine-tune the tagger for 4 epochs.")]) == ["4 epochs"]


@pytest.mark.parametrize(
    "aspect,sentence",
    [
        ("software", "The report was written in English and French."),
        ("code availability", "No earlier corpora of this kind are available."),
        ("code availability", "Patient forums make such texts available online."),
        ("software", "Python is a popular language among data scientists."),
    ],
)
def test_no_setting_where_the_sentence_states_none(aspect: str, sentence: str) -> None:
    assert read(aspect, [unit(sentence)]) == []


def test_a_name_the_library_calls_a_toolkit_is_read_where_a_paper_uses_it() -> None:
    elsewhere = [unit("Sentences were split with the Punkt toolkit (Kiss, 2006).")]
    learned = learn_software(elsewhere)
    assert learned == {"Punkt"}
    names = software_names({"Punkt": 2, "NLP": 5}, other_names=set())
    assert names == {"Punkt"}
    assert read("software", [unit("We split sentences using Punkt.")], software=names) == ["Punkt"]


def test_the_papers_own_repository_leads_over_other_links() -> None:
    first_page = unit("Jane Roe, jane.roe@acmelab.org, Acme Lab", page=1, section="", n=1)
    other = unit("We build on the code of https://github.com/someone/baseline-kit.", n=2)
    footnote = unit("5https://github.com/acmelab/echo-tagger", page=4, section="", n=3)
    # another project's link in a sentence that offers no code of the paper's is no code cell
    assert read("code availability", [first_page, other, footnote]) == [
        "https://github.com/acmelab/echo-tagger",
    ]


def phrase(column: str, *sentences: str) -> list[str]:
    from citewise.agent.comparison.aspect_readers.phrases.columns import phrase_findings

    units = [unit(s, n=i) for i, s in enumerate(sentences)]
    found = best_distinct(phrase_findings(column, units), 3)
    assert all(f.value in f.quote for f in found)
    return [f.value for f in found]


@pytest.mark.parametrize(
    "column,sentence,expected",
    [
        ("beam size", "Decoding keeps a beam size of 6 for every language pair.", ["6"]),
        ("beam size", "We decode greedily, then rescore with beam size 4.", ["4"]),
        ("vocabulary size", "Sentences share a joint vocabulary size of 32k subwords.", ["32k"]),
        ("hidden size", "Both GRU layers have 256 hidden size in all runs.", ["256"]),
        ("embedding size", "The baseline uses embeddings of size 300, while our tagger has an "
                           "embedding size of 64.", ["64"]),
        ("loss function", "The tagger minimises a weighted hinge loss as the loss function.",
         ["weighted hinge loss"]),
        ("loss function", "We train all taggers with a Focal-style loss function.",
         ["Focal-style loss function"]),
        ("loss function", "The loss function is a margin ranking loss over pairs.",
         ["a margin ranking loss over pairs"]),
    ],
)  # fmt: skip
def test_a_free_phrase_cell_is_what_the_sentence_says_it_is(
    column: str, sentence: str, expected: list[str]
) -> None:
    assert phrase(column, sentence) == expected


@pytest.mark.parametrize(
    "column,sentence",
    [
        ("beam size", "A larger beam size slows decoding down considerably."),
        ("loss function", "Engineers would modify loss functions by hand before."),
        ("loss function", "The loss function is given below."),
        ("loss function", "The loss function is optimized by Adam with a small step."),
        ("loss function", "We combine two loss functions during training."),
    ],
)
def test_a_sentence_that_names_the_phrase_without_its_value_leaves_it_empty(
    column: str, sentence: str
) -> None:
    assert phrase(column, sentence) == []


def test_the_registry_schemas_offer_free_phrases_beside_the_presets() -> None:
    import jsonschema

    from citewise.agent.actions.tool_actions import BuildMatrixParams, CompareMethodsParams

    for model, field in ((BuildMatrixParams, "columns"), (CompareMethodsParams, "aspects")):
        schema = model.model_json_schema()
        items = schema["properties"][field]["items"]
        assert "task" in items["examples"] and "one to six words" in items["description"]
        base = {"documents": ["a", "b"]}
        for ok in (["task"], ["annotators"], ["study design"], ["loss function", "beam size"]):
            jsonschema.validate({**base, field: ok}, schema)
        for bad in ([""], ["42"], ["one two three four five six seven"]):
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.validate({**base, field: bad}, schema)


def cell(doc: str, aspect: str, value: str | None, page: int = 2) -> object:
    from citewise.agent.comparison.compare import Cell

    if value is None:
        return Cell(doc, aspect, None)
    quote = f"We report {value} in this study."
    return Cell(doc, aspect, Finding(aspect, value, quote, page, f"{doc}-b", "3 Setup", 1.0))


def test_key_differences_say_what_differs_and_nothing_where_papers_agree() -> None:
    from citewise.agent.comparison.compare import differences

    cells = [
        cell("kelp", "datasets", "ReefScan, TideSet and KelpCount", page=3),
        cell("tides", "datasets", "ReefScan and GaugeWeb", page=5),
        cell("kelp", "metrics", "MAE"),
        cell("tides", "metrics", "MAE"),
        cell("kelp", "method", "a density regression network"),
        cell("tides", "method", "a recurrent estimator read from webcams"),
        cell("kelp", "limitations", "one coastline only"),
        cell("tides", "limitations", None),
        cell("kelp", "learning rate", "2e-5"),
        cell("tides", "learning rate", "3e-4"),
        cell("kelp", "software", "PyTorch 1.4"),
        cell("tides", "software", "PyTorch"),
    ]
    aspects = ["datasets", "metrics", "method", "limitations", "learning rate", "software"]
    said = {d.text.split(",")[0]: d for d in differences(aspects, cells)}  # type: ignore[arg-type]
    assert set(said) == {"On datasets", "On limitations", "On learning rate"}
    assert said["On datasets"].text == (
        "On datasets, kelp and tides both name ReefScan; only kelp names TideSet, KelpCount "
        "(p. 3); only tides names GaugeWeb (p. 5)."
    )
    assert "tides does not state it" in said["On limitations"].text
    assert "2e-5" in said["On learning rate"].text and "3e-4" in said["On learning rate"].text
    assert all(set(d.citations) <= {"kelp-b", "tides-b"} for d in said.values())
