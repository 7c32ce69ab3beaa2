"""Every skill test starts from the built-in defaults: no CHUNK_/SKILL_ settings, no telemetry,
no Azure OpenAI for the semantic strategy."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _clean_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("CHUNK_", "SKILL_", "APPLICATIONINSIGHTS_", "AZURE_OPENAI_")):
            monkeypatch.delenv(name)
