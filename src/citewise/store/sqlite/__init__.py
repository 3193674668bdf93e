"""The SQLite store: the library file with its migrations, documents and blocks, audit log,
tasks, watches, vocabulary, matrix cells, references, vectors and the memory-mapped index files
beside it."""
