#!/usr/bin/env bash
# The main job on the embedded default, end to end and without Azure:
#  1. serve the skill locally (the functions of function_app.py) and send the bundled samples
#     through it as an Azure AI Search indexer would, printing parents with their children;
#  2. a local SIMULATION of the whole pipeline: samples uploaded to Azurite, the indexer's batches
#     sent to the skill over HTTP, index projections applied, children embedded with the local
#     model, and questions answered by the same collapse-to-parents code the Azure query uses;
#  3. the same with whole files (PDF, Word, PowerPoint, Excel, HTML), converted by the skill.
# Extra arguments go to step 1 (e.g. scripts/demo.sh --strategy fixed).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

install_dependencies
echo "== 1. the skill, served locally, chunking samples/ as an indexer would call it"
"$PYTHON" -m skills demo "$@"

echo
echo "== 2. the search pipeline, simulated locally (Azurite + local embeddings)"
start_azurite
"$PYTHON" -m skills.search simulate --mode reference \
  --query "How do I authenticate to the Widget API?" \
  --query "What is the first action for error code E1014?" \
  --query "Who pays for insurance of the leased equipment?"

echo
echo "== 3. whole files through the 'files' definitions: PDF, DOCX, PPTX, XLSX, HTML"
"$PYTHON" -m skills.search simulate --mode files --files \
  tests/formats/fixtures/operations-runbook.pdf tests/formats/fixtures/widget-api-guide.docx \
  tests/formats/fixtures/meeting-notes.pptx tests/formats/fixtures/lease-equipment.xlsx \
  tests/formats/fixtures/sync-agent-reference.html \
  --query "What is the first action for error code E1056?" \
  --query "serial number of the laser cutter"
