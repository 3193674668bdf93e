"""A claim's verb that the paper writes only by a synonym (agent/yesno/synonyms.py, built
from WordNet's verb synsets by scripts/build_yes_no_synonyms.py) still counts as covered."""

from __future__ import annotations

import importlib.util
from importlib import resources
from pathlib import Path

import pytest

from citewise.agent.sourced_lists import read_lists
from citewise.agent.yesno.claim import claim_of
from citewise.agent.yesno.features import features
from citewise.agent.yesno.paper import sentence
from citewise.agent.yesno.synonyms import SYNONYMS_FILE, parse_synonyms, synonyms
from citewise.errors import CitewiseError
from citewise.retrieval.terms import stem


def _even(_: str) -> float:
    return 1.0


def test_a_verb_written_only_by_its_synonym_counts_as_covered() -> None:
    claim = claim_of("Do the judges appraise the ferry timetables?")
    said = [sentence("The judges evaluate every ferry timetable by hand.")]
    reading = features(claim, said, _even)
    assert stem("appraise") not in reading.unwritten
    assert reading.features.body_cover == 1.0
    # a verb of another sense stays unwritten, and the claim only partly covered
    other = features(claim, [sentence("The judges print every ferry timetable.")], _even)
    assert stem("appraise") in other.unwritten and other.features.body_cover < 1.0


def test_a_word_the_paper_writes_itself_is_not_widened_by_synonyms() -> None:
    claim = claim_of("Do they evaluate the parser?")
    reading = features(
        claim, [sentence("We evaluate the parser."), sentence("We judge it.")], _even
    )
    assert reading.best[0].text == "We evaluate the parser."


def test_the_synonym_list_is_sourced_and_read_both_ways() -> None:
    text = resources.files("citewise.agent").joinpath("data", SYNONYMS_FILE).read_text("utf-8")
    lists, sourced = read_lists(text)
    assert set(lists) == sourced == {"verb_synsets"} and "WordNet" in text
    shipped = synonyms()
    assert stem("evaluate") in shipped[stem("appraise")]
    assert stem("appraise") in shipped[stem("evaluate")]
    with pytest.raises(CitewiseError) as raised:
        parse_synonyms("[verb_synsets]\nassess evaluate\n")
    assert raised.value.code == "CUES_INVALID"


def test_the_build_script_keeps_one_word_members_of_small_synsets(tmp_path: Path) -> None:
    path = Path(__file__).parents[3] / "scripts" / "build_yes_no_synonyms.py"
    spec = importlib.util.spec_from_file_location("build_yes_no_synonyms", path)
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    # WordNet's data-file layout: offset, lexicographer file, type, word count (hex), words
    data = (
        "  1 a licence line\n"
        "00000001 29 v 03 Sift 0 screen 0 sort_out 0 000 | examine closely\n"
        "00000002 29 v 01 ponder 0 000 | think about\n"
        "00000003 29 v 07 a 0 b 0 c 0 d 0 e 0 f 0 g 0 000 | too many senses\n"
    )
    assert build.synsets(data) == ["screen sift"]
    out = tmp_path / "synonyms.txt"
    out.write_text(build.HEADER + "screen sift\n", encoding="utf-8")
    assert stem("sift") in parse_synonyms(out.read_text("utf-8"))[stem("screen")]
