"""Searching several sources at once: the request read from plain language (English or Chinese,
MeSH names), the run with its progress, merged records, their flags and ranking, author-first
search and saved searches."""
