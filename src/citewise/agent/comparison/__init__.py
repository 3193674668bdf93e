"""Comparison across papers: aspects read from each paper, the compare table, the literature
matrix and the experiment setup."""
