"""Aspect readers: the sentence, name or number one paper states for one matrix column (cell
cues, datasets, free phrases, the paper's own method name, prose columns and their fitted
reader)."""
