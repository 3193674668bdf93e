"""Record completion and quality flags after merging (pure): links derivable from identifiers
(arXiv's DataCite DOI, the PMC page of a PMCID) and retraction status from the sources that
report it (Crossref update notices, OpenAlex `is_retracted`, PubMed's "Retracted
Publication"), written into the CSL-JSON note so exports and research screening see it."""

from __future__ import annotations

import re

from citewise.sources.record import SearchRecord, normalize_doi

# The CSL note line a retracted record carries; research screening reads it back.
RETRACTED = "RETRACTED"
_NOTE = re.compile(rf"^{RETRACTED}: (.+)$", re.M)


def arxiv_doi(arxiv_id: str) -> str:
    """arXiv's DataCite DOI for an ID (every arXiv paper has one)."""
    return f"10.48550/arXiv.{arxiv_id}"


def pmc_url(pmcid: str) -> str:
    return f"https://pmc.ncbi.nlm.nih.gov/articles/{pmcid}/"


def complete(record: SearchRecord) -> SearchRecord:
    """`record` with its derivable links, and its retraction (if any) in the CSL note."""
    arxiv = record.ids.get("arxiv")
    if arxiv:
        record.links.setdefault("arxiv_doi", f"https://doi.org/{arxiv_doi(arxiv)}")
        record.csl.setdefault("DOI", arxiv_doi(arxiv))
    pmcid = record.ids.get("pmcid")
    if pmcid:
        record.links.setdefault("pmc", pmc_url(pmcid))
        record.url = record.url or pmc_url(pmcid)
        record.csl.setdefault("URL", pmc_url(pmcid))
    if record.retraction:
        note = str(record.csl.get("note") or "")
        line = f"{RETRACTED}: {record.retraction}"
        if line not in note:
            record.csl["note"] = f"{note}\n{line}" if note else line
    return record


def apply_notices(records: list[SearchRecord]) -> list[SearchRecord]:
    """Mark the works that a retraction notice among `records` retracts (Crossref's
    `update-to`), even when another source returned the work."""
    targets: dict[str, str] = {}
    for record in records:
        for target in record.retracts:
            targets.setdefault(target, record.doi or record.key)
    for record in records:
        doi = normalize_doi(record.doi)
        if doi and doi in targets and not record.retraction:
            record.retraction = f"Crossref retraction notice {targets[doi]}"
    return records


def retraction_in(csl: dict[str, object]) -> str | None:
    """Why a CSL item is flagged as retracted, or None."""
    match = _NOTE.search(str(csl.get("note") or ""))
    return match.group(1) if match else None
