# Sourced by demo.sh and test.sh: one place that installs what the project needs and starts Azurite.
# Python packages go into .venv (requirements-dev.txt: the app's runtime needs plus tools, the local
# embedding model and the Azure SDKs), Node packages (Azurite) into node_modules.

VENV="${VENV:-.venv}"
PYTHON="$VENV/bin/python"

install_dependencies() {
  [ -x "$PYTHON" ] || python3 -m venv "$VENV"
  "$PYTHON" -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
  npm install --silent --no-audit --no-fund >/dev/null
}

# Starts the blob emulator on 127.0.0.1:$AZURITE_BLOB_PORT in a temporary folder; stopped on exit.
start_azurite() {
  export AZURITE_BLOB_PORT="${AZURITE_BLOB_PORT:-10000}"
  AZURITE_DIR="$(mktemp -d)"
  npx --no-install azurite-blob --silent --skipApiVersionCheck --location "$AZURITE_DIR" \
    --blobHost 127.0.0.1 --blobPort "$AZURITE_BLOB_PORT" &
  AZURITE_PID=$!
  trap 'kill "$AZURITE_PID" 2>/dev/null || true; rm -rf "$AZURITE_DIR"' EXIT
  for _ in $(seq 1 50); do  # ready within a few seconds
    (echo >"/dev/tcp/127.0.0.1/$AZURITE_BLOB_PORT") 2>/dev/null && return 0
    sleep 0.2
  done
  echo "Azurite did not start on port $AZURITE_BLOB_PORT" >&2
  return 1
}
