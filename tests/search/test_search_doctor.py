"""The doctor (``python -m skills.search check``) against a fake deployment on loopback.

Everything goes through the real clients: the Search SDK with an API key, the Resource Manager
pipeline of azure-core with a bearer token, urllib for the skill, and (when Azurite runs) the
Storage SDK for the container. Each test breaks the fake in one way a user can meet and expects
the doctor to name it.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from azure.core.credentials import AccessToken, AzureKeyCredential
from azure.core.exceptions import ResourceNotFoundError
from fake_search_service import FakeDeployment, running
from search_fixtures import AZURITE_PORT, azurite_listening

from skills.search.azure import AzureStorage
from skills.search.cli import main
from skills.search.deploy import Service, deploy
from skills.search.doctor import (
    Blob,
    Finding,
    Patience,
    PatientInspector,
    PatientStorage,
    diagnose,
    urllib_post,
)
from skills.search.settings import SearchSettings
from skills.search.templates import DefinitionSet, render

RESOURCE_ID = (
    "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-test"
    "/providers/Microsoft.Storage/storageAccounts/stdoctest"
)
HEALTHY_STATUS = {
    "status": "running",
    "lastResult": {
        "status": "success", "errorMessage": None, "itemsProcessed": 3, "itemsFailed": 0,
        "startTime": "2026-12-01T20:00:00Z", "endTime": "2026-12-01T20:01:00Z",
        "errors": [], "warnings": [],
    },
    "executionHistory": [],
    "limits": {"maxRunTime": "PT2H", "maxDocumentExtractionSize": 16777216,
               "maxDocumentContentCharactersToExtract": 512000},
}  # fmt: skip


class StaticToken:
    """A TokenCredential for the fake Resource Manager (it checks only that a token is sent)."""

    def get_token(self, *scopes: str, **kwargs: Any) -> AccessToken:
        return AccessToken("test-token", 4_102_444_800)


class ListedStorage(AzureStorage):
    """The real Resource Manager read, with a given blob listing (no Azurite needed)."""

    def __init__(self, arm_endpoint: str, listed: list[Blob]) -> None:
        super().__init__(RESOURCE_ID, "http://unused", "documents", None, StaticToken(),
                         arm_endpoint=arm_endpoint)  # fmt: skip
        self.listed = listed

    def blobs(self) -> list[Blob]:  # type: ignore[override]
        return self.listed


@pytest.fixture
def fake() -> Iterator[FakeDeployment]:
    """A deployment as a first deploy leaves it, with a successful run over three files."""
    with running() as fake:
        settings = settings_for(fake)
        deploy(service(fake), render("embedded", settings))
        fake.statuses["hcs-embedded-indexer"] = HEALTHY_STATUS
        fake.counts["hcs-embedded-children"] = 42
        fake.blob_service = {"deleteRetentionPolicy": {"enabled": True, "days": 14},
                             "isVersioningEnabled": False}  # fmt: skip
        yield fake


def settings_for(fake: FakeDeployment, **changes: Any) -> SearchSettings:
    values: dict[str, Any] = {
        "search_endpoint": fake.url,
        "skill_uri": f"{fake.url}/api/chunk",
        "skill_function_key": fake.function_key,
        "storage_resource_id": RESOURCE_ID,
    }
    return SearchSettings(**{**values, **changes})


def service(fake: FakeDeployment) -> Service:
    return Service(fake.url, AzureKeyCredential(fake.api_key))


def run(fake: FakeDeployment, settings: SearchSettings | None = None,
        blobs: list[Blob] | None = None) -> list[Finding]:  # fmt: skip
    settings = settings or settings_for(fake)
    storage = ListedStorage(fake.url, blobs or [Blob("a.md", "https://a/documents/a.md", 10)])
    definitions = render("embedded", settings)
    return diagnose(settings, definitions, inspector=service(fake), post=urllib_post,
                    storage=storage)  # fmt: skip


def problems(findings: list[Finding]) -> list[str]:
    return [f"{f.part}: {f.message}" for f in findings if f.status == "problem"]


def test_a_healthy_deployment_has_no_problem_and_says_what_it_saw(fake: FakeDeployment) -> None:
    findings = run(fake)
    assert problems(findings) == []
    said = [f.message for f in findings if f.status == "ok"]
    assert "an unsigned request is refused (401)" in said
    assert "a signed request is answered: 1 parent(s)" in said
    assert "skillset hcs-embedded-skillset is as rendered; skills[0].httpHeaders: the service " \
        "hides its value, not compared" in said  # fmt: skip
    assert "index hcs-embedded-children: 42 documents" in said
    assert "soft delete keeps deleted blobs 14 days, versioning off" in said


def test_an_anonymous_skill_is_a_problem(fake: FakeDeployment) -> None:
    fake.function_key = None
    assert "skill: an unsigned request is answered: anyone can call it" in problems(run(fake))


def test_a_wrong_function_key_is_a_problem(fake: FakeDeployment) -> None:
    found = problems(run(fake, settings_for(fake, skill_function_key="stale-key")))
    assert "skill: a signed request got 401, not 200" in found


def test_entra_mode_checks_only_the_refusal_and_says_why(fake: FakeDeployment) -> None:
    entra = settings_for(fake, skill_function_key=None, skill_auth_resource_id="api://skill")
    skill = [f for f in run(fake, entra) if f.part == "skill"]
    assert [f.status for f in skill] == ["ok", "skipped"]
    assert "only the search service's identity may call the skill" in skill[1].message


def test_a_definition_changed_in_the_portal_shows_as_a_diff(fake: FakeDeployment) -> None:
    fake.objects[("indexer", "hcs-embedded-indexer")]["schedule"]["interval"] = "P1D"
    (found,) = problems(run(fake))
    assert found.startswith("definitions: indexer hcs-embedded-indexer differs")
    assert '-    "interval": "P1D"' in found and '+    "interval": "PT1H"' in found


def test_a_missing_object_is_a_problem(fake: FakeDeployment) -> None:
    del fake.objects[("skillset", "hcs-embedded-skillset")]
    assert "definitions: skillset hcs-embedded-skillset is missing: deploy it" in problems(
        run(fake)
    )


def test_item_errors_and_warnings_of_the_last_run_are_listed(fake: FakeDeployment) -> None:
    last = {**HEALTHY_STATUS["lastResult"], "itemsFailed": 1,  # type: ignore[dict-item]
            "errors": [{"key": "aHR0cHM6Ly9hL2IubWQ1", "errorMessage":
                        "Could not execute skill because the Web Api request failed.",
                        "details": "Web Api response status: 'Unauthorized'", "statusCode": 401}],
            "warnings": [{"key": "aHR0cHM6Ly9hL2MubWQ1", "message":
                          "Truncated extracted text to '512000' characters."}]}  # fmt: skip
    fake.statuses["hcs-embedded-indexer"] = {**HEALTHY_STATUS, "lastResult": last}
    findings = [f for f in run(fake) if f.part == "indexer"]
    assert [f.status for f in findings] == ["problem", "problem", "warning"]
    assert "1 failed" in findings[0].message
    assert "Web Api request failed" in findings[1].message and "Unauthorized" in findings[1].message
    assert findings[2].message.startswith("warning aHR0cHM6Ly9hL2MubWQ1: Truncated extracted")


def test_an_indexer_that_never_ran_is_a_warning(fake: FakeDeployment) -> None:
    del fake.statuses["hcs-embedded-indexer"]
    (indexer,) = [f for f in run(fake) if f.part == "indexer"]
    assert (indexer.status, indexer.message) == ("warning", "indexer hcs-embedded-indexer has "
                                                 "not run yet")  # fmt: skip


def test_an_empty_index_is_a_warning(fake: FakeDeployment) -> None:
    fake.counts["hcs-embedded-children"] = 0
    (documents,) = [f for f in run(fake) if f.part == "documents"]
    assert documents.status == "warning"


def test_soft_delete_off_and_versioning_on_are_problems(fake: FakeDeployment) -> None:
    fake.blob_service = {"deleteRetentionPolicy": {"enabled": False}, "isVersioningEnabled": True}
    found = problems(run(fake))
    assert any("soft delete is off" in p for p in found)
    assert any("versioning is on" in p for p in found)


def test_blobs_the_tier_would_cut_skip_or_misname_are_listed(fake: FakeDeployment) -> None:
    """The tier's limits come from the service (Get Indexer Status ``limits``)."""
    long_url = "https://stdoc.blob.core.windows.net/documents/" + "deep/" * 150 + "x.md"
    blobs = [
        Blob("big.md", "https://a/documents/big.md", 600_000),
        Blob("huge.md", "https://a/documents/huge.md", 20 * 1024 * 1024),
        Blob("deep.md", long_url, 100),
        Blob("fine.md", "https://a/documents/fine.md", 5_000),
    ]
    found = [p for p in problems(run(fake, blobs=blobs)) if p.startswith("storage")]
    assert len(found) == 3
    assert "big.md: 600,000 bytes; the tier extracts at most 512,000 characters" in found[0]
    assert "huge.md" in found[1] and "the indexer skips it" in found[1]
    assert "deep.md: its chunks' keys would be" in found[2]


def test_a_part_without_settings_is_skipped_and_says_what_to_set() -> None:
    settings = SearchSettings()
    definitions = render("embedded", settings)
    findings = diagnose(settings, definitions, inspector=None, post=None, storage=None)
    assert [(f.part, f.status) for f in findings] == [
        ("skill", "skipped"), ("service", "skipped"), ("storage", "skipped"),
    ]  # fmt: skip
    assert "AZURE_STORAGE_RESOURCE_ID" in findings[2].message


def test_a_service_that_refuses_the_caller_is_a_finding_not_a_crash(fake: FakeDeployment) -> None:
    settings = settings_for(fake)
    wrong = Service(fake.url, AzureKeyCredential("not-the-key"))
    findings = diagnose(settings, render("embedded", settings), inspector=wrong, post=None,
                        storage=None)  # fmt: skip
    refused = problems(findings)
    assert any(p.startswith("definitions: could not check: ClientAuthenticationError") or
               p.startswith("definitions: could not check: HttpResponseError")
               for p in refused)  # fmt: skip
    assert any(p.startswith("indexer: could not check") for p in refused)


def test_the_cli_runs_the_doctor_from_the_environment(
    fake: FakeDeployment, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AZURE_STORAGE_BLOB_ENDPOINT", raising=False)  # the storage part skips
    monkeypatch.setenv("AZURE_STORAGE_RESOURCE_ID", RESOURCE_ID)
    monkeypatch.setenv("AZURE_SEARCH_ENDPOINT", fake.url)
    monkeypatch.setenv("AZURE_SEARCH_API_KEY", fake.api_key)
    monkeypatch.setenv("SKILL_URI", f"{fake.url}/api/chunk")
    monkeypatch.setenv("SKILL_FUNCTION_KEY", str(fake.function_key))
    assert main(["check", "--mode", "embedded"]) == 0
    out = capsys.readouterr().out
    assert "ok       skill        a signed request is answered" in out
    assert "skipped  storage      set AZURE_STORAGE_RESOURCE_ID" in out
    fake.counts.clear()  # an empty index is a warning, not a failure
    assert main(["check", "--mode", "embedded"]) == 0
    del fake.objects[("index", "hcs-embedded-children")]
    assert main(["check", "--mode", "embedded"]) == 1


@pytest.mark.skipif(
    not azurite_listening(AZURITE_PORT, 1.0),
    reason=f"Azurite blob service not listening on 127.0.0.1:{AZURITE_PORT}",
)
def test_the_container_is_listed_through_the_storage_sdk(fake: FakeDeployment) -> None:
    from skills.search.local_run import AZURITE_ACCOUNT, AZURITE_KEY, azurite_connection_string
    from skills.search.local_run import container_client as azurite_container

    name = f"doctor-{uuid.uuid4().hex[:8]}"
    container = azurite_container(azurite_connection_string(AZURITE_PORT), name)
    try:
        container.upload_blob("docs/small.md", b"# Small\n\nfine")
        container.upload_blob("docs/big.md", b"x" * 600_000)
        container.upload_blob("elsewhere.md", b"not in the folder")
        endpoint = f"http://127.0.0.1:{AZURITE_PORT}/{AZURITE_ACCOUNT}"
        storage = AzureStorage(
            RESOURCE_ID, endpoint, name, "docs/", StaticToken(), arm_endpoint=fake.url,
            blob_credential={"account_name": AZURITE_ACCOUNT, "account_key": AZURITE_KEY},
        )  # fmt: skip
        listed = sorted((blob.name, blob.size) for blob in storage.blobs())
        assert listed == [("docs/big.md", 600_000), ("docs/small.md", 13)]
        definitions: DefinitionSet = render("embedded", settings_for(fake))
        findings = diagnose(settings_for(fake), definitions, inspector=service(fake), post=None,
                            storage=storage)  # fmt: skip
        (found,) = [p for p in problems(findings) if p.startswith("storage")]
        assert "docs/big.md: 600,000 bytes" in found
    finally:
        container.delete_container()


def test_throttled_items_come_with_what_to_do(fake: FakeDeployment) -> None:
    throttled = {"key": "k1", "errorMessage": "Could not execute skill: embed-children",
                 "details": "Response status code does not indicate success: 429 (Too Many "
                 "Requests)."}  # fmt: skip
    last = {**HEALTHY_STATUS["lastResult"], "itemsFailed": 1, "errors": [throttled]}  # type: ignore[dict-item]
    fake.statuses["hcs-embedded-indexer"] = {**HEALTHY_STATUS, "lastResult": last}
    found = problems(run(fake))
    assert any("AZURE_OPENAI_EMBEDDING_CAPACITY" in p and "--reset" in p for p in found)


def patient_run(fake: FakeDeployment, patience: Patience) -> list[Finding]:
    settings = settings_for(fake)
    storage = ListedStorage(fake.url, [Blob("a.md", "https://a/documents/a.md", 10)])
    return diagnose(
        settings, render("embedded", settings), post=urllib_post,
        inspector=PatientInspector(service(fake), patience),
        storage=PatientStorage(storage, patience),
    )  # fmt: skip


def test_a_403_while_roles_apply_is_waited_out_with_doubling_waits(fake: FakeDeployment) -> None:
    fake.forbidden = 3
    waits: list[float] = []
    said: list[str] = []
    findings = patient_run(fake, Patience(tries=4, first=10, sleep=waits.append, say=said.append))
    assert problems(findings) == []
    assert waits == [10, 20, 40]
    assert "403, new role assignments may still be applying" in said[0]


def test_a_403_that_lasts_is_reported_after_the_last_try(fake: FakeDeployment) -> None:
    fake.forbidden = 10_000
    waits: list[float] = []
    findings = patient_run(fake, Patience(tries=3, first=1, sleep=waits.append, say=print))
    assert waits == [1, 2]  # the first read waits; the rest are tried once, not waited for
    found = problems(findings)
    assert any("definitions: could not check: refused with 403" in line and
               "Search Service Contributor" in line for line in found)  # fmt: skip
    assert any(line.startswith("storage: could not check: refused with 403") for line in found)


def test_only_a_403_is_tried_again() -> None:
    calls: list[int] = []

    def missing() -> None:
        calls.append(1)
        raise ResourceNotFoundError("gone")

    patience = Patience(tries=5, first=1, sleep=lambda _: None, say=print)
    with pytest.raises(ResourceNotFoundError):
        patience.call("reading", missing)
    assert calls == [1]


def test_the_cli_with_nothing_configured_fails_and_says_what_it_could_not_check(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("SKILL_URI", "AZURE_SEARCH_ENDPOINT", "AZURE_STORAGE_RESOURCE_ID",
                 "AZURE_STORAGE_BLOB_ENDPOINT"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    assert main(["check"]) == 2
    err = capsys.readouterr().err
    assert "nothing could be checked" in err
    assert "skill (set SKILL_URI)" in err and "service (set AZURE_SEARCH_ENDPOINT)" in err


@pytest.mark.parametrize(
    ("error", "advice"),
    [
        ({"key": "k1", "errorMessage": "Could not execute skill: hierarchical-chunker",
          "details": "403: caller is not in SKILL_ALLOWED_CALLER_IDS"},  # the skill's own words
         "skillExtraCallerPrincipalIds"),
        ({"key": "k2", "errorMessage": "Could not execute skill: document-layout",
          "details": "Time Out"},
         "Cognitive Services User"),
    ],
)  # fmt: skip
def test_first_run_failures_come_with_what_to_do(
    fake: FakeDeployment, error: dict[str, str], advice: str
) -> None:
    last = {**HEALTHY_STATUS["lastResult"], "itemsFailed": 1, "errors": [error]}  # type: ignore[dict-item]
    fake.statuses["hcs-embedded-indexer"] = {**HEALTHY_STATUS, "lastResult": last}
    found = problems(run(fake))
    assert sum(advice in p for p in found) == 1, found
