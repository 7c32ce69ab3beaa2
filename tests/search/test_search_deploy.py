"""Deploy order, idempotence and the diff, against an in-memory stand-in for the service.

The stand-in answers GET the way the service does (documented in the team notes §6.3): it adds
defaults and an etag, and blanks secrets. Those must not show up as changes.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from skills.search.cli import main
from skills.search.deploy import comparable, deploy, diff, plan, redact
from skills.search.settings import SearchSettings, SettingsError, missing_azure_settings
from skills.search.templates import Kind, render


class FakeService:
    """Stores what was PUT; GET returns it the way the service does."""

    def __init__(self) -> None:
        self.objects: dict[tuple[str, str], dict[str, Any]] = {}
        self.puts: list[tuple[str, str]] = []

    def get(self, kind: Kind, name: str) -> dict[str, Any] | None:
        stored = self.objects.get((kind, name))
        if stored is None:
            return None
        echoed = copy.deepcopy(stored)
        echoed["@odata.etag"] = '"0x8DC"'
        echoed["encryptionKey"] = None
        if kind == "skillset":
            for skill in echoed["skills"]:
                skill.setdefault("httpHeaders", None)
                if skill.get("httpHeaders"):
                    skill["httpHeaders"] = None  # secrets come back blank
        if kind == "index":
            for field in echoed["fields"]:
                field.setdefault("synonymMaps", [])
        return echoed

    def put(self, kind: Kind, body: dict[str, Any]) -> None:
        self.puts.append((kind, body["name"]))
        self.objects[(kind, body["name"])] = copy.deepcopy(body)


SETTINGS = SearchSettings(skill_function_key="secret-key")


@pytest.mark.parametrize("mode", ["embedded", "reference"])
def test_first_deploy_creates_everything_in_dependency_order(mode: str) -> None:
    service = FakeService()
    changes = deploy(service, render(mode, SETTINGS))  # type: ignore[arg-type]
    kinds = [kind for kind, _ in service.puts]
    assert kinds == sorted(kinds, key=["dataSource", "index", "skillset", "indexer"].index)
    assert {change.action for change in changes} == {"create"}


@pytest.mark.parametrize("mode", ["embedded", "reference"])
def test_second_deploy_changes_nothing(mode: str) -> None:
    service = FakeService()
    definitions = render(mode, SETTINGS)  # type: ignore[arg-type]
    deploy(service, definitions)
    service.puts.clear()
    changes = deploy(service, definitions)
    assert service.puts == []
    assert {change.action for change in changes} == {"unchanged"}


def test_a_changed_setting_updates_only_what_uses_it() -> None:
    service = FakeService()
    deploy(service, render("embedded", SETTINGS))
    service.puts.clear()
    changed = SearchSettings(skill_function_key="secret-key", indexer_schedule="PT5M")
    changes = deploy(service, render("embedded", changed))
    assert service.puts == [("indexer", "hcs-embedded-indexer")]
    updated = next(c for c in changes if c.action == "update")
    assert '-    "interval": "PT1H"' in updated.diff
    assert '+    "interval": "PT5M"' in updated.diff


def test_plan_sends_nothing() -> None:
    service = FakeService()
    planned = plan(service, render("reference", SETTINGS))
    assert service.puts == []
    assert [change.action for _, change in planned] == ["create"] * 5


def test_comparable_keeps_only_our_properties_and_trusts_hidden_values() -> None:
    current = {"a": 1, "secret": None, "added": [], "nested": [{"x": 1, "y": 2}]}
    desired = {"a": 1, "secret": "s", "nested": [{"x": 1}]}
    assert comparable(current, desired) == desired
    assert diff(current, desired) == ""


def test_diff_and_dry_run_never_print_the_function_key(capsys: pytest.CaptureFixture[str]) -> None:
    definitions = render("embedded", SETTINGS)
    assert "secret-key" not in json.dumps(redact(definitions.skillset))
    assert "secret-key" not in diff(None, definitions.skillset)


def test_dry_run_prints_every_rendered_definition(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AZURE_SEARCH_PREFIX", "dry")
    monkeypatch.setenv("SKILL_FUNCTION_KEY", "do-not-print")
    assert main(["deploy", "--mode", "reference", "--dry-run"]) == 0
    out = capsys.readouterr().out
    kinds = [item["kind"] for item in json.loads(out)]
    assert kinds == ["dataSource", "index", "index", "skillset", "indexer"]
    for name in ("dry-reference-blobs", "dry-reference-children", "dry-reference-parents",
                 "dry-reference-skillset", "dry-reference-indexer"):  # fmt: skip
        assert f'"name": "{name}"' in out
    assert "do-not-print" not in out


def test_deploy_without_settings_says_what_to_set(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("AZURE_SEARCH_ENDPOINT", "AZURE_OPENAI_ENDPOINT", "SKILL_URI"):
        monkeypatch.delenv(name, raising=False)
    assert main(["deploy", "--mode", "embedded"]) == 2
    assert "AZURE_SEARCH_ENDPOINT" in capsys.readouterr().err


def test_settings_from_environment_convert_numbers_and_refuse_two_auth_modes() -> None:
    settings = SearchSettings.from_env({"AZURE_OPENAI_EMBEDDING_DIMENSIONS": "256"})
    assert settings.dimensions == 256
    with pytest.raises(SettingsError, match="not both"):
        SearchSettings.from_env({"SKILL_FUNCTION_KEY": "k", "SKILL_AUTH_RESOURCE_ID": "api://x"})
    with pytest.raises(SettingsError, match="integer"):
        SearchSettings.from_env({"SKILL_BATCH_SIZE": "many"})
    assert "SKILL_URI" in missing_azure_settings({})
