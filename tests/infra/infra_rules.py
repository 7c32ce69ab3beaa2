"""Offline checks for what the templates can get wrong without a syntax or name error.

Each rule returns the problems it finds as sentences (empty: none), so that a test can run it on
the real files (must be empty) and on a planted broken fixture under ``fixtures/`` (must not be):
a check that cannot fail proves nothing. The facts each rule encodes are cited where they are
written down.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from infra_bicep import BicepFile, Expr, Resource, Ternary, Union, inline_variables

from skills.search.safety import soft_delete_problems

# ---- closed enums of the generated Bicep types ---------------------------------------------------

#: (resource type, API version) -> property path -> the only values the type accepts. From
#: Azure/bicep-types-az:generated/<provider>/<namespace>/<api>/types.md, where these are closed
#: unions (no "| string"): Bicep rejects any other value, including another casing, which the
#: azure-mgmt SDK models (older specs: hostingMode 'default') cannot tell.
CLOSED_ENUMS: dict[tuple[str, str], dict[str, frozenset[str]]] = {
    ("Microsoft.Search/searchServices", "2025-05-01"): {
        "properties.hostingMode": frozenset({"Default", "HighDensity"}),
        "properties.authOptions.aadOrApiKey.aadAuthFailureMode": frozenset(
            {"http401WithBearerChallenge", "http403"}
        ),
    },
}


def closed_enum_problems(doc: BicepFile) -> list[str]:
    """Literal values outside a closed enum, and resources whose API version has no table."""
    problems = []
    for resource in doc.resources:
        tables = {t: e for (t, api), e in CLOSED_ENUMS.items() if t == resource.type}
        if not tables or resource.existing:
            continue
        enums = CLOSED_ENUMS.get((resource.type, resource.api_version))
        if enums is None:
            problems.append(
                f"{resource.symbol}: {resource.type}@{resource.api_version} has no closed-enum "
                "table: read its generated types and add one"
            )
            continue
        body = inline_variables(resource.body, doc.variables)
        for path, allowed in enums.items():
            for value in _values_at(body, path.split(".")):
                if isinstance(value, str) and value not in allowed:
                    problems.append(
                        f"{resource.symbol}.{path} = {value!r}: the type accepts only "
                        + " | ".join(sorted(allowed))
                    )
    return problems


def _values_at(node: Any, path: list[str]) -> Iterator[Any]:
    """Every value ``path`` reaches, through both branches of a ternary and every union part."""
    if isinstance(node, Ternary):
        yield from _values_at(node.consequence, path)
        yield from _values_at(node.alternative, path)
    elif isinstance(node, Union):
        for part in node.parts:
            yield from _values_at(part, path)
    elif not path:
        yield node
    elif isinstance(node, dict) and path[0] in node:
        yield from _values_at(node[path[0]], path[1:])


# ---- Flex Consumption deprecations ---------------------------------------------------------------

#: functions-app-settings.md, "Flex Consumption plan deprecations" (MicrosoftDocs/azure-docs):
#: app settings and site properties that "are deprecated and shouldn't be used when creating
#: function app resources" on Flex.
FLEX_DEPRECATED_SETTINGS = frozenset(
    {
        "ENABLE_ORYX_BUILD", "FUNCTIONS_EXTENSION_VERSION", "FUNCTIONS_WORKER_RUNTIME",
        "FUNCTIONS_WORKER_RUNTIME_VERSION", "FUNCTIONS_MAX_HTTP_CONCURRENCY",
        "FUNCTIONS_WORKER_PROCESS_COUNT", "FUNCTIONS_WORKER_DYNAMIC_CONCURRENCY_ENABLED",
        "SCM_DO_BUILD_DURING_DEPLOYMENT", "WEBSITE_CONTENTAZUREFILECONNECTIONSTRING",
        "WEBSITE_CONTENTOVERVNET", "WEBSITE_CONTENTSHARE", "WEBSITE_DNS_SERVER",
        "WEBSITE_MAX_DYNAMIC_APPLICATION_SCALE_OUT", "WEBSITE_NODE_DEFAULT_VERSION",
        "WEBSITE_RUN_FROM_PACKAGE", "WEBSITE_SKIP_CONTENTSHARE_VALIDATION",
        "WEBSITE_VNET_ROUTE_ALL", "WEBSITE_TIME_ZONE", "TZ",
    }
)  # fmt: skip
#: the site properties of the same table (it names them as properties.x; they live in siteConfig)
FLEX_DEPRECATED_PROPERTIES = frozenset(
    name.lower()
    for name in (
        "alwaysOn", "containerSize", "ftpsState", "isReserved", "IsXenon", "javaVersion",
        "LinuxFxVersion", "netFrameworkVersion", "powerShellVersion", "functionAppScaleLimit",
        "preWarmedInstanceCount", "use32BitWorkerProcess", "vnetBackupRestoreEnabled",
        "vnetContentShareEnabled", "vnetImagePullEnabled", "vnetRouteAllEnabled",
        "windowsFxVersion",
    )
)  # fmt: skip


def flex_deprecation_problems(doc: BicepFile) -> list[str]:
    """Deprecated settings and properties on every Flex site (one with ``functionAppConfig``)."""
    problems = []
    for site in _flex_sites(doc):
        properties = site.body.get("properties", {})
        config = properties.get("siteConfig", {})
        for scope, body in (("properties", properties), ("siteConfig", config)):
            for key in body:
                if key.lower() in FLEX_DEPRECATED_PROPERTIES:
                    problems.append(f"{site.symbol}: {scope}.{key} is deprecated on Flex")
        for entry in config.get("appSettings", []):
            name = entry.get("name") if isinstance(entry, dict) else None
            if isinstance(name, str) and name.upper() in FLEX_DEPRECATED_SETTINGS:
                problems.append(f"{site.symbol}: app setting {name} is deprecated on Flex")
    return problems


def _flex_sites(doc: BicepFile) -> list[Resource]:
    return [
        site
        for site in doc.resources_of_type("Microsoft.Web/sites")
        if "functionAppConfig" in site.body.get("properties", {})
    ]


# ---- deletion detection needs soft delete --------------------------------------------------------


def soft_delete_rule(main: BicepFile, storage: BicepFile, data_source: dict[str, Any],
                     schedule: str) -> list[str]:  # fmt: skip
    """The documents account's defaults make the data source's deletion policy work.

    ``main`` passes ``softDeleteRetentionDays`` to the documents storage module; ``storage``
    turns it into the blob service's ``deleteRetentionPolicy`` and sets versioning; the data
    source (rendered from ``index_definitions/``) asks for native soft-delete detection; the
    indexer ``schedule`` sets how long a deletion must stay visible.
    """
    policy = (data_source.get("dataDeletionDetectionPolicy") or {}).get("@odata.type", "")
    if not policy.endswith("NativeBlobSoftDeleteDeletionDetectionPolicy"):
        return []
    days = _documents_retention_days(main)
    (service,) = storage.resources_of_type("Microsoft.Storage/storageAccounts/blobServices")
    properties = service.body.get("properties", {})
    policy_body = properties.get("deleteRetentionPolicy")
    enabled = _enabled_when_positive(policy_body)
    versioning = properties.get("isVersioningEnabled")
    return soft_delete_problems(
        enabled=enabled and bool(days), days=days, versioning=versioning is not False,
        schedule=schedule,
    )  # fmt: skip


def _documents_retention_days(main: BicepFile) -> int | None:
    """The default retention main.bicep gives the documents account (None: not a literal)."""
    (documents,) = [m for m in main.modules if m.symbol == "documentsStorage"]
    value = documents.body["params"].get("softDeleteRetentionDays")
    if isinstance(value, Expr) and value.text in main.params:
        value = main.params[value.text].default
    return value if isinstance(value, int) else None


def _enabled_when_positive(policy: Any) -> bool:
    """The storage module's policy: on (with the days) in the branch taken for days > 0."""
    if isinstance(policy, Ternary) and policy.condition == "softDeleteRetentionDays > 0":
        chosen = policy.consequence
    else:
        chosen = policy
    return (
        isinstance(chosen, dict)
        and chosen.get("enabled") is True
        and chosen.get("days") == Expr("softDeleteRetentionDays")
    )


# ---- host throttles against Flex concurrency and the scaling doc ---------------------------------

DEPLOYED_DEFAULTS = re.compile(
    r"Deployed defaults.*?`perInstanceConcurrency` (?P<concurrency>\d+).*?"
    r"`maxConcurrentRequests` (?P<requests>\d+).*?`dynamicThrottlesEnabled` (?P<throttles>\w+)",
    re.DOTALL,
)


def throttle_problems(host: dict[str, Any], concurrency: int, scaling_doc: str) -> list[str]:
    """host.json, the Flex ``perInstanceConcurrency`` default and docs/scaling.md agree.

    A CPU-bound skill keeps its core busy, so host.json's dynamic throttles (429 above ~80 %
    CPU, functions-bindings-http-webhook.md) would refuse most calls, and the indexer retries a
    429 only twice (cognitive-search-custom-skill-interface.md); the host must also never cap
    concurrent executions below what Flex routes to one instance.
    """
    http = host.get("extensions", {}).get("http", {})
    problems = []
    if http.get("dynamicThrottlesEnabled", False):
        problems.append("host.json: dynamicThrottlesEnabled answers 429 to a busy CPU-bound skill")
    requests = http.get("maxConcurrentRequests", -1)
    if requests != -1 and requests < concurrency:
        problems.append(
            f"host.json: maxConcurrentRequests {requests} is below perInstanceConcurrency "
            f"{concurrency}"
        )
    stated = DEPLOYED_DEFAULTS.search(scaling_doc)
    if stated is None:
        problems.append("docs/scaling.md: no 'Deployed defaults' sentence to check")
        return problems
    said = (
        int(stated["concurrency"]),
        int(stated["requests"]),
        stated["throttles"] == "true",
    )
    actual = (concurrency, requests, bool(http.get("dynamicThrottlesEnabled", False)))
    if said != actual:
        problems.append(f"docs/scaling.md says {said}, the files say {actual}")
    return problems
