"""Experiment settings read from a paper's text: their phrasings, values, hardware, software and
code links, for the matrix and `setup`."""
