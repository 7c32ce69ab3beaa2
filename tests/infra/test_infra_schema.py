"""Every property name in the templates exists in its resource type's ARM schema.

Without the Bicep CLI, a misspelt property (``perInstanceConcurency``) would deploy as an ARM
error at best and be silently ignored at worst. The schemas come from the azure-mgmt-* SDK models,
generated from the same REST specs Bicep's types are; the test keeps the resource type -> model
table, and fails when a template declares a type the table does not cover.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from infra_bicep import Resource, inline_variables
from infra_paths import bicep_files, load
from infra_schema import Shape, model_shape, unknown_keys

#: resource type -> (models module, class) describing the request body of a PUT.
MODELS = {
    "Microsoft.Web/sites": ("azure.mgmt.web.models", "Site"),
    "Microsoft.Web/serverfarms": ("azure.mgmt.web.models", "AppServicePlan"),
    "Microsoft.Web/sites/config": ("azure.mgmt.web.models", "SiteAuthSettingsV2"),
    "Microsoft.Search/searchServices": ("azure.mgmt.search.models", "SearchService"),
    "Microsoft.CognitiveServices/accounts": ("azure.mgmt.cognitiveservices.models", "Account"),
    "Microsoft.CognitiveServices/accounts/deployments": (
        "azure.mgmt.cognitiveservices.models",
        "Deployment",
    ),
    "Microsoft.Storage/storageAccounts": (
        "azure.mgmt.storage.models",
        "StorageAccountCreateParameters",
    ),
    "Microsoft.Storage/storageAccounts/blobServices": (
        "azure.mgmt.storage.models",
        "BlobServiceProperties",
    ),
    "Microsoft.Storage/storageAccounts/blobServices/containers": (
        "azure.mgmt.storage.models",
        "BlobContainer",
    ),
    "Microsoft.Authorization/roleAssignments": (
        "azure.mgmt.authorization.models",
        "RoleAssignmentCreateParameters",
    ),
    "Microsoft.Insights/components": (
        "azure.mgmt.applicationinsights.models",
        "ApplicationInsightsComponent",
    ),
    "Microsoft.OperationalInsights/workspaces": ("azure.mgmt.loganalytics.models", "Workspace"),
    "Microsoft.ManagedIdentity/userAssignedIdentities": ("azure.mgmt.msi.models", "Identity"),
}
#: Keys every resource declaration may carry whatever its schema: Bicep's own.
BICEP_KEYS = {"name", "parent", "scope", "dependsOn"}
#: A resource group body is trivial; its model lives in a package too large to add for 3 keys.
RESOURCE_GROUP_KEYS = {"name", "location", "tags"}

_shapes: dict[str, Shape] = {}


def shape(resource_type: str) -> Shape:
    if resource_type not in _shapes:
        _shapes[resource_type] = model_shape(*MODELS[resource_type])
    return _shapes[resource_type]


def declared() -> list[tuple[str, Resource]]:
    return [
        (path.name, resource)
        for path in bicep_files()
        for resource in load(path).resources
        if not resource.existing
    ]


def test_every_declared_resource_type_has_a_schema() -> None:
    types = {r.type for _, r in declared()} - {"Microsoft.Resources/resourceGroups"}
    assert types - set(MODELS) == set()


@pytest.mark.parametrize(
    ("file", "resource"), declared(), ids=lambda v: v.symbol if isinstance(v, Resource) else v
)
def test_resource_uses_only_properties_its_type_has(file: str, resource: Resource) -> None:
    variables = next(load(p) for p in bicep_files() if p.name == file).variables
    body = {
        k: inline_variables(v, variables) for k, v in resource.body.items() if k not in BICEP_KEYS
    }
    if resource.type == "Microsoft.Resources/resourceGroups":
        assert set(resource.body) <= RESOURCE_GROUP_KEYS
        return
    assert unknown_keys(body, shape(resource.type)) == [], file


@pytest.mark.parametrize("path", bicep_files(), ids=lambda p: Path(p).name)
def test_existing_references_carry_only_a_name(path: Path) -> None:
    for resource in load(path).resources:
        if resource.existing:
            assert set(resource.body) <= {"name", "scope", "parent"}


@pytest.mark.parametrize(
    ("resource_type", "typo"),
    [
        (
            "Microsoft.Web/sites",
            {"properties": {"functionAppConfig": {"runtime": {"versoin": "3.12"}}}},
        ),
        ("Microsoft.Web/sites", {"properties": {"siteConfig": {"appSettings": [{"valeu": "x"}]}}}),
        ("Microsoft.Web/sites/config", {"properties": {"globalValidation": {"excludePaths": []}}}),
        ("Microsoft.Search/searchServices", {"properties": {"semanticSearh": "free"}}),
        ("Microsoft.Storage/storageAccounts", {"properties": {"allowSharedKeyAcess": False}}),
        ("Microsoft.Authorization/roleAssignments", {"properties": {"principalTyp": "User"}}),
        ("Microsoft.CognitiveServices/accounts", {"properties": {"disableLocalAuht": True}}),
    ],
)
def test_the_schema_check_reports_a_misspelt_property(
    resource_type: str, typo: dict[str, object]
) -> None:
    """Guards against a vacuous check (a model read as 'anything goes')."""
    assert len(unknown_keys(typo, shape(resource_type))) == 1


def test_flex_settings_are_in_the_site_schema() -> None:
    """The Flex-only block must be known to the schema, or its checks above prove nothing."""
    config = shape("Microsoft.Web/sites").fields["properties"].fields["functionAppConfig"]
    assert {"deployment", "runtime", "scaleAndConcurrency"} <= set(config.fields)
