#!/usr/bin/env bash
# Sets citewise up and runs the main job on the bundled example papers:
# ingest a folder of PDFs, list it, ask questions answered with page-level citations,
# and one question the library cannot answer (a refusal, exit code 3).
set -euo pipefail
cd "$(dirname "$0")/.."

# PyTorch's CPU build first: PyPI's plain `torch` is the multi-GB CUDA build. The CPU wheels
# are on PyTorch's own index (a local wheel of the same version is used when pip finds one).
python -m pip install --quiet --disable-pip-version-check "torch==2.13.0+cpu" \
    --extra-index-url https://download.pytorch.org/whl/cpu --retries 1 --timeout 20
python -m pip install --quiet --disable-pip-version-check -e ".[embed]"

export CITEWISE_LIBRARY="$PWD/example-library"
citewise ingest examples/papers
citewise list
citewise ask "What accuracy does the granite classifier reach after heavy rain?"
citewise ask "What recall did the bird song detector reach at Pine ridge?"
citewise ask "Which telescope observed the supernova?" || [ $? -eq 3 ]
