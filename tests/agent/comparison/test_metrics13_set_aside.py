"""A metric the paper sets aside is no metric of its own
(agent/comparison/aspect_readers/matrix_metrics.py `set_aside`); sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.matrix_metrics import set_aside
from citewise.agent.comparison.extraction import Finding


def kept(quote: str, *values: str) -> list[str]:
    found = [Finding("metrics", v, quote, 3, "b-1", "5 Evaluation", 2.5) for v in values]
    return [f.value for f in set_aside(found)]


def test_a_metric_the_paper_does_not_use_is_set_aside() -> None:
    quote = "We do not use METEOR since it rewards copying the reef notes unchanged."
    assert kept(quote, "METEOR") == []


def test_a_metric_called_unsuited_is_set_aside_but_the_one_chosen_after_it_stays() -> None:
    quote = (
        "Overlap metrics such as BLEU or ROUGE are not suitable for open-ended kelp stories, "
        "so we report perplexity."
    )
    assert kept(quote, "BLEU", "ROUGE", "perplexity") == ["perplexity"]


def test_a_refusal_of_something_else_keeps_the_metric() -> None:
    quote = "We do not use any external lexicon and report accuracy on the reef test set."
    assert kept(quote, "accuracy") == ["accuracy"]
    assert kept("Accuracy is reported for all six reef taggers.", "Accuracy") == ["Accuracy"]


def test_a_metric_named_in_describing_another_is_set_aside() -> None:
    quote = "We report perplexity, which indicates the error rate of the next reef word."
    assert kept(quote, "perplexity", "error rate") == ["perplexity"]
    quote = "We use the kelp score which considers both precision and recall of the tags."
    assert kept(quote, "precision", "recall") == []
