"""Role assignments: built-in roles only, the right id for each name, and no grant beyond need.

The documented ids below come from
https://learn.microsoft.com/azure/role-based-access-control/built-in-roles, cross-checked in
Azure-Samples/azure-search-openai-demo:infra/core/security/roleDefinitions.json and
Azure-Samples/azure-functions-flex-consumption-samples:IaC/bicep/rbac.bicep. They are the reference
the templates are checked against, not a copy of them.
"""

from __future__ import annotations

import re

import pytest
from infra_bicep import Expr, Resource
from infra_paths import bicep_files, load, module

DOCUMENTED_ROLE_IDS = {
    "Storage Blob Data Owner": "b7e6dc6d-f1e8-4753-8033-0f276bb0955b",
    "Storage Blob Data Contributor": "ba92f5b4-2d11-453d-a403-e96b0029c9fe",
    "Storage Blob Data Reader": "2a2b9908-6ea1-4ae2-8e65-a410df84e7d1",
    "Storage Queue Data Contributor": "974c5e8b-45b9-4653-ba55-5f855dd0fb88",
    "Storage Table Data Contributor": "0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3",
    "Monitoring Metrics Publisher": "3913510d-42f4-4e42-8a64-420c390055eb",
    "Search Service Contributor": "7ca78c08-252a-4471-8644-bb5ff32d4ba0",
    "Search Index Data Contributor": "8ebe5a00-799e-43f5-93ac-243d3dce84a7",
    "Search Index Data Reader": "1407120a-92aa-4202-b7e9-c0e197c71c8f",
    "Cognitive Services OpenAI User": "5e0bd9bd-7b93-4f28-af87-19fc36ad61bd",
    "Cognitive Services User": "a97b65f3-24c7-4388-baec-2e87135dc908",
}

#: (principal parameter, role name, type of the scope): the whole access design, one line a grant.
OPENAI = "Microsoft.CognitiveServices/accounts"
EXPECTED_GRANTS = {
    ("functionPrincipalId", "Storage Blob Data Owner", "Microsoft.Storage/storageAccounts"),
    ("functionPrincipalId", "Monitoring Metrics Publisher", "Microsoft.Insights/components"),
    ("functionPrincipalId", "Cognitive Services OpenAI User", OPENAI),
    ("searchPrincipalId", "Storage Blob Data Reader", "Microsoft.Storage/storageAccounts"),
    ("searchPrincipalId", "Cognitive Services OpenAI User", OPENAI),
    ("searchPrincipalId", "Cognitive Services User", OPENAI),  # the layout mode's AI Services
    ("deployerPrincipalId", "Search Service Contributor", "Microsoft.Search/searchServices"),
    ("deployerPrincipalId", "Search Index Data Contributor", "Microsoft.Search/searchServices"),
    ("deployerPrincipalId", "Storage Blob Data Contributor", "Microsoft.Storage/storageAccounts"),
    ("deployerPrincipalId", "Cognitive Services OpenAI User", OPENAI),
}

ROLE_DEFINITION = re.compile(
    r"^subscriptionResourceId\('Microsoft\.Authorization/roleDefinitions',\s*roles\['([^']+)'\]\)$"
)
GUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)


def role_assignments() -> list[tuple[str, Resource]]:
    found = []
    for path in bicep_files():
        for resource in load(path).resources_of_type("Microsoft.Authorization/roleAssignments"):
            found.append((path.name, resource))
    return found


def role_name(resource: Resource) -> str:
    definition = resource.body["properties"]["roleDefinitionId"]
    assert isinstance(definition, Expr), f"{resource.symbol}: role id must come from the table"
    match = ROLE_DEFINITION.match(definition.text)
    assert match, f"{resource.symbol}: unexpected roleDefinitionId {definition.text}"
    return match.group(1)


def scope_type(resource: Resource) -> str:
    rbac = module("rbac")
    scope = resource.body["scope"]
    assert isinstance(scope, Expr)
    (target,) = [r for r in rbac.resources if r.symbol == scope.text]
    assert target.existing, "grants point at existing resources created by other modules"
    return target.type


def test_role_assignments_live_in_the_rbac_module_only() -> None:
    files = {name for name, _ in role_assignments()}
    assert files == {"rbac.bicep"}


def test_role_table_ids_are_the_documented_built_in_ids() -> None:
    table = module("rbac").variables["roles"]
    assert table, "rbac.bicep must declare its roles table"
    for name, role_id in table.items():
        assert name in DOCUMENTED_ROLE_IDS, f"{name!r} is not a documented built-in role"
        assert role_id == DOCUMENTED_ROLE_IDS[name], f"{name!r} has id {role_id}"


@pytest.mark.parametrize("resource", [r for _, r in role_assignments()], ids=lambda r: r.symbol)
def test_assignment_names_its_role_through_the_table(resource: Resource) -> None:
    name = role_name(resource)
    assert name in module("rbac").variables["roles"]


@pytest.mark.parametrize("resource", [r for _, r in role_assignments()], ids=lambda r: r.symbol)
def test_assignment_name_is_a_guid_of_scope_principal_and_role(resource: Resource) -> None:
    """Same inputs -> same name: re-running azd up updates instead of failing on a duplicate."""
    name = resource.body["name"]
    assert isinstance(name, Expr) and name.text.startswith("guid(")
    principal = resource.body["properties"]["principalId"]
    scope = resource.body["scope"]
    assert isinstance(principal, Expr) and isinstance(scope, Expr)
    assert f"{scope.text}.id" in name.text
    assert principal.text in name.text
    assert f"roles['{role_name(resource)}']" in name.text


def test_no_role_id_is_written_inline() -> None:
    """Every GUID in the rbac module sits in the roles table, where the name check sees it."""
    rbac = module("rbac")
    table_ids = set(rbac.variables["roles"].values())
    assert rbac.path is not None
    code = "\n".join(
        line
        for line in rbac.path.read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith("//")
    )
    assert set(GUID.findall(code)) == table_ids


def test_grants_are_exactly_the_least_privilege_design() -> None:
    grants = set()
    for _, resource in role_assignments():
        principal = resource.body["properties"]["principalId"]
        assert isinstance(principal, Expr)
        grants.add((principal.text, role_name(resource), scope_type(resource)))
    assert grants == EXPECTED_GRANTS


def test_managed_identities_are_granted_unconditionally_and_the_deployer_optionally() -> None:
    rbac = module("rbac")
    for _, resource in role_assignments():
        principal = resource.body["properties"]["principalId"]
        principal_type = resource.body["properties"]["principalType"]
        assert isinstance(principal, Expr)
        if principal.text == "deployerPrincipalId":
            assert resource.condition is not None
            assert principal_type == Expr("deployerPrincipalType")
        elif role_name(resource) == "Cognitive Services User":
            assert resource.condition == "(withLayout)"  # only the layout mode's account
            assert principal_type == "ServicePrincipal"
        else:
            assert resource.condition is None
            assert principal_type == "ServicePrincipal"
    assert rbac.variables["withDeployer"] == Expr("!empty(deployerPrincipalId)")


def test_each_storage_grant_targets_the_right_account() -> None:
    """Owner on the function's host account, Reader for Search on the documents account: the
    two accounts must not be swapped."""
    rbac = module("rbac")
    scopes = {r.symbol: r.body["name"] for r in rbac.resources if r.existing}
    assert scopes["hostStorage"] == Expr("hostStorageAccountName")
    assert scopes["documentsStorage"] == Expr("documentsStorageAccountName")
    for _, resource in role_assignments():
        role = role_name(resource)
        scope = resource.body["scope"]
        if role == "Storage Blob Data Owner":
            assert scope == Expr("hostStorage")
        elif role.startswith("Storage Blob Data"):
            assert scope == Expr("documentsStorage")


def test_the_layout_grant_and_the_openai_grants_target_their_own_accounts() -> None:
    """Both accounts are Microsoft.CognitiveServices/accounts: the scope symbols tell them apart."""
    rbac = module("rbac")
    scopes = {r.symbol: r for r in rbac.resources if r.existing}
    assert scopes["aiServices"].body["name"] == Expr("aiServicesAccountName")
    assert scopes["aiServices"].condition == "(withLayout)"
    assert rbac.variables["withLayout"] == Expr("!empty(aiServicesAccountName)")
    for _, resource in role_assignments():
        role = role_name(resource)
        if role == "Cognitive Services User":
            assert resource.body["scope"] == Expr("aiServices")
        elif role == "Cognitive Services OpenAI User":
            assert resource.body["scope"] == Expr("openAi")
