"""The models ``azd up`` deploys are ones Azure OpenAI still deploys for new customers.

The reference is the "Current models" table of
https://learn.microsoft.com/azure/ai-foundry/openai/concepts/model-retirements (its text
generation and embedding tabs, the table dated 2025-12-16, read on 2026-12-05): model, version, the
date it closes to new customers ("Deprecation Date (No New Customers)", None where the table says
n/a) and its retirement date. gpt-4o-mini 2024-07-18, the notes' model until now, closed on
2025-07-18 and retired.
"""

from __future__ import annotations

import json
from datetime import date

from infra_paths import INFRA, MAIN, load

READ_ON = date(2026, 12, 5)
#: (model, version) -> (closed to new customers, retired); "no earlier than" dates as given
RETIREMENT_TABLE = {
    ("gpt-4o-mini", "2024-07-18"): (date(2025, 7, 18), date(2026, 10, 1)),
    ("gpt-4.1-mini", "2025-04-14"): (date(2026, 4, 14), date(2026, 10, 14)),
    ("gpt-5-mini", "2025-08-07"): (date(2026, 8, 7), date(2027, 2, 6)),
    ("gpt-5-nano", "2025-08-07"): (date(2026, 8, 7), date(2027, 2, 6)),
    ("gpt-5.1", "2025-11-13"): (date(2026, 11, 13), date(2027, 5, 15)),
    ("gpt-5.2", "2025-12-11"): (date(2026, 12, 12), date(2027, 5, 12)),
    ("text-embedding-3-small", "1"): (None, date(2027, 4, 15)),
    ("text-embedding-3-large", "1"): (None, date(2027, 4, 15)),
}
#: the chat model the docs name for the default version (the name itself defaults to off)
DOCUMENTED_CHAT_MODEL = "gpt-5.2"


def open_to_new_deployments(model: str, version: str) -> bool:
    closes, retires = RETIREMENT_TABLE[(model, version)]
    return (closes is None or closes > READ_ON) and retires > READ_ON


def test_the_default_chat_model_version_is_open_to_new_deployments() -> None:
    version = load(MAIN).params["contextChatModelVersion"].default
    assert open_to_new_deployments(DOCUMENTED_CHAT_MODEL, version)
    assert not open_to_new_deployments("gpt-4o-mini", "2024-07-18")  # the check can fail


def test_the_default_embedding_model_is_open_to_new_deployments() -> None:
    params = load(MAIN).params
    model = params["embeddingModelName"].default
    assert open_to_new_deployments(model, params["embeddingModelVersion"].default)


def test_chat_model_name_version_and_capacity_are_azd_parameters() -> None:
    parameters = json.loads((INFRA / "main.parameters.json").read_text(encoding="utf-8"))
    values = {name: entry["value"] for name, entry in parameters["parameters"].items()}
    assert values["contextChatModelName"] == "${AZURE_OPENAI_CHAT_MODEL}"
    assert values["contextChatModelVersion"] == "${AZURE_OPENAI_CHAT_MODEL_VERSION=2025-12-11}"
    assert values["contextChatDeploymentCapacity"] == "${AZURE_OPENAI_CHAT_CAPACITY=50}"


def test_the_docs_name_the_model_of_the_default_version() -> None:
    docs = INFRA.parent / "docs"
    deploy = (docs / "deploy.md").read_text(encoding="utf-8")
    assert f"`{DOCUMENTED_CHAT_MODEL}`" in deploy and "`2025-12-11`" in deploy
    for page in ("deploy.md", "contextual.md"):
        text = (docs / page).read_text(encoding="utf-8")
        assert "AZURE_OPENAI_CHAT_MODEL gpt-4o-mini" not in text, page
