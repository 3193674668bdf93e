"""Names that are not the paper's method (tenth session; method_name.py): a naming verb written
with a capital inside a long form ("Short-Term Memory (LSTM)", "Spoken Term Detection (STD)") gives
no name, and an abbreviation the paper writes as a kind of thing ("a personalized FSA that ...")
is a common noun, not what the paper proposes."""

from __future__ import annotations

from citewise.agent.comparison.aspect_readers.method_name import method_name
from citewise.agent.comparison.extraction import Unit


def _units(*sentences: str, section: str = "Introduction") -> list[Unit]:
    return [Unit(s, f"b{n}", 1, section, "paragraph", n) for n, s in enumerate(sentences)]


def test_a_capitalised_term_inside_a_long_form_names_nothing() -> None:
    units = _units(
        "Farm ledgers from the nineteenth century are hand-written.",
        "Grid Recurrent Long Term Memory Networks (GRLTMs) were tried on the ledgers.",
        "GRLTMs read each ledger line by line.",
        "The GRLTMs make many errors on faded ink.",
    )
    assert method_name(units, "Reading Old Farm Ledgers") is None


def test_a_name_given_with_the_verb_term_is_still_read() -> None:
    units = _units(
        "Farm ledgers from the nineteenth century are hand-written.",
        "We term our reader LedgerNet, a network that reads faded ink.",
        "LedgerNet reads each ledger line by line.",
        "LedgerNet makes few errors on faded ink.",
    )
    found = method_name(units, "Reading Old Farm Ledgers")
    assert found is not None and found.name == "LedgerNet"


def test_an_abbreviation_written_as_a_kind_of_thing_is_no_name() -> None:
    units = _units(
        "Voice assistants must load each user's contact list quickly.",
        "We build a personalized FSA that holds the contacts of each user.",
        "Our two-layer FSA is shown in the figure.",
        "Each user has a contact FSA with 300 entries on average.",
        "We use an empty FSA in the warm-up stage.",
        "Replacing a placeholder FSA takes 4 ms.",
    )
    assert method_name(units, "Fast Decoding With Contact Lists") is None


def test_a_proper_name_used_twice_with_an_article_stays_a_name() -> None:
    units = _units(
        "Voice assistants must load each user's contact list quickly.",
        "We propose CacheDec, a decoder that caches each user's contacts.",
        "CacheDec keeps a public cache and a private one.",
        "We train a larger CacheDec with 500 contacts.",
        "A CacheDec of this size loads in 4 ms.",
    )
    found = method_name(units, "Fast Decoding With Contact Lists")
    assert found is not None and found.name == "CacheDec"
