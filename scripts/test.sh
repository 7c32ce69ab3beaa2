#!/usr/bin/env bash
# The whole test suite on a fresh machine (Python 3.11+, Node 20): installs the test dependencies,
# starts Azurite, then runs lint (ruff), type checks (mypy on skills/ and tests/) and pytest.
# Extra arguments go to pytest (e.g. scripts/test.sh -k skill).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

install_dependencies
start_azurite

echo "== ruff"
"$VENV/bin/ruff" check .
echo "== mypy"
"$VENV/bin/mypy"
echo "== pytest"
# pytest exits 5 when it collects no test: that fails this script, as it should.
"$PYTHON" -m pytest "$@"
