"""Embedding backends. The default is all-MiniLM-L6-v2 shipped inside a PyPI wheel."""

from citewise.embed.base import Embedder, load_default_embedder

__all__ = ["Embedder", "load_default_embedder"]
