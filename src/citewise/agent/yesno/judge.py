"""Judge a yes/no question against one paper: its claim, the paper's sentences, the fitted
model's probability of "Yes", and the lead it gives ("Yes", "No" or none)."""

from __future__ import annotations

from dataclasses import dataclass

from citewise.agent.sentences.extractive import idf_function
from citewise.agent.yesno.claim import Claim, claim_of
from citewise.agent.yesno.features import Features, Reading, features
from citewise.agent.yesno.model import YesNoModel, model
from citewise.agent.yesno.paper import PaperSentences, Sentence
from citewise.retrieval.hybrid import Retriever

YES, NO = "Yes", "No"


@dataclass(frozen=True)
class Judgement:
    claim: Claim
    features: Features
    probability: float  # of "Yes"
    lead: str | None  # None: nothing settles it
    best: list[Sentence]  # the paper's sentences that cover the claim best
    unwritten: frozenset[str]  # stems of the claim's words the paper never writes


def lead_of(probability: float, fitted: YesNoModel) -> str | None:
    """ "Yes" or "No" when the probability is more than the margin from the threshold."""
    if probability >= fitted.threshold + fitted.margin:
        return YES
    if probability < fitted.threshold - fitted.margin:
        return NO
    return None


def read(
    question: str, document: str, sentences: PaperSentences, retriever: Retriever
) -> tuple[Claim, Reading]:
    """The question's claim and what the document's sentences say about it (no model asked:
    scripts/fit_yes_no.py fits the model on these)."""
    claim = claim_of(question)
    total, frequencies = retriever.document_frequencies(list(claim.terms))
    idf = idf_function(total, frequencies)

    def weight(term: str) -> float:
        return idf(term) if frequencies.get(term, 0) > 0 else 0.0

    return claim, features(claim, sentences.of(document), weight)


def judge(
    question: str, document: str, sentences: PaperSentences, retriever: Retriever
) -> Judgement:
    """The question's claim judged on the document's sentences by the shipped model."""
    claim, paper = read(question, document, sentences, retriever)
    fitted = model()
    probability = fitted.probability(paper.features)
    lead = lead_of(probability, fitted)
    return Judgement(claim, paper.features, probability, lead, paper.best, paper.unwritten)
