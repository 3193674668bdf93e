"""Software of another work is not the paper's own (tenth session, setup12): a program named in
a sentence whose subject is a cited work, or as the system compared with."""

from __future__ import annotations

from citewise.agent.comparison.extraction import Unit
from citewise.agent.comparison.settings.setup_software import software_findings


def names(text: str) -> list[str]:
    unit = Unit(text, "b-1", 4, "5 Experiments", "paragraph", 1)
    return [f.value for f in software_findings([unit], set())]


def test_a_program_a_cited_work_used_is_not_the_papers_own() -> None:
    assert names("For example, BIBREF7 compare four classifiers implemented in scikit-learn.") == []
    assert names("Smith et al. BIBREF2 trained their tagger using NLTK.") == []


def test_the_same_program_in_the_papers_own_sentence_is_read() -> None:
    assert names("We compare four classifiers implemented in scikit-learn.") == ["scikit-learn"]


def test_a_program_named_as_the_baseline_beaten_is_not_used() -> None:
    assert names("Our tagger outperforms the NLTK baseline BIBREF4 using fewer features.") == []


def test_a_program_named_as_an_example_of_a_kind_is_not_used() -> None:
    assert names("We tag the posts using NLTK.") == ["NLTK"]
    assert "NLTK" not in names("We tag the posts using HeronTag, which extends tools such as NLTK.")
    assert names("Many tools (e.g., NLTK BIBREF1, spaCy BIBREF2) are used by practitioners.") == []


def test_tokenizers_crawlers_and_metric_scorers_of_the_list_are_read_where_used() -> None:
    assert names("BLEU is computed on detokenized output using SacreBLEU BIBREF9.") == ["SacreBLEU"]
    assert names("The reviews were collected using Scrapy from two forums.") == ["Scrapy"]
    assert names("We segment the Chinese posts using jieba before training.") == ["jieba"]


def test_a_versioned_name_the_paper_uses_as_data_is_no_software() -> None:
    from citewise.agent.comparison.extraction import Finding, Unit
    from citewise.agent.comparison.settings.matrix_settings import settings_findings

    data = "For reading comprehension datasets we use (1) HeronQA v1.1 BIBREF2 and (2) CraneQA."
    again = "To score HeronQA v1.1, we used the official script."
    tool = "We parse the PDFs of the corpus using Heronflow v2.3 on one machine."
    units = [Unit(t, f"b-{n}", 3, "5 Experiments", "paragraph", n)
             for n, t in enumerate((data, again, tool), 1)]  # fmt: skip
    names = ("HeronQA v1.1", "HeronQA v1.1", "Heronflow v2.3")
    found = [Finding("software", v, u.text, 3, u.block_id, u.section, 1.5)
             for u, v in zip(units, names, strict=True)]  # fmt: skip
    values = [f.value for f in settings_findings("software", units, "", set(), found)]
    assert values == ["Heronflow v2.3"]


def test_another_systems_tool_in_the_related_work_is_not_the_papers_own() -> None:
    text = "The heron system parses each query and uses the NLTK toolkit to tag it."
    related = Unit(text, "b-1", 2, "2 Related Work", "paragraph", 1)
    own = Unit(text.replace("The heron system", "Our system"), "b-2", 2, "2 Related Work",
               "paragraph", 2)  # fmt: skip
    assert [f.value for f in software_findings([related], set())] == []
    assert [f.value for f in software_findings([own], set())] == ["NLTK"]
    methods = Unit(text, "b-3", 4, "3 Neural Abstractive Methods", "paragraph", 3)
    assert [f.value for f in software_findings([methods], set())] == ["NLTK"]


def test_a_model_loaded_in_a_section_on_abstractive_methods_is_read() -> None:
    from citewise.agent.comparison.settings.setup_loaded import loaded_models

    text = "We initialise the heron encoder with 300-dimensional GloVe vectors."
    assert loaded_models(Unit(text, "b-1", 4, "3 Abstractive Methods", "paragraph", 1)) == ["GloVe"]
    assert loaded_models(Unit(text, "b-2", 9, "Figure and table captions", "paragraph", 2)) == []
