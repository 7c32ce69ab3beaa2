"""No secrets: nothing lists keys, no output carries one, every data plane is Entra-only.

These mirror the Bicep linter rules that cannot run here (outputs-should-not-contain-secrets,
use-secure-value-for-secure-inputs) and the project rule "managed identity wherever one works".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from infra_bicep import Expr, Ternary, walk
from infra_paths import MAIN, bicep_files, load, module

SECRET_WORDS = re.compile(r"key|secret|password|connectionstring|token|sas", re.IGNORECASE)


@pytest.mark.parametrize("path", bicep_files(), ids=lambda p: p.name)
def test_no_list_function_is_called(path: Path) -> None:
    """listKeys(), listAdminKeys(), listQueryKeys(), list...: every one returns a secret."""
    calls = [
        n.named_children[0].text.decode()
        for n in walk(load(path).root)
        if n.type == "call_expression" and n.named_children[0].text
    ]
    assert calls, "the walker must see the template's function calls"
    listing = [c for c in calls if re.match(r"^(\w+\.)?list[A-Z]", c)]
    assert listing == []


@pytest.mark.parametrize("path", bicep_files(), ids=lambda p: p.name)
def test_no_output_looks_like_a_secret(path: Path) -> None:
    for name, output in load(path).outputs.items():
        assert not SECRET_WORDS.search(name), name
        text = output.value.text if isinstance(output.value, Expr) else str(output.value)
        assert not SECRET_WORDS.search(text), f"{name} = {text}"


@pytest.mark.parametrize("path", bicep_files(), ids=lambda p: p.name)
def test_no_secure_params_are_needed(path: Path) -> None:
    """A keyless design takes no secret as input either."""
    assert all("secure" not in p.decorators for p in load(path).params.values())


def test_storage_accounts_refuse_shared_keys_and_public_blobs() -> None:
    (account,) = module("storage").resources_of_type("Microsoft.Storage/storageAccounts")
    props = account.body["properties"]
    assert props["allowSharedKeyAccess"] is False
    assert props["allowBlobPublicAccess"] is False
    assert props["minimumTlsVersion"] == "TLS1_2"
    (containers,) = module("storage").resources_of_type(
        "Microsoft.Storage/storageAccounts/blobServices/containers"
    )
    assert containers.loop == "containerNames"
    assert containers.body["properties"] == {"publicAccess": "None"}


def test_openai_account_is_keyless_with_a_custom_subdomain() -> None:
    (account,) = module("openai").resources_of_type("Microsoft.CognitiveServices/accounts")
    props = account.body["properties"]
    assert props["disableLocalAuth"] is True
    assert props["customSubDomainName"] == Expr("name"), "Entra auth needs the custom subdomain"
    assert account.body["kind"] == "OpenAI"


def test_application_insights_accepts_entra_telemetry_only() -> None:
    (component,) = module("monitoring").resources_of_type("Microsoft.Insights/components")
    assert component.body["properties"]["DisableLocalAuth"] is True


def test_search_has_a_system_identity_and_is_keyless_by_default() -> None:
    search = module("search")
    (service,) = search.resources_of_type("Microsoft.Search/searchServices")
    assert service.body["identity"] == {"type": "SystemAssigned"}
    assert load(MAIN).params["searchDisableLocalAuth"].default is True
    # authOptions and disableLocalAuth: true are mutually exclusive on the resource.
    auth = search.variables["authProperties"]
    assert isinstance(auth, Ternary) and auth.condition == "disableLocalAuth"
    assert auth.consequence == {"disableLocalAuth": True}
    assert auth.alternative["disableLocalAuth"] is False and "authOptions" in auth.alternative
    assert Expr("authProperties") in service.body["properties"].parts


def app_settings() -> dict[str, object]:
    (site,) = module("function-app").resources_of_type("Microsoft.Web/sites")
    entries = site.body["properties"]["siteConfig"]["appSettings"]
    return {e["name"]: e["value"] for e in entries}


def test_function_storage_connection_is_identity_based() -> None:
    settings = app_settings()
    assert "AzureWebJobsStorage" not in settings, "a connection string would carry the account key"
    assert settings["AzureWebJobsStorage__credential"] == "managedidentity"
    assert settings["AzureWebJobsStorage__clientId"] == Expr("identityClientId")
    for value in settings.values():
        text = value.text if isinstance(value, Expr) else str(value)
        assert "AccountKey" not in text and "SharedAccessSignature" not in text


def test_function_runs_as_the_user_assigned_identity_only() -> None:
    (site,) = module("function-app").resources_of_type("Microsoft.Web/sites")
    assert site.body["identity"]["type"] == "UserAssigned"
    assert site.body["properties"]["httpsOnly"] is True
    deployment = site.body["properties"]["functionAppConfig"]["deployment"]["storage"]
    assert deployment["authentication"] == {
        "type": "UserAssignedIdentity",
        "userAssignedIdentityResourceId": Expr("identityId"),
    }
