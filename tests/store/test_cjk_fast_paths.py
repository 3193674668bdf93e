"""The CJK character classes are compiled only for a text that holds a character from
U+3040 on (each costs ~7 ms to compile); the fast paths find what the full patterns find."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from citewise.agent.sentences.extractive import is_running_head
from citewise.lang.script import is_chinese
from citewise.retrieval.terms import tokens, word_count
from citewise.store.fts import query_tokens

ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
FULL_TOKEN = re.compile(rf"[{CJK}]+|[^\W_]+")
FULL_HEAD = re.compile(r"[^a-z\u3400-\u9fff]*[A-Z]{2}[^a-z\u3400-\u9fff]*")
TEXTS = [
    "",
    "BM25 over the quarry logbooks, 42% recall_at_10",
    "Résumé of the naïve model – Ångström’s “units” (Ωmega) and ß",
    "BERT模型的准确率是多少？",
    "准确率BERT 91.2%",
    "한국어 text ひらがな カタカナ",
    "PROCEEDINGS OF NAACL-HLT 2018",
    "PROCEEDINGS 准确 OF NAACL",
    "Two CAPITALS but lower case",
    "É 12",
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_fast_paths_find_what_the_full_patterns_find(text: str) -> None:
    assert query_tokens(text) == FULL_TOKEN.findall(text)
    assert is_running_head(text, 3) == bool(FULL_HEAD.fullmatch(text))
    words = len(text.split())
    han = len(re.findall(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]", text))
    assert word_count(text) == (words if not han else word_count(text))
    assert all(t == t.lower() or not t.isascii() for t in tokens(text))


def test_english_text_compiles_no_cjk_class() -> None:
    probe = (
        "from citewise.lang import script\n"
        "from citewise.retrieval import terms\n"
        "from citewise.store import fts\n"
        f"for text in {TEXTS[:3]!r}:\n"
        "    fts.query_tokens(text), terms.word_count(text), terms.tokens(text)\n"
        "    script.is_chinese(text)\n"
        "lazy = (fts._TOKEN, terms._CJK_CHAR, terms._CJK_RUN, script.HAN_CHAR)\n"
        "print(sum(vars(p).get('_compiled') is not None for p in lazy))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=ENV
    )
    assert done.stdout.strip() == "0"
    assert is_chinese("BERT模型的准确率是多少？") and word_count("准确率BERT") == 3
