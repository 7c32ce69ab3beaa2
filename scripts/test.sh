#!/usr/bin/env bash
# The whole test suite on a fresh machine (Python 3.11+, Node 20): installs the test dependencies
# into .venv and Azurite into node_modules, starts Azurite, then runs lint, type checks and pytest.
# Extra arguments go to pytest (e.g. scripts/test.sh -k skill).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${VENV:-.venv}"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
npm install --silent --no-audit --no-fund >/dev/null

# Azurite (blob emulator) for the local end-to-end tests; stopped when this script exits.
AZURITE_DIR="$(mktemp -d)"
npx --no-install azurite-blob --silent --skipApiVersionCheck --location "$AZURITE_DIR" \
  --blobHost 127.0.0.1 --blobPort "${AZURITE_BLOB_PORT:-10000}" &
AZURITE_PID=$!
trap 'kill "$AZURITE_PID" 2>/dev/null || true; rm -rf "$AZURITE_DIR"' EXIT
export AZURITE_BLOB_PORT="${AZURITE_BLOB_PORT:-10000}"

echo "== ruff"
"$VENV/bin/ruff" check .
echo "== mypy"
"$VENV/bin/mypy"
echo "== pytest"
# pytest exits 5 when it collects no test: that fails this script, as it should.
"$VENV/bin/python" -m pytest "$@"
