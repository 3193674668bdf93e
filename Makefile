# Benchmarks need the shared research corpus beside the repository (../shared).
.PHONY: test bench bench-ingest bench-1m

# The README's test command: installs the test tools (pytest, ruff, mypy, the server) into the
# environment examples/quickstart.sh set up, then runs the suite. Tests whose tools are absent
# (llama-cpp-python, tesseract, pandoc, the shared corpus) are reported as skipped. Two test
# processes (pytest-xdist), each test file in one of them (its module fixtures built once).
# constraints.txt: the versions CI tests with (scripts/check_constraints.sh checks it installs).
test:
	python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[dev]"
	python -m pytest -rs -n 2 --dist loadfile --durations=15

# retrieval at 10k and 100k blocks vs FTS5, bm25s, rank_bm25, dense-only and the seed-000
# design, libraries built from scratch (under 5 minutes on 2 cores)
bench:
	python benchmarks/retrieval.py --sizes 10k,100k --write docs/benchmarks.md

# ingest speed vs pymupdf4llm (about 2 minutes, most of it pymupdf4llm)
bench-ingest:
	python benchmarks/ingest.py --embed --write docs/benchmarks.md

# adds the million-block library (about 20 minutes more to build, 7 GB of disk)
bench-1m:
	python benchmarks/retrieval.py --sizes 10k,100k,1M --write docs/benchmarks.md
