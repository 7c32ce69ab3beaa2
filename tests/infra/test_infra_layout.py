"""The ``layout`` mode provisioned by ``azd up``: an AI Services account in a documented region,
the Search identity's role on it, and its endpoint handed to the skillset.

The Document Layout skill bills to an AI Services (Foundry) resource attached by identity; the
regions are the ones the skill's reference page names ("Supported regions": East US, West US 2,
West Europe, North Central US,
https://learn.microsoft.com/azure/search/cognitive-search-skill-document-intelligence-layout).
"""

from __future__ import annotations

import json

from infra_bicep import Expr, Ternary
from infra_paths import INFRA, MAIN, load, module

from skills.search.settings import MODES, REQUIRED_BY_MODE, SearchSettings, required_for_azure
from skills.search.templates import render

DOCUMENTED_LAYOUT_REGIONS = ["eastus", "westus2", "westeurope", "northcentralus"]


def test_the_search_mode_is_an_azd_parameter_with_the_skills_own_modes() -> None:
    param = load(MAIN).params["searchMode"]
    assert param.decorators["allowed"] == list(MODES)
    parameters = json.loads((INFRA / "main.parameters.json").read_text(encoding="utf-8"))
    assert parameters["parameters"]["searchMode"]["value"] == "${AZURE_SEARCH_MODE=embedded}"


def test_the_ai_services_region_is_one_the_layout_skill_documents() -> None:
    main = load(MAIN)
    assert main.params["aiServicesLocation"].decorators["allowed"] == [
        "",
        *DOCUMENTED_LAYOUT_REGIONS,
    ]
    assert main.variables["layoutRegions"] == DOCUMENTED_LAYOUT_REGIONS
    fallback = main.variables["layoutLocation"]
    assert isinstance(fallback, Ternary) and fallback.alternative == Ternary(
        "contains(layoutRegions, location)", Expr("location"), "eastus"
    )


def test_the_account_exists_only_in_layout_mode_keyless_and_of_kind_ai_services() -> None:
    (declared,) = [m for m in load(MAIN).modules if m.path == "modules/ai-services.bicep"]
    assert declared.condition == "(withLayout)"
    assert load(MAIN).variables["withLayout"] == Expr("searchMode == 'layout'")
    (account,) = module("ai-services").resources_of_type("Microsoft.CognitiveServices/accounts")
    assert account.body["kind"] == "AIServices"
    assert account.body["properties"]["disableLocalAuth"] is True
    assert account.body["properties"]["customSubDomainName"] == Expr("name")


def test_its_endpoint_is_the_output_the_layout_skillset_bills_to() -> None:
    outputs = load(MAIN).outputs
    assert outputs["AZURE_AI_SERVICES_ENDPOINT"].value == Ternary(
        "withLayout", Expr("aiServices.outputs.endpoint"), ""
    )
    assert REQUIRED_BY_MODE["layout"] == ("AZURE_AI_SERVICES_ENDPOINT",)
    endpoint = "https://ais-abc.cognitiveservices.azure.com/"
    skillset = render("layout", SearchSettings(ai_services_endpoint=endpoint)).skillset
    assert skillset["cognitiveServices"]["subdomainUrl"] == endpoint


def test_every_mode_gets_every_setting_it_requires_as_an_output() -> None:
    outputs = set(load(MAIN).outputs)
    for mode in MODES:
        assert set(required_for_azure(mode)) <= outputs, mode


def test_the_rbac_module_gets_the_account_only_in_layout_mode() -> None:
    (rbac,) = [m for m in load(MAIN).modules if m.path == "modules/rbac.bicep"]
    assert rbac.body["params"]["aiServicesAccountName"] == Ternary(
        "withLayout", Expr("aiServices.outputs.name"), ""
    )
