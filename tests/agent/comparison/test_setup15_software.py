"""Lexical resources as software (eleventh session, setup15): a lexical database or knowledge
base the paper's own experiments use is read, one that only labels the data, one the paper
calls its data, or one named in a sentence without "we"/"our" is not."""

from __future__ import annotations

from citewise.agent.comparison.extraction import Unit
from citewise.agent.comparison.settings.setup_software import software_findings


def names(*texts: str) -> list[str]:
    units = [Unit(t, f"b-{n}", 4, "5 Experiments", "paragraph", n) for n, t in enumerate(texts, 1)]
    return [f.value for f in software_findings(units, set())]


def test_a_resource_the_papers_experiments_use_is_read() -> None:
    assert names("We use SentiWordNet to score the polarity of each token.") == ["SentiWordNet"]
    assert names("In our model, ConceptNet is used as the source of commonsense facts.") == [
        "ConceptNet"
    ]


def test_a_resource_in_a_sentence_without_we_is_not_read() -> None:
    assert names("The parser of BIBREF3 is built using FrameNet frames.") == []


def test_a_resource_that_only_labels_the_data_is_not_read() -> None:
    text = "We run our system using the Senseval data, labelled by senses from WordNet 3.0."
    assert names(text) == []


def test_a_resource_the_paper_calls_its_data_is_not_read() -> None:
    use = "We use WordNet for our hypernym prediction experiments."
    assert names(use) == ["WordNet"]
    assert names(use, "Accuracy rises on the WordNet hypernym dataset.") == []


def test_a_program_named_after_the_resource_keeps_its_full_name() -> None:
    text = "We lemmatise the tweets using the WordNet Lemmatizer before training."
    assert names(text) == ["WordNet Lemmatizer"]


def test_a_toolkit_named_in_capitals_before_its_kind_is_read() -> None:
    assert names("We tokenised every review using the Heron NLP Toolkit.") == ["Heron NLP Toolkit"]
    assert names("Posts were split into tokens with the Crane Twitter NLP tool.") == [
        "Crane Twitter NLP tool"
    ]


def test_a_tool_after_a_determiner_alone_is_no_program() -> None:
    assert names("We use the tool to split the posts into tokens.") == []
    assert names("We use an NLP toolkit to split the posts into tokens.") == []
