"""One record per work: merge on any shared identifier (DOI, PMID, PMCID, arXiv, S2,
OpenAlex), then on a fuzzy title with the same first author and year ±1. A preprint and its
journal version stay distinct, linked through `related`, unless an identifier ties them."""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations
from typing import Any

from rapidfuzz import fuzz

from citewise.sources.csl import fold
from citewise.sources.record import MERGE_ID_KINDS, SearchRecord, record_key

TITLE_THRESHOLD = 92.0
# Identifier kinds whose different values mean two different works.
CONFLICTING_KINDS = ("doi", "arxiv", "pmid", "pmcid")


class _UnionFind:
    def __init__(self, size: int) -> None:
        self.parent = list(range(size))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def title_similarity(a: str, b: str) -> float:
    """0-100. Plain ratio, or token-set ratio when both titles are long and of similar
    length (a "SYSTEM: " prefix on one of them must not block the match, but a short title
    must not match every longer title that contains it)."""
    fa, fb = fold(a), fold(b)
    if not fa or not fb:
        return 0.0
    score = fuzz.ratio(fa, fb)
    na, nb = len(fa.split()), len(fb.split())
    if min(na, nb) >= 4 and min(na, nb) / max(na, nb) >= 0.6:
        score = max(score, fuzz.token_set_ratio(fa, fb))
    return float(score)


def same_work(a: SearchRecord, b: SearchRecord) -> bool:
    """Title, first author and year agree closely enough, and no identifier disagrees."""
    for kind in CONFLICTING_KINDS:
        if kind in a.ids and kind in b.ids and a.ids[kind] != b.ids[kind]:
            return False
    family_a, family_b = fold(a.first_author_family), fold(b.first_author_family)
    if not family_a or family_a != family_b:
        return False
    if a.year and b.year and abs(a.year - b.year) > 1:
        return False
    return title_similarity(a.title, b.title) >= TITLE_THRESHOLD


def is_version_pair(a: SearchRecord, b: SearchRecord) -> bool:
    """A preprint and a non-preprint: versions of one work, kept apart."""
    return (a.kind == "preprint") != (b.kind == "preprint")


def dedupe(records: list[SearchRecord], priority: dict[str, int]) -> list[SearchRecord]:
    """Merged records, in the order their first member appeared."""
    if not records:
        return []
    uf = _UnionFind(len(records))
    owner: dict[tuple[str, str], int] = {}
    for i, record in enumerate(records):
        for kind in MERGE_ID_KINDS:
            value = record.ids.get(kind)
            if value is None:
                continue
            if (kind, value) in owner:
                uf.union(owner[(kind, value)], i)
            else:
                owner[(kind, value)] = i
    clusters = _clusters(records, uf, priority)

    # Fuzzy pass over the identifier-merged records, blocked by first-author family name.
    merged = [merge(members, priority) for members in clusters]
    by_author: dict[str, list[int]] = defaultdict(list)
    for i, record in enumerate(merged):
        family = fold(record.first_author_family)
        if family:
            by_author[family].append(i)
    uf2 = _UnionFind(len(merged))
    links: list[tuple[int, int]] = []
    for group in by_author.values():
        for i, j in combinations(group, 2):
            if not same_work(merged[i], merged[j]):
                continue
            if is_version_pair(merged[i], merged[j]):
                links.append((i, j))
            else:
                uf2.union(i, j)
    final_members: dict[int, list[SearchRecord]] = defaultdict(list)
    for i, members in enumerate(clusters):
        final_members[uf2.find(i)].extend(members)
    result_of = {root: merge(members, priority) for root, members in final_members.items()}
    ordered = [result_of[root] for root in sorted(result_of)]

    # Links: fuzzy version pairs, and sources' own version links (Crossref relations).
    key_of_id: dict[str, str] = {}
    for record in ordered:
        for kind, value in record.ids.items():
            key_of_id[f"{kind}:{value}"] = record.key
    for i, j in links:
        a, b = result_of[uf2.find(i)], result_of[uf2.find(j)]
        if a is not b:
            a.related.append(b.key)
            b.related.append(a.key)
    for record in ordered:
        resolved = [key_of_id.get(k, k) for k in record.related]
        record.related = sorted({k for k in resolved if k != record.key})
    return ordered


def _clusters(
    records: list[SearchRecord], uf: _UnionFind, priority: dict[str, int]
) -> list[list[SearchRecord]]:
    groups: dict[int, list[SearchRecord]] = defaultdict(list)
    for i, record in enumerate(records):
        groups[uf.find(i)].append(record)
    return [groups[root] for root in sorted(groups)]


def _rank(record: SearchRecord, priority: dict[str, int]) -> int:
    return min((priority.get(s, 99) for s in record.sources), default=99)


def merge(members: list[SearchRecord], priority: dict[str, int]) -> SearchRecord:
    """One record from several: each field from the highest-priority source that has it."""
    if len(members) == 1 and not members[0].related:
        return members[0]
    ranked = sorted(members, key=lambda r: _rank(r, priority))

    def first(attr: str) -> Any:
        for record in ranked:
            value = getattr(record, attr)
            if value:
                return value
        return getattr(ranked[0], attr)

    ids: dict[str, str] = {}
    for record in ranked:
        for kind, value in record.ids.items():
            ids.setdefault(kind, value)
    sources: list[str] = []
    for record in ranked:
        sources += [s for s in record.sources if s not in sources]
    csl: dict[str, Any] = {}
    for record in ranked:
        for field, value in record.csl.items():
            csl.setdefault(field, value)
    key = record_key(ids, first("title"), first("year"))
    csl["id"] = key
    for kind, field in (("doi", "DOI"), ("pmid", "PMID"), ("pmcid", "PMCID")):
        if kind in ids:
            csl[field] = ids[kind]
    kind = first("kind")
    if csl.get("publisher") == "arXiv" and kind != "preprint":
        del csl["publisher"]  # the preprint's server, not the published version's publisher
    if "arxiv" in ids:
        csl.setdefault("number", ids["arxiv"])
        csl.setdefault("note", f"arXiv: {ids['arxiv']}")
    citations = [r.citations for r in members if r.citations is not None]
    related = sorted({k for r in members for k in r.related})
    return SearchRecord(
        key=key,
        csl=csl,
        title=first("title"),
        abstract=first("abstract"),
        year=first("year"),
        authors=first("authors"),
        doi=ids.get("doi"),
        ids=ids,
        sources=sources,
        open_access=any(r.open_access for r in members),
        pdf_url=first("pdf_url"),
        citations=max(citations) if citations else None,
        kind=kind,
        url=first("url"),
        venue=first("venue"),
        published=first("published"),
        related=related,
        links={k: v for r in reversed(ranked) for k, v in r.links.items()},
        retraction=first("retraction"),
        retracts=sorted({d for r in members for d in r.retracts}),
    )
