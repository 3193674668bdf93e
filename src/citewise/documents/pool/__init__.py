"""Parsing files under a budget: the pool of worker processes, the life of one worker, and what
its reply or its end means for its file."""
