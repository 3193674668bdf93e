"""Jobs of a team library on procrastinate, a maintained PostgreSQL-backed task queue:
ingest one file, embed what lacks vectors, run a research task. `citewise worker` runs
them on any machine that reaches the database (needs the `[postgres]` extra)."""
