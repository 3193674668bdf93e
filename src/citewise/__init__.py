"""citewise: ask your PDF library questions, get verifiable page-level citations."""

__version__ = "0.1.0"
