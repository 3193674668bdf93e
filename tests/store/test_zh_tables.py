"""The Chinese dictionary and jieba's taught frequencies, built once into the user's cache
(store/zh_tables.py) and read a word at a time: the same words and cuts as tables in memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.lang import zh
from citewise.store import zh_tables

jieba = pytest.importorskip("jieba")

GLOSSES = {"标注者": ("annotator",), "数据集": ("data set", "dataset"), "训练": ("train",)}
VERBS = {"训练"}
SENTENCES = ["标注者在数据集上训练模型", "我们的数据集有多少标注者", "训练数据集"]


def _taught() -> object:
    tokenizer = jieba.Tokenizer()
    for word in GLOSSES:
        tokenizer.add_word(word)
    return tokenizer


def test_a_built_file_cuts_and_glosses_as_the_tables_in_memory(tmp_path: Path) -> None:
    taught = _taught()
    path = tmp_path / "zh" / "tables.sqlite"
    zh_tables.write(path, GLOSSES, VERBS, taught.FREQ, taught.total)

    tables = zh_tables.ZhTables(path)
    reader = jieba.Tokenizer()
    reader.FREQ, reader.total, reader.initialized = tables.frequencies, tables.total, True
    for sentence in SENTENCES:
        assert reader.lcut(sentence) == taught.lcut(sentence)
    assert "标注者" in reader.lcut(SENTENCES[0])
    assert tables.glosses["数据集"] == ("data set", "dataset")
    assert "模型" not in tables.glosses and tables.glosses.get("模型") is None
    assert tables.is_verb("训练") and not tables.is_verb("数据集")
    assert sorted(tables.glosses) == sorted(GLOSSES) and len(tables.glosses) == 3


def test_the_file_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    with pytest.raises(zh_tables.TablesUnreadable):  # a frequency that is no number fails the write
        zh_tables.write(path, GLOSSES, VERBS, {"标注者": object()}, 1)
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_the_key_changes_with_what_the_file_depends_on(tmp_path: Path) -> None:
    source = tmp_path / "dict.txt.gz"
    source.write_bytes(b"x" * 10)
    one = zh_tables.cache_key(source, "0.42.1", ["glossary A"])
    assert one == zh_tables.cache_key(source, "0.42.1", ["glossary A"])
    assert one != zh_tables.cache_key(source, "0.42.2", ["glossary A"])
    assert one != zh_tables.cache_key(source, "0.42.1", ["glossary B"])
    source.write_bytes(b"x" * 11)
    assert one != zh_tables.cache_key(source, "0.42.1", ["glossary A"])


def test_an_unwritable_cache_leaves_the_tables_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.setattr(zh, "_cedict", lambda: (dict(GLOSSES), frozenset(VERBS)))
    zh._tables.cache_clear()
    try:
        assert zh._tables() is None
        assert zh.dictionary()["标注者"] == ("annotator",)
    finally:
        zh._tables.cache_clear()
