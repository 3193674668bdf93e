"""The finance pack: SEC filings, their statements, standard financial definitions and answers
about a company's figures for a period."""
