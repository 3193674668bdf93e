#!/usr/bin/env bash
# Checks that constraints.txt installs: for each of Python 3.11, 3.12 and 3.13 found on PATH,
# a fresh venv gets citewise with every extra that needs no build (all but `transformer`,
# which needs PyTorch, and `llm`, which .ci/run builds) under the constraints, then
#   - `pip check` finds no broken requirement,
#   - every installed distribution is pinned in constraints.txt (a new dependency is noticed),
#   - `citewise --help` and a keyword-only ingest + ask of the example papers run.
# Pythons not installed are reported as skipped. Exit 1 if any installed Python fails.
#   scripts/check_constraints.sh [python3.11 /path/to/python3.12 ...]
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
pythons=("$@")
[ ${#pythons[@]} -eq 0 ] && pythons=(python3.11 python3.12 python3.13)
failed=0
for py in "${pythons[@]}"; do
    if ! "$py" -c "" >/dev/null 2>&1; then  # absent, or a shim (pyenv) with no such version
        echo "skipped: $py is not installed"
        continue
    fi
    work=$(mktemp -d)
    (
        set -e
        "$py" -m venv "$work/venv"
        . "$work/venv/bin/activate"
        export PIP_DISABLE_PIP_VERSION_CHECK=1
        python -m pip install --quiet -c "$root/constraints.txt" \
            -e "$root[dev,mcp,server,matrix,formula,docx,postgres,zh]"
        python -m pip check
        # every installed distribution pinned (pip and setuptools come with the venv)
        python - "$root/constraints.txt" <<'PY'
import re, sys
from importlib.metadata import distributions
norm = lambda n: re.sub(r"[-_.]+", "-", n).lower()
pinned = {norm(l.split("==")[0]) for l in open(sys.argv[1]) if "==" in l and not l.startswith("#")}
loose = sorted({norm(d.metadata["Name"]) for d in distributions()}
               - pinned - {"citewise", "pip", "setuptools", "wheel"})
if loose:
    sys.exit(f"installed but not in constraints.txt: {', '.join(loose)}")
PY
        citewise --help >/dev/null
        export CITEWISE_LIBRARY="$work/library"
        citewise ingest --no-embed "$root/examples/papers" >/dev/null
        citewise ask "What accuracy does the granite classifier reach after heavy rain?" >/dev/null
    ) >"$work/log" 2>&1
    if [ $? -eq 0 ]; then
        echo "ok: $py ($("$py" --version 2>&1))"
    else
        echo "FAILED: $py ($("$py" --version 2>&1)); the last lines of its log:"
        tail -n 20 "$work/log"
        failed=1
    fi
    rm -rf "$work"
done
exit $failed
