"""Text from files and web sources made safe for a terminal: control characters stripped
(`plain`), Rich markup escaped too (`safe`). Every terminal view imports these from here."""

from __future__ import annotations

import re

from rich.markup import escape

# C0 controls but tab and newline, DEL, C1 controls (U+009B is a one-byte CSI), and the
# bidi embeddings, overrides and isolates that reorder what the terminal shows.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def plain(text: object) -> str:
    """`text` without characters that could drive the terminal."""
    return _CONTROL.sub("", str(text))


def safe(text: object) -> str:
    """`text` ready for a Rich markup string: no control characters, markup escaped."""
    return escape(plain(text))
