"""Free-phrase columns: a column a user types ("sample size", "loss function") answered per paper —
the reader (columns), its confidence gate, number and count readings, the names a paper uses, and
the phrase word lists."""
