"""Yes/no questions answered "Yes, …" / "No, …" when the paper settles them (see judge.py)."""
