"""What an ingest batch is made of: files and folders (searched recursively for readable
suffixes), and the files a manifest or a Zotero library names, with their metadata. A path
or entry that cannot be used is an IngestFailure for the report, never an exception."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

from citewise.documents import SUFFIXES as READABLE
from citewise.documents.manifests.manifest import PaperMetadata, read_manifest
from citewise.errors import CitewiseError

SUFFIXES = READABLE


@dataclass
class IngestFailure:
    path: str
    code: str
    reason: str


@dataclass
class Sources:
    """Files named by a manifest or a Zotero library, with their metadata, and the
    entries that could not be used (each one a failure in the report)."""

    metadata: dict[Path, PaperMetadata] = field(default_factory=dict)
    failures: list[IngestFailure] = field(default_factory=list)

    @classmethod
    def from_manifest(cls, path: Path) -> Sources:
        out = cls()
        try:
            entries = read_manifest(path)
        except CitewiseError as exc:
            return cls(failures=[IngestFailure(str(path), exc.code, str(exc).split(": ", 1)[1])])
        for entry in entries:
            if entry.problem or entry.path is None:
                out.failures.append(
                    IngestFailure(
                        str(entry.path or path), "BAD_MANIFEST_ENTRY", entry.problem or ""
                    )
                )
            else:
                out.metadata[entry.path] = entry.metadata
        return out

    @classmethod
    def from_zotero(cls, directory: Path) -> Sources:
        from citewise.documents.manifests.zotero import read_zotero  # only for a Zotero library

        out = cls()
        try:
            items = read_zotero(directory)
        except CitewiseError as exc:  # locked, unknown schema: the rest of the batch goes on
            reason = str(exc).split(": ", 1)[1]
            return cls(failures=[IngestFailure(str(directory), exc.code, reason)])
        for item in items:
            if item.problem:
                out.failures.append(
                    IngestFailure(str(item.path), "ZOTERO_ATTACHMENT", item.problem)
                )
            else:
                out.metadata[item.path] = item.metadata
        return out

    def merge(self, other: Sources) -> Sources:
        return Sources({**self.metadata, **other.metadata}, self.failures + other.failures)


@dataclass(frozen=True)
class FileFilter:
    """Which files found in a folder go in (`ingest --include/--exclude`): glob patterns,
    matched without regard to case against the file's name, or against its path below the
    folder when the pattern holds a "/" ("drafts/*"). With includes, a file must match one;
    a file matching an exclude never goes in. A file named on its own always goes in: the
    patterns sort what a folder holds."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def wants(self, path: Path, folder: Path) -> bool:
        below = PurePosixPath(path.relative_to(folder).as_posix())
        if self.include and not any(_matches(below, p) for p in self.include):
            return False
        return not any(_matches(below, p) for p in self.exclude)


def _matches(below: PurePosixPath, pattern: str) -> bool:
    pattern = pattern.strip().lower()
    if "/" in pattern:
        # a folder pattern matches the path or any folder holding it ("drafts/" or "drafts/*")
        whole = str(below).lower()
        folder = pattern.rstrip("/")
        return fnmatchcase(whole, pattern) or fnmatchcase(whole, folder + "/*")
    return fnmatchcase(below.name.lower(), pattern)


def expand_paths(
    paths: list[Path], selection: FileFilter | None = None
) -> Iterator[Path | IngestFailure]:
    """Files to ingest (folders searched recursively, their files kept as `selection`
    says), or a failure for a path that is not."""
    selection = selection or FileFilter()
    for path in paths:
        if path.is_dir():
            try:
                found = sorted(
                    p
                    for p in path.rglob("*")
                    if p.suffix.lower() in SUFFIXES and selection.wants(p, path)
                )
            except OSError as exc:
                yield IngestFailure(str(path), "UNREADABLE_PATH", f"cannot list folder: {exc}")
                continue
            yield from (p for p in found if p.is_file())
        elif path.is_file():
            yield path
        elif not path.exists():
            yield IngestFailure(str(path), "UNREADABLE_PATH", "no such file or folder")
        else:
            yield IngestFailure(str(path), "UNREADABLE_PATH", "not a regular file")
