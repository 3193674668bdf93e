"""A pure-Python BERT WordPiece tokenizer: the uncased MiniLM vocabulary, no native wheel.

It reproduces what Hugging Face `tokenizers` does for a `BertNormalizer` (clean text,
pad CJK characters, strip accents, lowercase) + `BertPreTokenizer` (split on whitespace
and punctuation) + `WordPiece` model, without special tokens; tests compare the two on
real text. Speed comes from two memo tables: one per character (its normalized and
punctuation-split form) and one per word (its word-piece ids), as papers repeat both.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterable

_ASCII_PUNCTUATION = frozenset(string.punctuation)
_CJK_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B920, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
_MAX_WORD_CACHE = 200_000


def _is_control(ch: str) -> bool:
    return ch not in "\t\n\r" and unicodedata.category(ch).startswith("C")


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in _CJK_RANGES)


def _is_punctuation(ch: str) -> bool:
    return ch in _ASCII_PUNCTUATION or unicodedata.category(ch).startswith("P")


def normalize_char(ch: str) -> str:
    """One character as the BERT normalizer and pre-tokenizer leave it: '' (dropped), ' '
    (a word break), or its accent-stripped lowercase form with punctuation set apart."""
    if ch in ("\x00", "\ufffd") or _is_control(ch):
        return ""
    if ch.isspace():
        return " "
    if _is_cjk(ch):
        return f" {ch} "
    stripped = "".join(
        c for c in unicodedata.normalize("NFD", ch) if unicodedata.category(c) != "Mn"
    )
    return "".join(f" {c} " if _is_punctuation(c) else c for c in stripped.lower())


class _CharTable(dict[int, str]):
    """A `str.translate` table filled on first sight of each character."""

    def __missing__(self, code: int) -> str:
        value = normalize_char(chr(code))
        self[code] = value
        return value


class WordPieceTokenizer:
    """Text -> vocabulary ids, greedy longest-match-first within each word."""

    def __init__(
        self,
        vocab: Iterable[str],
        unk_token: str = "[UNK]",
        special_tokens: Iterable[str] = (),
        prefix: str = "##",
        max_word_chars: int = 100,
    ) -> None:
        self.tokens = list(vocab)
        # (a dict comprehension over enumerate builds the same table 2x slower)
        self.ids = dict(zip(self.tokens, range(len(self.tokens)), strict=True))
        self.unk_id = self.ids[unk_token]
        self.prefix = prefix
        self.max_word_chars = max_word_chars
        self.longest = max(map(len, self.tokens))
        specials = [token for token in special_tokens if token in self.ids]
        # Special tokens are matched in the raw text before normalization, as `tokenizers` does.
        self._special = (
            re.compile("|".join(re.escape(t) for t in sorted(specials, key=len, reverse=True)))
            if specials
            else None
        )
        self._chars = _CharTable()
        self._words: dict[str, tuple[int, ...]] = {}

    def words(self, text: str) -> list[str]:
        """The pre-tokenized words of `text` (normalized, punctuation as its own word)."""
        return text.translate(self._chars).split()

    def word_ids(self, word: str) -> tuple[int, ...]:
        cached = self._words.get(word)
        if cached is not None:
            return cached
        ids = self._word_pieces(word)
        if len(self._words) >= _MAX_WORD_CACHE:
            self._words.clear()
        self._words[word] = ids
        return ids

    def _word_pieces(self, word: str) -> tuple[int, ...]:
        if len(word) > self.max_word_chars:
            return (self.unk_id,)
        pieces: list[int] = []
        start = 0
        while start < len(word):
            end = min(len(word), start + self.longest)
            while end > start:
                piece = word[start:end] if start == 0 else self.prefix + word[start:end]
                found = self.ids.get(piece)
                if found is not None:
                    pieces.append(found)
                    break
                end -= 1
            else:
                return (self.unk_id,)  # one unmatched piece makes the whole word unknown
            start = end
        return tuple(pieces)

    def encode(self, text: str) -> list[int]:
        """The ids of `text`, without special tokens ([CLS], [SEP]) around it."""
        if self._special is None:
            return self._encode_plain(text)
        ids: list[int] = []
        position = 0
        for match in self._special.finditer(text):
            ids.extend(self._encode_plain(text[position : match.start()]))
            ids.append(self.ids[match.group()])
            position = match.end()
        ids.extend(self._encode_plain(text[position:]))
        return ids

    def _encode_plain(self, text: str) -> list[int]:
        ids: list[int] = []
        for word in self.words(text):
            ids.extend(self.word_ids(word))
        return ids
