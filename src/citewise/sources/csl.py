"""Small pieces every parser uses to build valid CSL-JSON: plain text from markup, folded
text for comparisons, CSL names and date parts."""

from __future__ import annotations

import html
import re
import unicodedata

# ---------------------------------------------------------------- text

_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")


def clean_text(value: object) -> str:
    """Plain text: HTML/JATS/MathML tags removed, entities decoded, whitespace collapsed."""
    if value is None:
        return ""
    text = html.unescape(_TAG.sub(" ", str(value)))
    return _SPACE.sub(" ", text).strip()


def fold(text: str) -> str:
    """Lower-case letters and digits without accents, in any script, for comparing titles
    and names ("Wübben" and "Wubben" fold alike; Thai or CJK titles keep their letters)."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if unicodedata.category(c) != "Mn").lower()
    return " ".join(re.sub(r"[\W_]+", " ", bare).split())


# ---------------------------------------------------------------- names

_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le", "dos"}


def csl_name(family: str | None = None, given: str | None = None) -> dict[str, str]:
    """A CSL name from family and given parts (empty parts left out)."""
    name: dict[str, str] = {}
    family = clean_text(family)
    given = clean_text(given)
    if family:
        name["family"] = family
    if given:
        name["given"] = given
    return name


def parse_name(text: str) -> dict[str, str]:
    """A CSL name from free text: "Given Family", "Family, Given", "Family GI" (initials),
    "van der Berg" particles; anything odd (a consortium) becomes a literal."""
    text = clean_text(text).strip(" ,;.") if text else ""
    if not text:
        return {}
    if "," in text:
        family, _, given = text.partition(",")
        return csl_name(family, given)
    parts = text.split(" ")
    if len(parts) == 1:
        return {"literal": text}
    # "Schoenfeld JD": PubMed-style family name followed by initials.
    if re.fullmatch(r"[A-Z]{1,3}", parts[-1]) and len(parts) >= 2:
        return csl_name(" ".join(parts[:-1]), parts[-1])
    cut = len(parts) - 1
    while cut > 1 and parts[cut - 1].lower() in _PARTICLES:
        cut -= 1
    family = " ".join(parts[cut:])
    given = " ".join(parts[:cut])
    return csl_name(family, given)


def display_name(name: dict[str, str]) -> str:
    if "literal" in name:
        return name["literal"]
    return " ".join(p for p in (name.get("given"), name.get("family")) if p)


# ---------------------------------------------------------------- dates

_SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
_MONTHS = {
    m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)
}


def month_number(value: object) -> int | None:
    if value is None:
        return None
    text = str(value).strip().lower()
    if text.isdigit():
        number = int(text)
        return number if 1 <= number <= 12 else None
    return _MONTHS.get(text[:3])


def season_month(season: str | None) -> int | None:
    """The first month of a season ("Spring" -> 3), for dates that give only a season."""
    return _SEASONS.get((season or "").strip().lower())


def date_parts(year: object, month: object = None, day: object = None) -> list[int] | None:
    """[Y], [Y, M] or [Y, M, D] from loose values; None without a plausible year."""
    try:
        y = int(str(year).strip()[:4])
    except (TypeError, ValueError):
        return None
    if not 1000 <= y <= 2999:
        return None
    parts = [y]
    m = month_number(month)
    if m:
        parts.append(m)
        try:
            d = int(str(day).strip()) if day is not None else 0
        except ValueError:
            d = 0
        if 1 <= d <= 31:
            parts.append(d)
    return parts


def parts_from_iso(text: str | None) -> list[int] | None:
    """[Y, M, D] from "2021-04-20T16:07:14Z", "2021-04", "2021"."""
    if not text:
        return None
    match = re.match(r"(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?", text.strip())
    if not match:
        return None
    return date_parts(*match.groups())


def iso_from_parts(parts: list[int] | None) -> str | None:
    if not parts:
        return None
    return "-".join(f"{p:02d}" if i else str(p) for i, p in enumerate(parts))
