"""The Function App is a Flex Consumption Python app whose settings are the ones the skill reads.

The cross-checks import the skill's own settings parser and read function_app.py / host.json, so a
rename on either side (app setting, route, route prefix) fails here instead of in Azure.
"""

from __future__ import annotations

import ast
import json
from typing import Any

import pytest
import yaml
from infra_bicep import Expr, Resource, Ternary, Union
from infra_paths import AZURE_YAML, MAIN, ROOT, load, module

from skills.skill import settings as skill_settings


def site() -> Resource:
    (found,) = module("function-app").resources_of_type("Microsoft.Web/sites")
    return found


def app_settings() -> dict[str, Any]:
    entries = site().body["properties"]["siteConfig"]["appSettings"]
    return {e["name"]: e["value"] for e in entries}


def test_plan_is_flex_consumption_fc1_on_linux() -> None:
    (plan,) = module("function-app").resources_of_type("Microsoft.Web/serverfarms")
    assert plan.body["sku"] == {"name": "FC1", "tier": "FlexConsumption"}
    assert plan.body["kind"] == "functionapp"
    assert plan.body["properties"]["reserved"] is True
    assert site().body["properties"]["serverFarmId"] == Expr("plan.id")


def test_site_is_a_linux_function_app_with_flex_config() -> None:
    assert site().body["kind"] == "functionapp,linux"
    assert site().api_version >= "2023-12-01", "functionAppConfig needs 2023-12-01 or later"


def test_runtime_is_python_312_by_default() -> None:
    runtime = site().body["properties"]["functionAppConfig"]["runtime"]
    assert runtime == {"name": "python", "version": Expr("pythonVersion")}
    main = load(MAIN)
    assert main.params["pythonVersion"].default == "3.12"
    assert "3.12" in module("function-app").params["pythonVersion"].decorators["allowed"]
    (app,) = [m for m in main.modules if m.path == "modules/function-app.bicep"]
    assert app.body["params"]["pythonVersion"] == Expr("pythonVersion")


def test_scale_settings_come_from_parameters() -> None:
    scale = site().body["properties"]["functionAppConfig"]["scaleAndConcurrency"]
    assert scale["instanceMemoryMB"] == Expr("instanceMemoryMB")
    assert scale["maximumInstanceCount"] == Expr("maximumInstanceCount")
    assert scale["triggers"]["http"]["perInstanceConcurrency"] == Expr("httpPerInstanceConcurrency")
    main = load(MAIN).params
    assert main["instanceMemoryMB"].default in main["instanceMemoryMB"].decorators["allowed"]
    # The value itself is argued in docs/scaling.md and kept in step with host.json by
    # test_infra_rules.py; here: a literal default the checks can read.
    assert isinstance(main["httpPerInstanceConcurrency"].default, int)


def test_deployment_package_goes_to_the_container_created_on_host_storage() -> None:
    storage = site().body["properties"]["functionAppConfig"]["deployment"]["storage"]
    assert storage["type"] == "blobContainer"
    assert storage["value"] == Expr(
        "'${hostStorage.properties.primaryEndpoints.blob}${deploymentContainerName}'"
    )
    modules = {m.symbol: m for m in load(MAIN).modules}
    assert modules["hostStorage"].body["params"]["containerNames"] == [
        Expr("deploymentContainerName")
    ]
    assert modules["functionApp"].body["params"]["deploymentContainerName"] == Expr(
        "deploymentContainerName"
    )


def test_telemetry_settings_use_entra_auth() -> None:
    settings = app_settings()
    assert settings["APPLICATIONINSIGHTS_AUTHENTICATION_STRING"] == Expr(
        "'ClientId=${identityClientId};Authorization=AAD'"
    )
    assert "APPLICATIONINSIGHTS_CONNECTION_STRING" in settings


def skill_auth_values() -> Ternary:
    value = module("function-app").variables["skillAuthSetting"]
    assert isinstance(value, Ternary)
    return value


def test_auth_setting_switches_the_skill_between_key_and_entra() -> None:
    """Feed the values the template writes to the skill's own parser: each must mean its mode."""
    auth = skill_auth_values()
    assert auth.condition == "skillAuthMode == 'entra'"
    assert app_settings()["SKILL_AUTH"] == Expr("skillAuthSetting")

    def mode(value: str) -> skill_settings.AuthMode:
        return skill_settings.SkillSettings.from_env({skill_settings.AUTH_SETTING: value}).auth

    assert mode(auth.consequence) is skill_settings.AuthMode.ENTRA
    assert mode(auth.alternative) is skill_settings.AuthMode.KEY


def test_service_settings_the_skill_reads_are_set_and_parse() -> None:
    budget = load(MAIN).params["skillTimeBudgetSeconds"]
    env = {
        "SKILL_AUTH": skill_auth_values().alternative,
        "SKILL_TIME_BUDGET_SECONDS": str(budget.default),
    }
    assert app_settings()["SKILL_TIME_BUDGET_SECONDS"] == Expr("string(skillTimeBudgetSeconds)")
    parsed = skill_settings.SkillSettings.from_env(env)
    assert parsed.time_budget_seconds == float(budget.default)
    assert budget.decorators["maxValue"] < 230, "the WebApiSkill timeout caps at 230 s"


def test_the_code_s_default_budget_is_the_deployed_one() -> None:
    """A Function App without the setting (a manual deploy, the dev server) budgets as the
    deployment does, for the skillsets' PT230S."""
    budget = load(MAIN).params["skillTimeBudgetSeconds"]
    assert float(budget.default) == skill_settings.DEFAULT_TIME_BUDGET_SECONDS


def test_entra_mode_admits_the_search_identity_first() -> None:
    """Without SKILL_ALLOWED_CALLER_IDS entra mode would not start (``startup_notes``): the list
    Easy Auth and the skill share begins with the search service's identity."""
    (app,) = [m for m in load(MAIN).modules if m.symbol == "functionApp"]
    callers = app.body["params"]["allowedCallerPrincipalIds"]
    assert callers == Expr("concat([search.outputs.principalId], skillExtraCallerPrincipalIds)")


def test_the_semantic_strategy_gets_the_index_embedding_deployment_keylessly() -> None:
    settings = app_settings()
    assert settings[skill_settings.OPENAI_ENDPOINT_SETTING] == Expr("openAiEndpoint")
    deployment = skill_settings.EMBEDDING_DEPLOYMENT_SETTING
    assert settings[deployment] == Expr("embeddingDeploymentName")
    dimensions = skill_settings.EMBEDDING_DIMENSIONS_SETTING
    assert settings[dimensions] == Expr("string(embeddingDimensions)")
    # the user-assigned identity the credential signs in as
    assert settings[skill_settings.CLIENT_ID_SETTING] == Expr("identityClientId")
    (app,) = [m for m in load(MAIN).modules if m.symbol == "functionApp"]
    wiring = app.body["params"]
    assert wiring["openAiEndpoint"] == Expr("openAi.outputs.endpoint")
    assert wiring["embeddingDeploymentName"] == Expr("openAi.outputs.embeddingDeploymentName")


def test_entra_mode_configures_app_service_authentication() -> None:
    (auth,) = module("function-app").resources_of_type("Microsoft.Web/sites/config")
    assert auth.body["name"] == "authsettingsV2"
    assert auth.condition == "(skillAuthMode == 'entra')"
    props = auth.body["properties"]
    assert props["globalValidation"]["requireAuthentication"] is True
    assert props["globalValidation"]["unauthenticatedClientAction"] == "Return401"
    aad = props["identityProviders"]["azureActiveDirectory"]
    assert aad["enabled"] is True
    assert Expr("'api://${skillAppClientId}'") in aad["validation"]["allowedAudiences"]
    policy = aad["validation"]["defaultAuthorizationPolicy"]
    # An empty allowedApplications list rejects every token; callers are named by object id.
    assert policy == {"allowedPrincipals": {"identities": Expr("allowedCallerPrincipalIds")}}


def test_entra_mode_falls_back_to_keys_without_an_app_registration() -> None:
    """entra without a client id would leave an anonymous function behind no Easy Auth."""
    effective = load(MAIN).variables["effectiveSkillAuthMode"]
    assert isinstance(effective, Ternary)
    assert "!empty(skillAppClientId)" in effective.condition
    assert (effective.consequence, effective.alternative) == ("entra", "functionKey")


def test_search_identity_is_an_allowed_caller() -> None:
    (app,) = [m for m in load(MAIN).modules if m.path == "modules/function-app.bicep"]
    callers = app.body["params"]["allowedCallerPrincipalIds"]
    assert isinstance(callers, Expr) and "search.outputs.principalId" in callers.text


def test_entra_mode_tells_the_skill_the_same_callers_easy_auth_admits() -> None:
    """The skill checks X-MS-CLIENT-PRINCIPAL-ID against SKILL_ALLOWED_CALLER_IDS (comma-separated
    object ids, skills/skill/caller.py); the template fills it from the list the authorization
    policy admits, so the two checks cannot disagree, and leaves it empty in key mode."""
    from skills.skill import caller
    from skills.skill.settings import ALLOWED_CALLERS_SETTING

    value = app_settings()[ALLOWED_CALLERS_SETTING]
    assert value == Ternary(
        "skillAuthMode == 'entra'", Expr("join(allowedCallerPrincipalIds, ',')"), ""
    )
    search_id = "5a0b6f43-0000-4c1d-9e8f-000000000001"
    env = {"SKILL_AUTH": "entra", ALLOWED_CALLERS_SETTING: ",".join([search_id, "other"])}
    settings = skill_settings.SkillSettings.from_env(env)
    assert caller.refusal({"X-MS-CLIENT-PRINCIPAL-ID": search_id}, settings) is None
    refused = caller.refusal({"X-MS-CLIENT-PRINCIPAL-ID": "someone-else"}, settings)
    assert refused is not None and refused.status == 403


def test_azd_service_tag_matches_the_service_in_azure_yaml() -> None:
    services = yaml.safe_load(AZURE_YAML.read_text(encoding="utf-8"))["services"]
    tags = site().body["tags"]
    assert isinstance(tags, Union) and {"azd-service-name": Expr("serviceName")} in tags.parts
    assert load(MAIN).variables["serviceName"] in services


def function_routes() -> dict[str, str]:
    """route -> auth level expression, read from function_app.py's decorators."""
    source = ROOT / "function_app.py"
    if not source.is_file():
        pytest.skip("function_app.py not written yet")
    routes = {}
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "route":
            keywords = {k.arg: k.value for k in node.keywords}
            route = keywords.get("route")
            if isinstance(route, ast.Constant):
                level = keywords.get("auth_level")
                routes[str(route.value)] = ast.unparse(level) if level else "app"
    return routes


def test_skill_uri_output_matches_the_function_route_and_prefix() -> None:
    uri = load(MAIN).outputs["SKILL_URI"].value
    assert isinstance(uri, Expr)
    path = uri.text.rsplit("}", 1)[-1].strip("'")
    host = json.loads((ROOT / "host.json").read_text(encoding="utf-8"))
    prefix = host.get("extensions", {}).get("http", {}).get("routePrefix", "api")
    _, route_prefix, route = path.split("/", 2)
    assert route_prefix == prefix
    assert route in function_routes()


def test_paths_excluded_from_easy_auth_are_anonymous_routes() -> None:
    """Only a route the code itself leaves anonymous may skip Easy Auth."""
    (auth,) = module("function-app").resources_of_type("Microsoft.Web/sites/config")
    excluded = auth.body["properties"]["globalValidation"]["excludedPaths"]
    routes = function_routes()
    for path in excluded:
        route = path.removeprefix("/api/")
        assert routes.get(route) == "func.AuthLevel.ANONYMOUS", path
