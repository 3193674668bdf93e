"""Bibliographies: the entries under a References heading, parsed into authors, title, year,
venue and identifiers, or read by an optional GROBID server."""
