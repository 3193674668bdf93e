"""Pure parts of research: planning, disagreements, verification, Markdown sentence counts."""

from __future__ import annotations

from citewise.agent.research.model import (
    FACETS,
    Claim,
    EvidenceItem,
    Paper,
    Paragraph,
    Report,
    Section,
    evidence_id,
)
from citewise.agent.research.reading.disagree import (
    find_disagreements,
    measurements,
    polarity,
)
from citewise.agent.research.reading.themes import theme_terms
from citewise.agent.research.stages.plan import key_phrases, make_plan
from citewise.agent.research.stages.screening import screen_paper
from citewise.agent.research.stages.verify import verify_report
from citewise.agent.research.statistics import SentenceCount, count_sentences
from citewise.report.markdown import render_markdown
from citewise.retrieval.terms import stem
from tests.research.rendered import body_sentences


def item(eid: str, paper: str, quote: str) -> EvidenceItem:
    return EvidenceItem(id=eid, sub_question="q4", kind="result", paper=paper, quote=quote)


def test_plan_has_four_to_eight_sub_questions_covering_every_facet() -> None:
    plan = make_plan("citation graphs and full-text extraction from scholarly PDFs")
    assert 4 <= len(plan.sub_questions) <= 8
    assert {q.facet for q in plan.sub_questions} >= set(FACETS)
    assert len({q.id for q in plan.sub_questions}) == len(plan.sub_questions)
    for question in plan.sub_questions:
        assert question.queries and all(q.strip() for q in question.queries)
        assert question.text.endswith("?")
    # Query variants bring in related words the topic does not use.
    assert any("network" in q for s in plan.sub_questions for q in s.queries)


def test_key_phrases_split_on_stopwords_and_punctuation() -> None:
    assert key_phrases("Deep venous thrombosis prophylaxis in trauma patients: a review") == [
        "Deep venous thrombosis prophylaxis",
        "trauma patients",
        "review",
    ]


def test_evidence_ids_are_deterministic_and_task_scoped() -> None:
    first = evidence_id("t1", "q1", "method", "blk-1", "We use GROBID.")
    assert first == evidence_id("t1", "q1", "method", "blk-1", "We use GROBID.")
    assert first != evidence_id("t2", "q1", "method", "blk-1", "We use GROBID.")
    assert first.startswith("ev-") and len(first) == 13


def test_measurements_read_values_tied_to_their_metric() -> None:
    found = measurements(item("e1", "a", "GROBID reaches an F1 of 0.89 on the CiteSeer set."))
    assert [(m.metric, m.value, m.shown) for m in found] == [("F1", 89.0, "0.89")]
    assert found[0].entities == {"GROBID", "CiteSeer"}
    # A difference is not a value; a year is not a value.
    assert not [
        m
        for m in measurements(item("e2", "a", "The ensemble improves results by 1.1 F1 points."))
        if m.metric == "F1"
    ]
    counted = measurements(item("e3", "a", "S2ORC consists of 81.1M papers from many fields."))
    assert [(m.metric, m.value) for m in counted] == [("number of papers", 81_100_000.0)]


def test_same_metric_on_same_dataset_with_different_numbers_is_a_disagreement() -> None:
    items = [
        item("e1", "smith2020", "GROBID reaches an F1 of 0.89 on the CiteSeer benchmark."),
        item("e2", "jones2022", "On CiteSeer, GROBID reaches an F1 of 0.71 on PubMed-style data."),
        item("e3", "smith2020", "GROBID reaches an F1 of 0.70 on the CiteSeer benchmark."),
        item("e4", "lee2021", "GROBID reaches an F1 of 0.88 on the CiteSeer benchmark."),
    ]
    found = find_disagreements(items, {"smith2020": 2020, "jones2022": 2022, "lee2021": 2021})
    pairs = {(d.evidence, d.values) for d in found if d.kind == "numbers"}
    # Across papers only; 0.89 vs 0.88 is not material; a paper never disagrees with itself.
    assert (("e1", "e2"), ("0.89", "0.71")) in pairs
    assert all({a, b} != {"e1", "e3"} for (a, b), _ in pairs)
    assert all({a, b} != {"e1", "e4"} for (a, b), _ in pairs)
    reasons = {d.evidence: d.reason for d in found}
    assert "PubMed" in reasons[("e1", "e2")]  # the quotes name different data


def test_opposite_claims_about_the_same_effect_are_a_disagreement() -> None:
    assert polarity("Heparin reduced the bleeding rate in trauma patients.") == 1
    assert polarity("Heparin did not reduce the bleeding rate in trauma patients.") == -1
    items = [
        item("e1", "a2019", "Early heparin reduced the bleeding rate in trauma patients."),
        item("e2", "b2021", "Early heparin did not reduce the bleeding rate in trauma patients."),
        item("e3", "c2020", "Compression stockings are cheap and widely available in wards."),
    ]
    found = [d for d in find_disagreements(items, {}) if d.kind == "direction"]
    assert [d.evidence for d in found] == [("e1", "e2")]


def _report(*claims: Claim) -> Report:
    refs = [{"id": "smith2020", "title": "A", "author": [{"family": "Smith"}]}]
    return Report("t", [Section("q1", "Q?", [Paragraph(list(claims))])], refs)


def test_verification_drops_unresolvable_ids_and_unsupported_claims() -> None:
    evidence = [item("ev-0000000001", "smith2020", "GROBID reaches an F1 of 0.89 on CiteSeer.")]
    names = {"smith2020": ["Smith", "2020"]}
    report = _report(
        Claim("GROBID reaches an F1 of 0.89 on CiteSeer.", ["ev-0000000001", "ev-missing000"]),
        Claim("Smith report 0.89 for F1 on CiteSeer.", ["ev-0000000001"]),
        Claim("Smith report 0.95 for F1 on CiteSeer.", ["ev-0000000001"]),  # number not there
        Claim("Transformers dominate every benchmark today.", ["ev-0000000001"]),
        Claim("Nothing cites this.", ["ev-missing000"]),
        Claim("A gap.", [], flag="note"),
    )
    verified = verify_report(report, evidence, names)
    kept = {c.text: c for c in verified.claims()}
    assert kept["GROBID reaches an F1 of 0.89 on CiteSeer."].evidence == ["ev-0000000001"]
    assert kept["Smith report 0.89 for F1 on CiteSeer."].flag == ""
    assert kept["Smith report 0.95 for F1 on CiteSeer."].flag == "unverified"
    assert "Transformers dominate every benchmark today." not in kept
    assert "Nothing cites this." not in kept
    assert "A gap." in kept
    stats = verified.verification
    assert stats["ids_unresolved"] == 2 and stats["removed"] == 2 and stats["marked"] == 1


def test_markdown_citations_carry_evidence_ids_and_sentences_are_counted() -> None:
    evidence = [
        EvidenceItem("ev-00000000aa", "q1", "method", "smith2020", "We use GROBID [1].", "b1", 3),
        EvidenceItem("ev-00000000bb", "q1", "result", "smith2020", "It works well.", "b2", 4),
    ]
    report = _report(
        Claim("We use GROBID [1].", ["ev-00000000aa"]),
        Claim("It works well.", ["ev-00000000bb"]),
        Claim("No disagreement was found.", [], flag="note"),
    )
    report.sections.insert(0, Section("summary", "Executive summary", []))
    markdown = render_markdown(report, evidence, "task-1")
    assert "[@smith2020, p. 3, ev-00000000aa]" in markdown
    assert "We use GROBID \\[1\\]." in markdown  # quote brackets never read as citations
    # The note is labelled and counted apart; the claims are the report's sentences.
    assert "*Coverage note: No disagreement was found.*" in markdown
    counted = count_sentences(report, {e.id for e in evidence})
    assert counted == SentenceCount(2, 2, 1) == body_sentences(markdown)  # Report = rendering
    assert "| coverage notes (uncited, counted apart) | 1 |" in markdown
    assert "| share citing evidence | 100.0% |" in markdown
    # An unlabelled sentence without a citation is still a report sentence, uncited.
    bare = markdown.replace("*Coverage note: No disagreement was found.*", "Gaps remain.")
    assert body_sentences(bare) == SentenceCount(3, 2, 0)


def test_sentence_counts_come_from_the_report_and_agree_with_its_rendering() -> None:
    evidence = [
        EvidenceItem("ev-00000000aa", "q1", "method", "smith2020", "A. B two.", "b1", 3),
        EvidenceItem("ev-00000000bb", "q1", "result", "smith2020", "It works well.", "b2", 4),
    ]
    report = _report(
        Claim("We use GROBID. It parses references.", ["ev-00000000aa"]),  # two sentences
        Claim("It works well on most papers.", ["ev-00000000bb"], flag="unverified"),
        Claim("Nothing resolves this one.", ["ev-0000000zzz"]),  # no known ID: uncited
        Claim("No paper measures speed. None reports memory.", [], flag="note"),
    )
    report.sections.insert(0, Section("summary", "Executive summary", []))
    counted = count_sentences(report, {e.id for e in evidence})
    # The [unverified] mark is not a sentence; an ID outside the evidence cites nothing.
    assert counted == SentenceCount(sentences=4, cited=2, notes=2)
    assert counted.share == 0.5 and counted.share_with_notes == round(2 / 6, 4)
    assert body_sentences(render_markdown(report, evidence, "task-1")) == counted


def test_theme_terms_prefer_noun_phrases_and_skip_verb_forms() -> None:
    quote = "Including biases, we release open training data and largely proposed evaluation code."
    found = theme_terms(quote, topic={"model"})
    assert found["train data"] == "training data"
    assert found[f"{stem('evaluation')} {stem('code')}"] == "evaluation code"
    assert "includ" not in found and "largely" not in found and "propos" not in found
    assert "including biases" not in found.values()
    # the topic's own words are never a theme
    assert "evaluation" not in theme_terms(quote, topic={"evaluation"})


def test_a_paper_naming_one_facet_of_a_larger_topic_once_is_excluded() -> None:
    plan = make_plan("instruction tuning of language models")
    rare = {"instruction": 1.0, "tuning": 1.0}
    weight = lambda term: rare.get(term, 0.5)  # noqa: E731
    on_language_models = Paper(
        "olmo", "Open science releases", "We release open language models and their data.",
        2024, [], "local", "", {}, retrieval=1.0,
    )  # fmt: skip
    screen = screen_paper(on_language_models, plan, weight)
    assert not screen.eligible and "names no other facet" in screen.reason
    on_topic = Paper(
        "flan", "Instruction tuning of language models", "We study instruction tuning.",
        2022, [], "local", "", {}, retrieval=1.0,
    )  # fmt: skip
    assert screen_paper(on_topic, plan, weight).eligible
