"""Glyphs the PDF gives no Unicode for, named from the embedded font.

TeX's math extension fonts (cmex10 and kin) carry big sums, roots and delimiter pieces
without a ToUnicode map, so PyMuPDF reads them as U+FFFD. An embedded Type 1 font still
names every glyph ("summationdisplay", "parenleftbigg", "radicalBig"): its CharStrings,
behind the eexec encryption, list the glyphs in the order FreeType numbers them. The
text trace gives each unreadable character's glyph number, so its name, and so what it
stands for, can be recovered.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import pymupdf

UNREADABLE = "\ufffd"
# Glyph name stems of TeX's extension fonts -> the symbol (a delimiter piece that adds
# nothing maps to ""): opening delimiters read at the top piece, closing at the bottom.
STEMS = [
    ("summation", "∑"), ("product", "∏"), ("coproduct", "∐"), ("contintegral", "∮"),
    ("integral", "∫"), ("union", "⋃"), ("intersection", "⋂"), ("radical", "√"),
    ("circleplus", "⨁"), ("circlemultiply", "⨂"), ("circledot", "⨀"),
    ("angleleft", "⟨"), ("angleright", "⟩"), ("floorleft", "⌊"), ("floorright", "⌋"),
    ("ceilingleft", "⌈"), ("ceilingright", "⌉"), ("slash", "/"), ("backslash", "\\"),
    ("tildewide", "~"), ("hatwide", "^"),
]  # fmt: skip
PIECES = {"tp": 0, "bt": 1, "ex": 2, "mid": 2}
DELIMITERS = {
    "parenleft": ("(", True), "parenright": (")", False), "bracketleft": ("[", True),
    "bracketright": ("]", False), "braceleft": ("{", True), "braceright": ("}", False),
}  # fmt: skip


def symbol_for(name: str) -> str | None:
    """What a glyph name stands for ("" for a piece that adds nothing), None if unknown."""
    for stem, (char, opening) in DELIMITERS.items():
        if name.startswith(stem):
            piece = name[len(stem) :]
            if piece in PIECES:  # a piece of a tall delimiter
                keep = PIECES[piece] == (0 if opening else 1)
                return char if keep else ""
            return char  # big, Big, bigg, Bigg
    if name in ("vextendsingle", "vextenddouble") or name.startswith(
        ("radicalvertex", "radicalbt", "radicaltp")
    ):
        return ""
    for stem, char in STEMS:
        if name.startswith(stem):
            return char
    return None  # a glyph that is not a big operator or delimiter: stays unreadable


EEXEC_KEY, EEXEC_A, EEXEC_B = 55665, 52845, 22719  # Type 1 eexec: key' = (c + key)*A + B
_A_INVERSE = pow(EEXEC_A, -1, 1 << 16)  # A is odd: invertible modulo 2^16
_CHUNK = 1 << 16  # bytes decrypted at once (numpy temporaries stay a few MB)


def _decrypt(data: bytes, key: int = EEXEC_KEY) -> bytes:
    """Type 1 eexec decryption, the 4 lead bytes dropped. The key after byte i depends on
    the cipher bytes only: key_i = A^i (key_0 + sum_{j<i} A^-(j+1) b_j) mod 2^16 with
    b_j = A c_j + B, so every key comes from a cumulative product and sum (numpy: ~40x the
    byte-at-a-time loop; 2^16 divides the 2^64 the unsigned arrays wrap at)."""
    import numpy as np

    out: list[bytes] = []
    for at in range(0, len(data), _CHUNK):
        c = np.frombuffer(data, dtype=np.uint8, count=min(_CHUNK, len(data) - at), offset=at)
        c = c.astype(np.uint64)
        n = len(c)
        powers = np.cumprod(np.full(n, EEXEC_A, dtype=np.uint64)) & 0xFFFF  # A^1 .. A^n
        inverses = np.cumprod(np.full(n, _A_INVERSE, dtype=np.uint64)) & 0xFFFF
        sums = np.cumsum(((EEXEC_A * c + EEXEC_B) & 0xFFFF) * inverses & 0xFFFF)  # S_1 .. S_n
        keys = np.empty(n, dtype=np.uint64)
        keys[0] = key
        keys[1:] = (powers[:-1] * ((key + sums[:-1]) & 0xFFFF)) & 0xFFFF
        out.append((c ^ (keys >> 8)).astype(np.uint8).tobytes())
        key = int((powers[-1] * ((key + int(sums[-1])) & 0xFFFF)) & 0xFFFF)
    return b"".join(out)[4:]


def type1_glyph_names(program: bytes) -> list[str]:
    """Glyph names of a Type 1 font program in FreeType's glyph order (.notdef first)."""
    at = program.find(b"eexec")
    if at < 0:
        return []
    body = program[at + 5 :].lstrip(b"\r\n\t ")
    if re.fullmatch(rb"[0-9A-Fa-f\s]{8,}", body[:64]):  # hex form (PFA)
        body = bytes.fromhex(re.sub(rb"[^0-9A-Fa-f]", b"", body.split(b"0000000000")[0]).decode())
    plain = _decrypt(body)
    start = plain.find(b"/CharStrings")
    if start < 0:
        return []
    names: list[str] = []
    entry = re.compile(rb"/([^\s/\[\]{}()<>]+)\s+(\d+)\s+(?:RD|-\|)\s")
    pos = start + len(b"/CharStrings")
    while True:
        match = entry.search(plain, pos)
        if match is None:
            break
        names.append(match.group(1).decode("latin-1"))
        pos = match.end() + int(match.group(2))
    if ".notdef" in names and names[0] != ".notdef":
        first = names.index(".notdef")
        names[0], names[first] = names[first], names[0]
    return names


MAX_PROGRAM = 2_000_000  # bytes of one embedded font program worth decrypting


def _font_names(
    doc: pymupdf.Document, xref: int, cache: dict[int, tuple[str, ...]]
) -> tuple[str, ...]:
    if xref not in cache:
        try:
            _, _, kind, program = doc.extract_font(xref)
        except (RuntimeError, ValueError):
            kind, program = "", b""
        usable = kind == "Type1" and 0 < len(program) <= MAX_PROGRAM
        cache[xref] = tuple(type1_glyph_names(program)) if usable else ()
    return cache[xref]


@functools.lru_cache(maxsize=256)
def _names_symbols(names: tuple[str, ...]) -> bool:
    """Whether any of a font's glyph names stands for a symbol `symbol_for` knows."""
    return any(symbol_for(name) is not None for name in names)


def name_unreadable(
    page: pymupdf.Page, raw: dict[str, Any], cache: dict[int, tuple[str, ...]] | None = None
) -> int:
    """Replace U+FFFD characters of `raw` (the page's get_text('dict')) by the symbol
    their glyph names say, where the font is an embedded Type 1 font; the count replaced.
    `cache` keeps each font's glyph names for the rest of the document."""
    spans = [s for b in raw.get("blocks", []) for ln in b.get("lines", []) for s in ln["spans"]]
    unreadable_in = {str(s["font"]).split("+")[-1] for s in spans if UNREADABLE in s["text"]}
    if not unreadable_in:
        return 0
    cache = {} if cache is None else cache
    try:
        fonts = page.get_fonts()
    except (RuntimeError, ValueError):
        return 0
    xrefs = {
        basefont.split("+")[-1]: xref for xref, _, kind, basefont, *_ in fonts if kind == "Type1"
    }
    # a character is named from its own font: unless one of the fonts holding unreadable
    # characters names a symbol, the text trace (a whole page run, costly) cannot help
    if not any(
        _names_symbols(_font_names(page.parent, xrefs[name], cache))
        for name in unreadable_in
        if xrefs.get(name)
    ):
        return 0
    try:
        trace = page.get_texttrace()
    except (RuntimeError, ValueError):
        return 0
    readings: dict[tuple[float, float], list[str | None]] = {}
    for span in trace:
        chars = span.get("chars", ())
        unreadable = [c for c in chars if c[0] == 0xFFFD]
        if not unreadable:
            continue
        xref = xrefs.get(str(span.get("font", "")).split("+")[-1])
        names = _font_names(page.parent, xref, cache) if xref else ()
        found = [symbol_for(names[c[1]]) if 0 <= c[1] < len(names) else None for c in unreadable]
        origin = chars[0][2]  # where the span starts, as get_text reports it
        readings[(round(origin[0], 1), round(origin[1], 1))] = found
    return _apply(raw, readings)


def _apply(raw: dict[str, Any], readings: dict[tuple[float, float], list[str | None]]) -> int:
    replaced = 0
    for block in raw.get("blocks", []):
        for line in block.get("lines", []):
            for span in line["spans"]:
                if UNREADABLE not in span["text"]:
                    continue
                origin = span.get("origin", (0.0, 0.0))
                found = readings.get((round(origin[0], 1), round(origin[1], 1)))
                if found is None:
                    continue
                out = []
                symbols = iter(found)
                for char in span["text"]:
                    symbol = next(symbols, None) if char == UNREADABLE else char
                    out.append(char if symbol is None else symbol)
                    replaced += char == UNREADABLE and symbol is not None
                span["text"] = "".join(out)
    return replaced
