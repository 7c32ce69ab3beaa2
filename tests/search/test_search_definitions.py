"""The rendered definitions of all four modes load into the azure-search-documents 12 models and
round-trip exactly.

Exact round-trip alone is weak (SDK 12 keeps unknown properties), so every property we write must
also be one the model declares, and every value of an enum-typed property one of the enum's
values, or the name of an analyzer, tokenizer, token filter or character filter the index itself
defines (the service's rule for custom analysis): a typo such as ``parentKeyField``,
``oneToOne`` or ``preserveOrignal`` fails here, not at deploy time.
"""

from __future__ import annotations

import enum
import sys
import typing
from datetime import timedelta
from typing import Any

import pytest
from azure.search.documents.indexes import models as sdk_models
from azure.search.documents.indexes.models import (
    AzureOpenAIEmbeddingSkill,
    IndexProjectionMode,
    ScalarQuantizationCompression,
    SearchIndex,
    SearchIndexer,
    SearchIndexerDataSourceConnection,
    SearchIndexerSkillset,
    WebApiSkill,
)

from skills.search.settings import ENVIRONMENT, MODES, Mode, SearchSettings
from skills.search.templates import (
    DEFINITIONS_DIR,
    TEMPLATE_FILES,
    TemplateError,
    load_template,
    placeholders,
    render,
    render_value,
)

MODELS: dict[str, Any] = {
    "dataSource": SearchIndexerDataSourceConnection,
    "index": SearchIndex,
    "skillset": SearchIndexerSkillset,
    "indexer": SearchIndexer,
}
AUTH = {
    "function key": SearchSettings(skill_function_key="a-function-key", container_folder="docs/"),
    "managed identity": SearchSettings(
        skill_auth_resource_id="api://00000000-0000-0000-0000-000000000001",
        container_folder="docs/",
    ),
}


def rendered(mode: Mode, auth: str) -> list[Any]:
    return list(render(mode, AUTH[auth]).items)


CASES = [
    pytest.param(mode, auth, item.template, id=f"{mode}-{auth}-{item.template}")
    for mode in MODES
    for auth in AUTH
    for item in rendered(mode, auth)
]


def _find(mode: Mode, auth: str, template: str) -> Any:
    return next(item for item in rendered(mode, auth) if item.template == template)


@pytest.mark.parametrize(("mode", "auth", "template"), CASES)
def test_definition_round_trips_through_the_sdk_model(mode: Mode, auth: str, template: str) -> None:
    item = _find(mode, auth, template)
    model = MODELS[item.kind](item.body)
    assert model.as_dict() == item.body


@pytest.mark.parametrize(("mode", "auth", "template"), CASES)
def test_every_property_is_declared_by_the_sdk_model(mode: Mode, auth: str, template: str) -> None:
    item = _find(mode, auth, template)
    assert undeclared(MODELS[item.kind](item.body), item.kind) == []


def undeclared(model: Any, path: str) -> list[str]:
    """Properties present in the model's data that its class does not declare (recursively)."""
    declared = {field._rest_name: name for name, field in model._attr_to_rest_field.items()}
    if not declared:
        return []  # a free-form map (httpHeaders): any key is allowed
    found = [f"{path}.{key}" for key in model if key not in declared]
    for rest_name, attribute in declared.items():
        if rest_name not in model:
            continue
        value = getattr(model, attribute)
        for position, item in enumerate(value if isinstance(value, list) else [value]):
            if hasattr(item, "_attr_to_rest_field"):
                found += undeclared(item, f"{path}.{rest_name}[{position}]")
    return found


@pytest.mark.parametrize(("mode", "auth", "template"), CASES)
def test_every_enum_value_is_one_the_sdk_model_knows(mode: Mode, auth: str, template: str) -> None:
    item = _find(mode, auth, template)
    defined = custom_names(item.body)
    assert bad_enum_values(MODELS[item.kind](item.body), item.kind, defined) == []


#: The index's own analysis components, which fields and analyzers refer to by name.
CUSTOM_ANALYSIS = ("analyzers", "tokenizers", "tokenFilters", "charFilters")


def custom_names(body: dict[str, Any]) -> set[str]:
    """The names of the analysis components an index definition defines itself."""
    return {part["name"].lower() for key in CUSTOM_ANALYSIS for part in body.get(key, [])}


def _enum_in(hint: Any) -> type[enum.Enum] | None:
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint
    return next(filter(None, (_enum_in(arg) for arg in typing.get_args(hint))), None)


def bad_enum_values(
    model: Any, path: str, defined: frozenset[str] | set[str] = frozenset()
) -> list[str]:
    """Values of enum-typed properties that are not values of the enum nor in ``defined`` (the
    index's own analysis names; recursively); a field type ``Collection(T)`` is checked as
    ``T``, the REST form of a collection of ``T``."""
    namespace = {**vars(sys.modules[type(model).__module__]), "_models": sdk_models}
    hints = typing.get_type_hints(type(model), globalns=namespace)
    found = []
    for attribute, rest in model._attr_to_rest_field.items():
        if rest._rest_name not in model:
            continue
        raw, kind = model[rest._rest_name], _enum_in(hints.get(attribute, Any))
        allowed = {str(member.value).lower() for member in kind} | set(defined) if kind else set()
        for value in (raw if isinstance(raw, list) else [raw]) if kind else []:
            inner = value[len("Collection(") : -1] if value.startswith("Collection(") else value
            if kind is not None and inner.lower() not in allowed:
                found.append(f"{path}.{rest._rest_name}: {value!r} not in {kind.__name__}")
        nested = getattr(model, attribute)
        for position, item in enumerate(nested if isinstance(nested, list) else [nested]):
            if hasattr(item, "_attr_to_rest_field"):
                found += bad_enum_values(item, f"{path}.{rest._rest_name}[{position}]", defined)
    return found


def test_the_enum_check_catches_a_value_the_service_does_not_know() -> None:
    body = _find("layout", "function key", "layout/skillset.json").body
    body["skills"][0]["outputMode"] = "oneToOne"
    problems = bad_enum_values(SearchIndexerSkillset(body), "skillset")
    assert problems == [
        "skillset.skills[0].outputMode: 'oneToOne' not in DocumentIntelligenceLayoutSkillOutputMode"
    ]


def test_the_enum_check_catches_an_analyzer_the_index_does_not_define() -> None:
    body = _find("embedded", "function key", "embedded/index-children.json").body
    text = next(field for field in body["fields"] if field["name"] == "text")
    text["analyzer"] = "identifier"  # not "identifiers"
    body["analyzers"][0]["tokenFilters"][0] = "identifier-parts"
    problems = bad_enum_values(SearchIndex(body), "index", custom_names(body))
    assert problems == [
        "index.fields[9].analyzer: 'identifier' not in LexicalAnalyzerName",
        "index.analyzers[0].tokenFilters: 'identifier-parts' not in TokenFilterName",
    ]


def test_undeclared_catches_a_misspelt_token_filter_property() -> None:
    body = _find("reference", "function key", "reference/index-children.json").body
    body["tokenFilters"][0]["preserveOrignal"] = True
    assert undeclared(SearchIndex(body), "index") == ["index.tokenFilters[0].preserveOrignal"]


@pytest.mark.parametrize("mode", MODES)
def test_every_searchable_text_field_is_analyzed_as_the_ranking_mirrors(mode: Mode) -> None:
    # the evaluation and the simulation rank with skills.ranking's mirror of this analyzer: the
    # definition the index declares is exactly the one mirrored, on every searchable text field
    from skills.ranking import ANALYZERS, DEFAULT_ANALYZER, IDENTIFIERS_DEFINITION

    for index in render(mode, SearchSettings()).indexes.values():
        assert {key: index[key] for key in IDENTIFIERS_DEFINITION} == IDENTIFIERS_DEFINITION
        for field in index["fields"]:
            if "Edm.String" in field["type"] and field.get("searchable") and not field.get("key"):
                assert field["analyzer"] == DEFAULT_ANALYZER, field["name"]
    assert IDENTIFIERS_DEFINITION["analyzers"][0]["name"] == DEFAULT_ANALYZER
    assert DEFAULT_ANALYZER in ANALYZERS


def test_undeclared_catches_a_misspelt_property() -> None:
    body = _find("embedded", "function key", "embedded/skillset.json").body
    body["indexProjections"]["selectors"][0]["parentKeyField"] = "documentKey"
    problems = undeclared(SearchIndexerSkillset(body), "skillset")
    assert problems == ["skillset.indexProjections[0].selectors[0].parentKeyField"]


@pytest.mark.parametrize("mode", MODES)
def test_sdk_reads_the_typed_values_we_mean(mode: Mode) -> None:
    definitions = render(mode, SearchSettings(dimensions=256, skill_function_key="k"))
    skillset = SearchIndexerSkillset(definitions.skillset)
    *_, web_api, embedding = skillset.skills  # layout: the Document Layout skill comes first
    assert isinstance(web_api, WebApiSkill)
    assert web_api.timeout == timedelta(seconds=230)
    assert isinstance(embedding, AzureOpenAIEmbeddingSkill)
    assert embedding.dimensions == 256
    assert skillset.index_projection is not None
    assert skillset.index_projection.parameters is not None
    mode_value = skillset.index_projection.parameters.projection_mode
    assert mode_value == IndexProjectionMode.SKIP_INDEXING_PARENT_DOCUMENTS
    children = SearchIndex(definitions.indexes[definitions.indexer["targetIndexName"]])
    vector = next(f for f in children.fields if f.name == "vector")
    assert vector.vector_search_dimensions == 256
    assert children.vector_search is not None and children.vector_search.compressions
    compression = children.vector_search.compressions[0]
    assert isinstance(compression, ScalarQuantizationCompression)
    assert compression.parameters is not None and compression.rescoring_options is not None
    assert compression.parameters.quantized_data_type == "int8"
    assert compression.rescoring_options.enable_rescoring is True


def test_function_key_goes_in_a_header_and_no_auth_resource_id() -> None:
    skill = render("embedded", SearchSettings(skill_function_key="k")).skillset["skills"][0]
    assert skill["httpHeaders"] == {"x-functions-key": "k"}
    assert "authResourceId" not in skill


def test_managed_identity_sends_auth_resource_id_and_no_header() -> None:
    settings = SearchSettings(skill_auth_resource_id="api://app")
    skill = render("reference", settings).skillset["skills"][0]
    assert skill["authResourceId"] == "api://app"
    assert "httpHeaders" not in skill


def test_every_placeholder_has_a_setting_and_every_setting_is_used() -> None:
    used: set[str] = set()
    for files in TEMPLATE_FILES.values():
        for _, relative in files:
            used |= placeholders(load_template(relative))
    available = set(SearchSettings().template_values("embedded"))
    assert used == available


def test_every_template_file_is_used_by_a_mode() -> None:
    on_disk = {str(p.relative_to(DEFINITIONS_DIR)) for p in DEFINITIONS_DIR.rglob("*.json")}
    used = {relative for files in TEMPLATE_FILES.values() for _, relative in files}
    assert on_disk == used


def test_each_setting_has_an_environment_variable() -> None:
    attributes = set(SearchSettings.__dataclass_fields__)
    assert set(ENVIRONMENT.values()) == attributes


def test_whole_placeholder_keeps_the_type_and_inline_placeholder_becomes_text() -> None:
    assert render_value({"n": "{{n}}", "s": "a{{n}}b"}, {"n": 7}) == {"n": 7, "s": "a7b"}


def test_inline_placeholder_without_value_is_an_error() -> None:
    with pytest.raises(TemplateError, match="has no value"):
        render_value("x-{{missing}}", {"missing": None})


def test_unknown_placeholder_is_an_error_naming_it() -> None:
    with pytest.raises(TemplateError, match="unknown placeholder"):
        render_value("{{nope}}", {"n": 1})


@pytest.mark.parametrize("mode", MODES)
def test_the_query_names_the_semantic_configuration_and_vector_field_the_index_has(
    mode: str,
) -> None:
    from skills.search.azure import SEMANTIC_CONFIGURATION, VECTOR_FIELD
    from skills.search.query import CHILD_FIELDS, EMBEDDED_PARENT_FIELDS, PARENT_FIELDS

    definitions = render(mode, SearchSettings())  # type: ignore[arg-type]
    children = definitions.indexes[definitions.indexer["targetIndexName"]]
    names = {config["name"] for config in children["semantic"]["configurations"]}
    assert SEMANTIC_CONFIGURATION in names
    fields = {f["name"]: f for f in children["fields"]}
    assert fields[VECTOR_FIELD]["type"] == "Collection(Edm.Single)"
    selected = CHILD_FIELDS + (EMBEDDED_PARENT_FIELDS if mode == "embedded" else ())
    assert all(fields[name].get("retrievable", True) for name in selected)
    if mode == "reference":
        parents = next(i for n, i in definitions.indexes.items() if n != children["name"])
        parent_fields = {f["name"] for f in parents["fields"]}
        assert set(PARENT_FIELDS) <= parent_fields
