"""The default embedding model: static token vectors shipped inside the package.

all-MiniLM-L6-v2 distilled with model2vec (one vector per vocabulary token, PCA to 256
dimensions, SIF weighting) and stored as int8 in `embed/model/` by
`scripts/distill_static_model.py`; see the README there for provenance and licence.
Encoding a text is WordPiece tokenization (pure Python), a table lookup and a sum, so the
default install needs numpy only: no PyTorch, no download, no first-run distillation, and
~10,000 blocks/s on two cores instead of ~50 with the transformer.
"""

from __future__ import annotations

import json
from itertools import chain
from pathlib import Path

import numpy as np

from citewise.embed.tokenizer import WordPieceTokenizer

# The name stored beside every vector; change it whenever the model files change, so
# libraries re-embed instead of mixing vectors from two different models.
# (v1 was the float16 model2vec folder distilled on first use.)
STATIC_MODEL = "all-MiniLM-L6-v2-static256-int8-v2"
MODEL_DIR = Path(__file__).resolve().parent / "model"
_BATCH = 256  # texts per gather: bounds the token-vector matrix to tens of MB


class StaticEmbedder:
    """Token lookup + mean, L2-normalized float32 (int8 codes times their row's scale, the
    rows a batch uses dequantized as it is encoded)."""

    def __init__(self, model_dir: Path = MODEL_DIR, name: str = STATIC_MODEL) -> None:
        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        # memory-mapped: a question reads the rows of its few tokens, not all 7.5 MB
        codes = np.load(model_dir / "embeddings.npy", mmap_mode="r", allow_pickle=False)
        scales = np.load(model_dir / "scales.npy", allow_pickle=False)
        tokens = (model_dir / "vocab.txt").read_text(encoding="utf-8").split("\n")[:-1]
        if not len(tokens) == len(codes) == len(scales):
            raise ValueError(f"{model_dir}: {len(tokens)} tokens, {len(codes)} vectors")
        self._codes, self._scales = codes, scales
        self.tokenizer = WordPieceTokenizer(
            tokens,
            unk_token=config["unk_token"],
            special_tokens=config["special_tokens"],
            prefix=config["continuing_subword_prefix"],
            max_word_chars=config["max_input_chars_per_word"],
        )
        self._max_chars = int(config["max_chars"])
        self._max_tokens = int(config["max_tokens"])
        self.name = name
        self.dimensions = int(codes.shape[1])
        self.chunk = 2048  # blocks per ingest write: encoding is cheap, transactions are not

    def token_ids(self, text: str) -> list[int]:
        """The vocabulary ids averaged for `text`: its first tokens, unknown words left out."""
        ids = self.tokenizer.encode(text[: self._max_chars])[: self._max_tokens]
        unk = self.tokenizer.unk_id
        return [i for i in ids if i != unk]

    def encode(self, texts: list[str], batch_size: int = _BATCH) -> np.ndarray:
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        step = max(1, min(batch_size, _BATCH))
        for start in range(0, len(texts), step):
            ids = [self.token_ids(text) for text in texts[start : start + step]]
            lengths = np.fromiter((len(i) for i in ids), dtype=np.int64, count=len(ids))
            if not lengths.any():
                continue
            flat = np.fromiter(chain.from_iterable(ids), dtype=np.int64, count=int(lengths.sum()))
            offsets = np.concatenate(([0], np.cumsum(lengths)[:-1]))
            filled = np.flatnonzero(lengths)
            vectors = self._codes[flat].astype(np.float32) * self._scales[flat, None]
            sums = np.add.reduceat(vectors, offsets[filled], axis=0)
            out[start + filled] = sums  # the direction of the mean; its length is normalized away
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        normalized: np.ndarray = out / np.maximum(norms, 1e-12)
        return normalized


def load_static_embedder() -> StaticEmbedder:
    """The shipped model (reads ~8 MB; callers keep it warm per process)."""
    return StaticEmbedder()
