"""Every skill test starts from the built-in defaults: the Function as it starts without app
settings (no CHUNK_/SKILL_ settings, no telemetry, no Azure OpenAI for the semantic strategy), and
an environment without them for what a test starts in a process of its own. A test that needs
settings starts the Function with them (``app_settings``), as the host would read them."""

from __future__ import annotations

import os

import pytest
from skilltest_support import AppSettings

from skills.local.devserver import load_app
from skills.skill import SkillSettings

#: Prefixes of the settings the skill reads, kept out of the tests' environment.
SETTING_PREFIXES = ("CHUNK_", "SKILL_", "APPLICATIONINSIGHTS_", "AZURE_OPENAI_", "CONTEXT_")


def function_app() -> object:
    """``function_app`` as the worker imports it."""
    load_app()
    import function_app as module

    return module


@pytest.fixture(autouse=True)
def _clean_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(SETTING_PREFIXES):
            monkeypatch.delenv(name)
    monkeypatch.setattr(function_app(), "SETTINGS", SkillSettings())


@pytest.fixture
def app_settings(monkeypatch: pytest.MonkeyPatch) -> AppSettings:
    """``app_settings(SKILL_MAX_BODY_BYTES="1000")`` starts the Function with these app settings
    (read as ``function_app`` reads ``os.environ`` at start-up) for the rest of the test."""

    def start(**env: str) -> SkillSettings:
        settings = SkillSettings.from_env(env)
        monkeypatch.setattr(function_app(), "SETTINGS", settings)
        return settings

    return start
