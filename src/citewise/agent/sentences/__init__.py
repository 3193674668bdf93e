"""Sentence answers: the verbatim sentences an answer is drafted from (extractive picking,
spans, the shape an answer must have, what follows it), figure refusals and acronym
definitions."""
