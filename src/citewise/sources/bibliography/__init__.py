"""The library's records and the outside world: enrichment from Crossref and OpenAlex, export to
CSL-JSON, BibTeX and RIS, citation graphs and Zotero sync."""
