"""Metadata that comes with a file rather than from it: a library.yaml manifest or a Zotero data
directory."""
