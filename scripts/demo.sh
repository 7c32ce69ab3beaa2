#!/usr/bin/env bash
# The main job on the embedded default: serve the skill locally and send the bundled samples
# through it as an Azure AI Search indexer would, printing parents with their children.
# Extra arguments go to the demo (e.g. scripts/demo.sh --strategy fixed).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

install_dependencies
"$PYTHON" -m skills demo "$@"
