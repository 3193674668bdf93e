"""The scholarly databases, one module each (arXiv, CORE, Crossref, DOAJ, Europe PMC, OpenAlex,
PubMed, Semantic Scholar), and the paging they share."""
