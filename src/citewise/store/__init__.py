"""The library store: what the rest of citewise may ask of a store (protocols.py) with the
rows, records and filters that cross it, the tables both backends hold, and the backends
themselves: SQLite (sqlite/), the default, and PostgreSQL + pgvector (postgres/) for a library a
lab shares; factory.py picks one from a library's location."""
