"""The `languages` column reads the paper's own list of its languages
(agent/comparison/aspect_readers/data_facts.py); sentences the tests write."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.data_facts import LANGUAGES, data_fact_findings
from citewise.agent.comparison.extraction import Unit


def languages(*texts: str) -> list[str]:
    units = [Unit(t, f"b-{i}", 2, "3 Data", "paragraph", i) for i, t in enumerate(texts)]
    return [f.value for f in data_fact_findings(LANGUAGES, units)]


def test_the_paper_s_list_of_languages_outranks_one_named_often_in_passing() -> None:
    found = languages(
        "Most reef dialogue corpora are in English.",
        "English speakers wrote the English reef guides.",
        "English is the usual language of dive logs.",
        "We extend reef corpus BIBREF1 to four languages: Greek, Turkish, Italian, and Maltese.",
    )
    assert found == ["Greek, Turkish, Italian, and Maltese"]


def test_a_list_in_another_work_s_sentence_is_not_the_paper_s() -> None:
    found = languages(
        "Our reef corpus is in English and Greek; the English part is larger.",
        "BIBREF3 covered three languages: Greek, Turkish, and Maltese.",
    )
    assert "Greek, Turkish, and Maltese" not in found
    assert "English" in found


def test_a_shorter_list_does_not_replace_the_languages_the_paper_names_most() -> None:
    found = languages(
        "We train on Greek, Turkish, Maltese, Italian and Spanish reef logs.",
        "Greek, Turkish, Maltese, Italian and Spanish logs are balanced.",
        "We add layers for two languages (Greek, Turkish) only.",
    )
    assert len(found) > 1 and "Greek, Turkish" not in found
