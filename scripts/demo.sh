#!/usr/bin/env bash
# The main job on the embedded default, end to end and without Azure:
#  1. serve the skill locally (the functions of function_app.py) and send the bundled samples
#     through it as an Azure AI Search indexer would: a table of the documents and one
#     document's tree of parents and children;
#  2. a local SIMULATION of the whole pipeline: samples uploaded to Azurite, the indexer's batches
#     sent to the skill over HTTP, index projections applied, children embedded with the local
#     model, and questions answered by the same collapse-to-parents code the Azure query uses;
#  3. the same with whole files (PDF, Word, PowerPoint, Excel, HTML), converted by the skill.
# Answers name chunks by short ids (widget-api-guide.md#c2 is that document's child 2, as in the
# tree). --verbose (or DEMO_VERBOSE=1) prints every document's tree, the skill server's log and
# longer passages with the real ids; other arguments go to step 1 (scripts/demo.sh --strategy fixed).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

step1=() verbose=()
for argument in "$@"; do
  [ "$argument" = --verbose ] && DEMO_VERBOSE=1 || step1+=("$argument")
done
if [ "${DEMO_VERBOSE:-0}" = 1 ]; then
  verbose=(--verbose)
else
  export HF_HUB_DISABLE_PROGRESS_BARS=1  # the local model's loading bar
fi

# The deployed app sets its batch budget (infra/); the local server would warn that it is unset.
export SKILL_TIME_BUDGET_SECONDS="${SKILL_TIME_BUDGET_SECONDS:-180}"

install_dependencies
echo "== 1. the skill, served locally, chunking samples/ as an indexer would call it"
"$PYTHON" -m skills demo --tree widget-api-guide.md "${step1[@]}" "${verbose[@]}"

echo
echo "== 2. the search pipeline, simulated locally (Azurite + local embeddings)"
start_azurite
"$PYTHON" -m skills.search simulate --mode reference "${verbose[@]}" \
  --query "How do I authenticate to the Widget API?" \
  --query "What is the first action for error code E1014?" \
  --query "Who pays for insurance of the leased equipment?"

echo
echo "== 3. whole files through the 'files' definitions: PDF, DOCX, PPTX, XLSX, HTML"
"$PYTHON" -m skills.search simulate --mode files "${verbose[@]}" --files \
  tests/formats/fixtures/operations-runbook.pdf tests/formats/fixtures/widget-api-guide.docx \
  tests/formats/fixtures/meeting-notes.pptx tests/formats/fixtures/lease-equipment.xlsx \
  tests/formats/fixtures/sync-agent-reference.html \
  --query "What is the first action for error code E1056?" \
  --query "serial number of the laser cutter"
