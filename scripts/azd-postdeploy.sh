#!/bin/sh
# The azd postdeploy hook (azure.yaml): the search side of `azd up`, with what azd provisioned.
#
# 1. The azd environment (infra/main.bicep's outputs), exported for the Python steps.
# 2. functionKey mode: the function key, read through the management API into this process's
#    environment only: never a file, an azd value, an output or a log line. A freshly deployed
#    host creates its keys when it first starts, hence a few tries.
# 3. AZURE_UPLOAD_SAMPLES=true: samples/ into the documents container (changed files only), and
#    an indexer run if the indexer exists already. Before the deploy, so that a new indexer's
#    first run sees them.
# 4. python -m skills.search deploy: data source, indexes, skillset, indexer. Idempotent (a second
#    run sends nothing); it says when a change needs an indexer reset, and does it when
#    AZURE_SEARCH_RESET=true. Role assignments made by the provisioning can take minutes to
#    apply, so a refused call (exit 1) is tried again; a settings error (exit 2) is not.
# 5. python -m skills.search check: the read-only doctor; a problem fails the hook.
#
# Settings (azd env set NAME VALUE): AZURE_SEARCH_MODE (embedded | reference | files | layout,
# default embedded), AZURE_SEARCH_RESET, AZURE_UPLOAD_SAMPLES. PYTHON: the interpreter (default
# .venv/bin/python, created from the first Python 3.11+ on PATH with requirements-deploy.txt when
# missing; HOOK_VENV moves it). az runs with azd's subscription (AZURE_SUBSCRIPTION_ID), and the
# Python steps sign in with azd's credential (AZURE_TOKEN_CREDENTIALS=AzureDeveloperCliCredential
# unless set). Run it alone: azd hooks run postdeploy.
set -eu
cd "$(dirname "$0")/.."

set -a
eval "$(azd env get-values)"
set +a

# The Python steps sign in as azd does: DefaultAzureCredential would try the Azure CLI first,
# which may be signed in to another account or tenant (azure-identity reads this variable).
export AZURE_TOKEN_CREDENTIALS="${AZURE_TOKEN_CREDENTIALS:-AzureDeveloperCliCredential}"

# The first python3.13/3.12/3.11/python3 on PATH that is 3.11 or newer (the skill's own floor).
find_python() {
  for candidate in python3.13 python3.12 python3.11 python3; do
    command -v "$candidate" >/dev/null 2>&1 || continue
    if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

VENV="${HOOK_VENV:-.venv}"
if [ -z "${PYTHON:-}" ]; then
  if [ ! -x "$VENV/bin/python" ]; then
    if ! base="$(find_python)"; then
      echo "the hook needs Python 3.11 or newer (python3.11, python3.12, python3.13 or python3 on PATH); none was found" >&2
      exit 1
    fi
    "$base" -m venv "$VENV"
  fi
  PYTHON="$VENV/bin/python"
fi
"$PYTHON" -c 'import azure.search.documents, azure.storage.blob, isodate, tiktoken' 2>/dev/null ||
  "$PYTHON" -m pip install --quiet --disable-pip-version-check -r requirements-deploy.txt

MODE="${AZURE_SEARCH_MODE:-embedded}"
TRIES="${HOOK_TRIES:-6}"
WAIT_SECONDS="${HOOK_WAIT_SECONDS:-30}"

# Runs "$@" up to $TRIES times while it exits 1 (a refused or failed call); other codes return.
retry() {
  try=1
  while :; do
    status=0
    "$@" || status=$?
    if [ "$status" -ne 1 ] || [ "$try" -ge "$TRIES" ]; then
      return "$status"
    fi
    echo "retrying in ${WAIT_SECONDS}s (new role assignments and keys can take minutes)" >&2
    sleep "$WAIT_SECONDS"
    try=$((try + 1))
  done
}

# --subscription: az's own default subscription may not be the one azd provisioned into.
read_function_key() {
  key="$(az functionapp keys list --subscription "$AZURE_SUBSCRIPTION_ID" \
    --resource-group "$AZURE_RESOURCE_GROUP" --name "$AZURE_FUNCTION_APP_NAME" \
    --query functionKeys.default --output tsv 2>/dev/null)" ||
    return 1
  [ -n "$key" ] || return 1
  SKILL_FUNCTION_KEY="$key"
}

if [ "${SKILL_AUTH_MODE_EFFECTIVE:-functionKey}" = functionKey ]; then
  unset SKILL_AUTH_RESOURCE_ID
  : "${AZURE_SUBSCRIPTION_ID:?the azd environment has no AZURE_SUBSCRIPTION_ID: run azd provision first}"
  if ! retry read_function_key; then
    echo "could not read the function key of $AZURE_FUNCTION_APP_NAME in subscription $AZURE_SUBSCRIPTION_ID (az login --tenant $AZURE_TENANT_ID? has the app started?)" >&2
    exit 1
  fi
  export SKILL_FUNCTION_KEY
fi

if [ "${AZURE_UPLOAD_SAMPLES:-false}" = true ]; then
  retry "$PYTHON" -m skills.search upload samples --mode "$MODE" --run
fi

reset=""
[ "${AZURE_SEARCH_RESET:-false}" = true ] && reset="--reset"
# shellcheck disable=SC2086 # $reset is one flag or nothing
retry "$PYTHON" -m skills.search deploy --mode "$MODE" $reset

"$PYTHON" -m skills.search check --mode "$MODE"
