# Sourced by demo.sh and test.sh: one place that installs what the project needs and starts Azurite.
# Python packages go into .venv (requirements-dev.txt: the app's runtime needs plus tools, the local
# embedding model and the Azure SDKs), Node packages (Azurite) into node_modules.

VENV="${VENV:-.venv}"
PYTHON="$VENV/bin/python"

# The hash of every file that decides what is installed: a .venv (or node_modules) stamped with
# it is up to date, so a warm run skips pip and npm (each took 20 s and more even with nothing to do).
_stamp() {
  cat "$@" | sha256sum | cut -d' ' -f1
}

# Runs one named set-up step and says how long it took, so a first run that spends minutes in a
# quiet pip never looks hung.
_step() {
  local what="$1" started=$SECONDS
  shift
  echo "-- $what"
  "$@"
  echo "   done in $((SECONDS - started)) s"
}

_npm_install() {
  npm install --silent --no-audit --no-fund >/dev/null
}

install_dependencies() {
  if [ ! -x "$PYTHON" ]; then
    command -v python3 >/dev/null || { echo "Python 3.11+ is needed (python3 not found)" >&2; return 1; }
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
      echo "Python 3.11+ is needed; python3 is $(python3 --version 2>&1)" >&2
      return 1
    }
    _step "creating $VENV (Python $(python3 -c 'import platform; print(platform.python_version())'))" \
      python3 -m venv "$VENV"
  fi
  local python_stamp node_stamp
  python_stamp="$(_stamp requirements*.txt)"
  if [ "$(cat "$VENV/.installed" 2>/dev/null)" != "$python_stamp" ]; then
    _step "Python packages into $VENV (requirements-dev.txt; about 1.9 GB the first time, most of it \
PyTorch for the local embedding model: 3 to 10 minutes; pip prints nothing meanwhile)" \
      "$PYTHON" -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
    echo "$python_stamp" >"$VENV/.installed"
  fi
  node_stamp="$(_stamp package.json package-lock.json)"
  if [ "$(cat node_modules/.installed 2>/dev/null)" != "$node_stamp" ]; then
    command -v npm >/dev/null || { echo "Node 20+ and npm are needed (npm not found)" >&2; return 1; }
    _step "Node packages into node_modules (Azurite, the storage emulator; about 360 MB, a minute)" \
      _npm_install
    echo "$node_stamp" >node_modules/.installed
  fi
}

# Stops Azurite when the calling script exits, keeping that script's exit status. Azurite shuts
# down gracefully on SIGTERM within a second; with its telemetry on (start_azurite turns it off)
# it waited 20 s and more on a machine without internet, sending it. After ten seconds it is
# killed.
stop_azurite() {
  local status=$?
  kill "$AZURITE_PID" 2>/dev/null || true
  for _ in $(seq 1 100); do
    kill -0 "$AZURITE_PID" 2>/dev/null || break
    sleep 0.1
  done
  if kill -KILL "$AZURITE_PID" 2>/dev/null; then
    echo "Azurite did not stop within 10 s of SIGTERM: killed" >&2
  fi
  wait "$AZURITE_PID" 2>/dev/null || true
  rm -rf "$AZURITE_DIR" "$AZURITE_DIR.log"
  exit "$status"
}

# Starts the blob emulator on 127.0.0.1:$AZURITE_BLOB_PORT (a free port unless set) in a temporary
# folder, and stops it when the calling script exits. The binary runs directly, not through npx,
# so that the process stopped is Azurite itself.
start_azurite() {
  if [ -z "${AZURITE_BLOB_PORT:-}" ]; then
    AZURITE_BLOB_PORT="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  fi
  export AZURITE_BLOB_PORT
  if (echo >"/dev/tcp/127.0.0.1/$AZURITE_BLOB_PORT") 2>/dev/null; then
    echo "port $AZURITE_BLOB_PORT is already in use: stop what listens there or set AZURITE_BLOB_PORT" >&2
    return 1
  fi
  AZURITE_DIR="$(mktemp -d)"
  node_modules/.bin/azurite-blob --silent --skipApiVersionCheck --disableTelemetry --location "$AZURITE_DIR" \
    --blobHost 127.0.0.1 --blobPort "$AZURITE_BLOB_PORT" >"$AZURITE_DIR.log" 2>&1 &
  AZURITE_PID=$!
  trap stop_azurite EXIT
  for _ in $(seq 1 100); do  # ready within a few seconds
    (echo >"/dev/tcp/127.0.0.1/$AZURITE_BLOB_PORT") 2>/dev/null && return 0
    kill -0 "$AZURITE_PID" 2>/dev/null || break
    sleep 0.2
  done
  echo "Azurite did not start on port $AZURITE_BLOB_PORT:" >&2
  cat "$AZURITE_DIR.log" >&2
  return 1
}
