"""Deploy order, idempotence, the diff, the auth guard and resets, against an in-memory stand-in.

The stand-in answers GET the way the service does (documented in the team notes §6.3, shared
with the HTTP fake in fake_search_service.py): it adds defaults and an etag, and blanks secrets.
Those must not show up as changes.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from azure.core.exceptions import HttpResponseError, ResourceExistsError
from fake_search_service import echo

from skills.search.cli import main
from skills.search.deploy import (
    DeployError,
    comparable,
    deploy,
    diff,
    plan,
    redact,
    reset_reasons,
)
from skills.search.pending import FileLedger, MemoryLedger
from skills.search.settings import (
    STAND_INS,
    SearchSettings,
    SettingsError,
    missing_azure_settings,
)
from skills.search.templates import Kind, render


class FakeService:
    """Stores what was PUT; GET returns it the way the service does (:func:`echo`)."""

    def __init__(self, header_names: bool = False) -> None:
        self.objects: dict[tuple[str, str], dict[str, Any]] = {}
        self.puts: list[tuple[str, str]] = []
        self.indexer_calls: list[tuple[str, str]] = []
        self.header_names = header_names

    def get(self, kind: Kind, name: str) -> dict[str, Any] | None:
        stored = self.objects.get((kind, name))
        return None if stored is None else echo(kind, stored, self.header_names)

    def put(self, kind: Kind, body: dict[str, Any]) -> None:
        self.puts.append((kind, body["name"]))
        self.objects[(kind, body["name"])] = copy.deepcopy(body)

    def reset_indexer(self, name: str) -> None:
        self.indexer_calls.append(("reset", name))

    def run_indexer(self, name: str) -> None:
        self.indexer_calls.append(("run", name))


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
    current = {"a": 1, "apiKey": None, "added": [], "nested": [{"x": 1, "y": 2}]}
    desired = {"a": 1, "apiKey": "s", "nested": [{"x": 1}]}
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


def test_a_deploy_without_skill_auth_sends_nothing() -> None:
    service = FakeService()
    with pytest.raises(DeployError, match=r"SKILL_FUNCTION_KEY.*SKILL_AUTH_RESOURCE_ID"):
        deploy(service, render("embedded", SearchSettings()))
    assert service.puts == []


@pytest.mark.parametrize("mode", ["embedded", "reference"])
def test_an_index_deployed_with_another_analyzer_is_not_updated_but_named(mode: str) -> None:
    service = FakeService()
    definitions = render(mode, SETTINGS)  # type: ignore[arg-type]
    deploy(service, definitions)
    for (kind, _), body in service.objects.items():  # as deployed before the analyzer
        for field in body["fields"] if kind == "index" else []:
            if field.get("analyzer") == "identifiers":
                del field["analyzer"]
    service.puts.clear()
    with pytest.raises(
        DeployError, match=r"\.text: analyzer standard\.lucene -> identifiers.*Delete"
    ):
        deploy(service, definitions)
    assert service.puts == []


def test_the_cli_refuses_a_deploy_without_skill_auth(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("SKILL_FUNCTION_KEY", "SKILL_AUTH_RESOURCE_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AZURE_SEARCH_ENDPOINT", "https://127.0.0.1:9")  # never reached
    for name in ("AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_EMBEDDING_DEPLOYMENT", "SKILL_URI",
                 "AZURE_STORAGE_RESOURCE_ID"):  # fmt: skip
        monkeypatch.setenv(name, "x")
    assert main(["deploy", "--mode", "embedded"]) == 2
    assert "nothing was sent" in capsys.readouterr().err


def test_a_function_key_the_service_holds_and_the_deploy_drops_shows_in_the_diff() -> None:
    service = FakeService(header_names=True)
    deploy(service, render("embedded", SETTINGS))
    entra = SearchSettings(skill_auth_resource_id="api://skill")
    (skillset,) = [c for _, c in plan(service, render("embedded", entra)) if c.kind == "skillset"]
    assert '-      "httpHeaders": {' in skillset.diff
    assert '+      "authResourceId": "api://skill",' in skillset.diff


def test_a_hidden_key_is_noted_not_compared_and_resent_when_asked() -> None:
    service = FakeService()
    definitions = render("embedded", SETTINGS)
    deploy(service, definitions)
    service.puts.clear()
    rotated = render("embedded", SearchSettings(skill_function_key="rotated-key"))
    changes = {c.kind: c for c in deploy(service, rotated)}
    assert changes["skillset"].action == "unchanged"
    assert changes["skillset"].notes == (
        "skills[0].httpHeaders: the service hides its value, not compared",
    )
    assert service.puts == []
    deploy(service, rotated, resend_secrets=True)
    assert service.puts == [("skillset", "hcs-embedded-skillset")]


def test_a_first_deploy_needs_no_reset() -> None:
    service = FakeService()
    definitions = render("embedded", SETTINGS)
    assert reset_reasons(deploy(service, definitions, reset=True), definitions) == []
    assert service.indexer_calls == []


def test_a_skillset_change_needs_a_reset_and_reset_runs_the_indexer() -> None:
    service = FakeService()
    deploy(service, render("embedded", SETTINGS))
    bigger = render("embedded", SearchSettings(skill_function_key="secret-key", skill_batch_size=8))
    changes = deploy(service, bigger)
    assert reset_reasons(changes, bigger) == ["skillset hcs-embedded-skillset changed"]
    assert service.indexer_calls == []
    deploy(service, render("embedded", SETTINGS), reset=True)
    assert service.indexer_calls == [
        ("reset", "hcs-embedded-indexer"),
        ("run", "hcs-embedded-indexer"),
    ]


def test_a_schedule_change_needs_no_reset_a_parsing_change_does() -> None:
    service = FakeService()
    deploy(service, render("embedded", SETTINGS))
    hourly = SearchSettings(skill_function_key="secret-key", indexer_schedule="PT5M")
    definitions = render("embedded", hourly)
    assert reset_reasons(deploy(service, definitions), definitions) == []
    definitions.indexer["parameters"]["configuration"]["parsingMode"] = "markdown"
    changes = deploy(service, definitions)
    assert reset_reasons(changes, definitions) == [
        "indexer hcs-embedded-indexer changed parameters.configuration"
    ]


class RespellingService(FakeService):
    """Echoes enum values in another casing and empty lists as null, besides the durations."""

    def get(self, kind: Kind, name: str) -> dict[str, Any] | None:
        stored = self.objects.get((kind, name))
        return None if stored is None else echo(kind, stored, respell=True)


@pytest.mark.parametrize("mode", ["embedded", "reference", "files", "layout"])
def test_the_services_own_spelling_is_no_change_and_asks_no_reset(mode: str) -> None:
    service = RespellingService()
    definitions = render(mode, SETTINGS)  # type: ignore[arg-type]
    deploy(service, definitions)
    skillset = service.get("skillset", definitions.skillset["name"])
    assert skillset is not None and skillset["skills"][-2]["timeout"] == "PT3M50S"
    service.puts.clear()
    changes = deploy(service, definitions, reset=True)
    assert service.puts == [] and service.indexer_calls == []
    assert {change.action for change in changes} == {"unchanged"}
    assert reset_reasons(changes, definitions) == []


def test_a_real_timeout_change_is_still_a_change() -> None:
    service = RespellingService()
    definitions = render("embedded", SETTINGS)
    deploy(service, definitions)
    definitions.skillset["skills"][0]["timeout"] = "PT120S"
    changes = deploy(service, definitions)
    skillset = next(change for change in changes if change.kind == "skillset")
    assert skillset.action == "update"
    assert '-      "timeout": "PT3M50S"' in skillset.diff and '"PT120S"' in skillset.diff


class BusyService(FakeService):
    """An indexer already running (started by an upload): Run Indexer answers 409; ``refuse``
    names the calls that fail (a 403 while roles apply)."""

    def __init__(self, refuse: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.refuse = refuse

    def put(self, kind: Kind, body: dict[str, Any]) -> None:
        if f"put {kind}" in self.refuse:
            raise _status_error(403)
        super().put(kind, body)

    def reset_indexer(self, name: str) -> None:
        if "reset" in self.refuse:
            raise _status_error(403)
        super().reset_indexer(name)

    def run_indexer(self, name: str) -> None:
        self.indexer_calls.append(("run", name))
        busy = ResourceExistsError("another run is in progress")
        busy.status_code = 409  # what azure-core sets from the response
        raise busy


def _status_error(status: int) -> HttpResponseError:
    error = HttpResponseError(f"status {status}")
    error.status_code = status
    return error


def _changed_batch_size() -> Any:
    return render("embedded", SearchSettings(skill_function_key="secret-key", skill_batch_size=8))


def test_a_run_already_in_progress_after_a_reset_is_no_failure() -> None:
    service, ledger = BusyService(), MemoryLedger()
    said: list[str] = []
    deploy(service, render("embedded", SETTINGS), ledger=ledger, ledger_name="s")
    deploy(service, _changed_batch_size(), reset=True, ledger=ledger, ledger_name="s",
           say=said.append)  # fmt: skip
    assert service.indexer_calls == [("reset", "hcs-embedded-indexer"),
                                      ("run", "hcs-embedded-indexer")]  # fmt: skip
    assert ledger.reasons("s") == []
    assert "already in progress (409)" in said[0] and "skillset hcs-embedded-skillset" in said[0]


def test_a_reset_that_fails_is_done_by_the_next_deploy_with_nothing_to_change() -> None:
    ledger = MemoryLedger()
    service = BusyService(refuse=("reset",))
    deploy(service, render("embedded", SETTINGS), ledger=ledger, ledger_name="s")
    with pytest.raises(HttpResponseError):
        deploy(service, _changed_batch_size(), reset=True, ledger=ledger, ledger_name="s")
    assert ledger.reasons("s") == ["skillset hcs-embedded-skillset changed"]
    service.refuse = ()
    changes = deploy(service, _changed_batch_size(), reset=True, ledger=ledger, ledger_name="s")
    assert {change.action for change in changes} == {"unchanged"}
    assert ("reset", "hcs-embedded-indexer") in service.indexer_calls
    assert ledger.reasons("s") == []


def test_a_deploy_stopped_halfway_still_owes_the_reset() -> None:
    service, ledger = BusyService(), MemoryLedger()
    deploy(service, render("embedded", SETTINGS), ledger=ledger, ledger_name="s")
    service.refuse = ("put indexer",)
    changed = _changed_batch_size()
    changed.indexer["parameters"]["configuration"]["parsingMode"] = "markdown"
    with pytest.raises(HttpResponseError):
        deploy(service, changed, reset=True, ledger=ledger, ledger_name="s")
    assert service.indexer_calls == []
    assert ledger.reasons("s") == [
        "skillset hcs-embedded-skillset changed",
        "indexer hcs-embedded-indexer changed parameters.configuration",
    ]
    service.refuse = ()
    deploy(service, changed, reset=True, ledger=ledger, ledger_name="s")
    assert service.indexer_calls[0] == ("reset", "hcs-embedded-indexer")
    assert ledger.reasons("s") == []


def test_a_reset_not_asked_for_is_remembered_until_one_is() -> None:
    service, ledger = FakeService(), MemoryLedger()
    deploy(service, render("embedded", SETTINGS), ledger=ledger, ledger_name="s")
    deploy(service, _changed_batch_size(), ledger=ledger, ledger_name="s")
    deploy(service, _changed_batch_size(), ledger=ledger, ledger_name="s")
    assert ledger.reasons("s") == ["skillset hcs-embedded-skillset changed"]
    assert service.indexer_calls == []
    deploy(service, _changed_batch_size(), reset=True, ledger=ledger, ledger_name="s")
    assert service.indexer_calls[0] == ("reset", "hcs-embedded-indexer")
    assert ledger.reasons("s") == []


def test_the_file_ledger_survives_a_new_process(tmp_path: Path) -> None:
    path = tmp_path / "pending.json"
    FileLedger(path).record("s", ["index i changed"])
    assert FileLedger(path).reasons("s") == ["index i changed"]
    FileLedger(path).clear("s")
    assert FileLedger(path).reasons("s") == []


def test_a_dry_run_names_every_stand_in_it_filled_and_the_variable_behind_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in STAND_INS:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("SKILL_URI", "https://func-chunk-abc.azurewebsites.net/api/chunk")
    assert main(["deploy", "--mode", "layout", "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "https://example.cognitiveservices.azure.com is a stand-in: set " \
        "AZURE_AI_SERVICES_ENDPOINT" in err  # fmt: skip
    assert "set AZURE_OPENAI_ENDPOINT" in err and "set AZURE_STORAGE_RESOURCE_ID" in err
    assert "SKILL_URI" not in err


@pytest.mark.parametrize("mode", ["embedded", "layout"])
def test_a_real_deploy_refuses_a_stand_in_before_contacting_anything(
    mode: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = {
        "AZURE_SEARCH_ENDPOINT": "https://127.0.0.1:9", "AZURE_OPENAI_EMBEDDING_DEPLOYMENT": "e",
        "AZURE_OPENAI_ENDPOINT": "https://oai-abc.openai.azure.com/", "SKILL_FUNCTION_KEY": "k",
        "SKILL_URI": "https://func-chunk-abc.azurewebsites.net/api/chunk",
        "AZURE_STORAGE_RESOURCE_ID": SearchSettings.storage_resource_id,  # the stand-in itself
        "AZURE_AI_SERVICES_ENDPOINT": "https://ais-abc.cognitiveservices.azure.com/",
    }  # fmt: skip
    for variable, value in real.items():
        monkeypatch.setenv(variable, value)
    assert main(["deploy", "--mode", mode]) == 2
    assert "AZURE_STORAGE_RESOURCE_ID (/subscriptions/00000000" in capsys.readouterr().err


def test_layout_needs_the_ai_services_endpoint() -> None:
    assert "AZURE_AI_SERVICES_ENDPOINT" in missing_azure_settings({}, mode="layout")
    assert "AZURE_AI_SERVICES_ENDPOINT" not in missing_azure_settings({}, mode="files")
