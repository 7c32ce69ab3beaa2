"""Cross-checks between the data source, indexes, skillset and indexer of one mode.

Each check is a mistake users make most with index projections (see the team notes §2, §3, §8):
a mapping that reads a path the skill never emits, a field mapped onto the key or the parent key,
a field that does not exist or has the wrong type, vector dimensions that differ from the
embedding skill's, long text that is filterable. The service reports some of these only when the
indexer runs, hours after the deploy; here they fail a test.

``emitted`` is the path vocabulary of a real enriched document (from
:func:`skills.search.enrichment.leaf_paths`): run the skill on real files to get it, never write
it by hand.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from skills.search.enrichment import is_reachable, segments
from skills.search.schema import check_value, key_field
from skills.search.templates import DefinitionSet

LONG_TEXT_LEAVES = frozenset({"text", "embedText", "content", "parentText"})
EMBEDDING_SKILL = "#Microsoft.Skills.Text.AzureOpenAIEmbeddingSkill"


def cross_check(definitions: DefinitionSet, emitted: Mapping[str, Any]) -> list[str]:
    """Every problem found, as sentences a user can act on; empty when all holds."""
    return [
        *_projection_sources(definitions, emitted),
        *_mapped_fields(definitions, emitted),
        *_key_rules(definitions),
        *_unmapped_fields(definitions),
        *_vector_rules(definitions),
        *_long_text_rules(definitions),
        *_parent_text_rules(definitions),
        *_semantic_rules(definitions),
        *_wiring(definitions),
    ]


def _selectors(definitions: DefinitionSet) -> list[dict[str, Any]]:
    return list(definitions.skillset.get("indexProjections", {}).get("selectors", []))


def _mappings(definitions: DefinitionSet) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    for selector in _selectors(definitions):
        for mapping in selector["mappings"]:
            yield selector, mapping


def _projection_sources(definitions: DefinitionSet, emitted: Mapping[str, Any]) -> Iterator[str]:
    for selector, mapping in _mappings(definitions):
        source, context = mapping["source"], selector["sourceContext"]
        if source not in emitted:
            yield f"mapping {mapping['name']!r}: {source} is not a path the enrichment emits"
        elif not is_reachable(source, context):
            yield f"mapping {mapping['name']!r}: {source} cannot be read from context {context}"


def _mapped_fields(definitions: DefinitionSet, emitted: Mapping[str, Any]) -> Iterator[str]:
    indexes = definitions.indexes
    for selector, mapping in _mappings(definitions):
        index = indexes.get(selector["targetIndexName"])
        if index is None:
            continue  # reported by _wiring
        field = _field(index, mapping["name"])
        if field is None:
            yield f"mapping {mapping['name']!r}: no such field in index {index['name']}"
            continue
        example = emitted.get(mapping["source"])
        for problem in check_value(field, example) if example is not None else []:
            yield f"mapping {mapping['name']!r} from {mapping['source']}: {problem}"


def _targets(definitions: DefinitionSet) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Each selector with its target index (selectors aiming elsewhere are _wiring's problem)."""
    for selector in _selectors(definitions):
        index = definitions.indexes.get(selector["targetIndexName"])
        if index is not None:
            yield selector, index


def _key_rules(definitions: DefinitionSet) -> Iterator[str]:
    for selector, index in _targets(definitions):
        key = _field(index, key_field(index)) or {}
        mapped = {mapping["name"] for mapping in selector["mappings"]}
        if key.get("type") != "Edm.String" or key.get("analyzer") != "keyword":
            yield f"{index['name']}: the key must be an Edm.String with the keyword analyzer"
        if key.get("name") in mapped:
            yield f"{index['name']}: nothing may be mapped onto the key field {key.get('name')!r}"
        parent_key = _field(index, selector["parentKeyFieldName"])
        if parent_key is None:
            yield f"{index['name']}: parentKeyFieldName {selector['parentKeyFieldName']!r} missing"
            continue
        if parent_key.get("key") or parent_key["type"] != "Edm.String":
            yield f"{index['name']}: the parent key field must be a non-key Edm.String"
        if not parent_key.get("filterable"):
            yield f"{index['name']}: the parent key field must be filterable"
        if parent_key["name"] in mapped:
            yield f"{index['name']}: the parent key field is filled by the service, do not map it"


def _unmapped_fields(definitions: DefinitionSet) -> Iterator[str]:
    for selector, index in _targets(definitions):
        filled = {m["name"] for m in selector["mappings"]}
        filled |= {key_field(index), selector["parentKeyFieldName"]}
        for field in index["fields"]:
            if field["name"] not in filled:
                yield f"{index['name']}: field {field['name']!r} is never mapped (stays null)"


def _vector_rules(definitions: DefinitionSet) -> Iterator[str]:
    embedding = [s for s in definitions.skillset["skills"] if s["@odata.type"] == EMBEDDING_SKILL]
    if len(embedding) != 1:
        yield "the skillset must have exactly one Azure OpenAI embedding skill"
        return
    skill = embedding[0]
    for index in definitions.indexes.values():
        search = index.get("vectorSearch", {})
        profiles = {p["name"]: p for p in search.get("profiles", [])}
        vectorizers = {v["name"]: v for v in search.get("vectorizers", [])}
        for field in index["fields"]:
            if field["type"] != "Collection(Edm.Single)":
                continue
            if field.get("dimensions") != skill.get("dimensions"):
                yield (
                    f"{index['name']}.{field['name']}: {field.get('dimensions')} dimensions, "
                    f"the embedding skill makes {skill.get('dimensions')}"
                )
            profile = profiles.get(field.get("vectorSearchProfile", ""))
            vectorizer = vectorizers.get((profile or {}).get("vectorizer", ""))
            if vectorizer is None:
                yield f"{index['name']}.{field['name']}: no vectorizer for text queries"
                continue
            parameters = vectorizer.get("azureOpenAIParameters", {})
            for name in ("resourceUri", "deploymentId", "modelName"):
                if parameters.get(name) != skill.get(name):
                    yield f"{index['name']}: vectorizer {name} differs from the embedding skill's"


def _long_text_rules(definitions: DefinitionSet) -> Iterator[str]:
    for selector, mapping in _mappings(definitions):
        if segments(mapping["source"])[-1] not in LONG_TEXT_LEAVES:
            continue
        field = _field(definitions.indexes.get(selector["targetIndexName"], {}), mapping["name"])
        flags = [f for f in ("filterable", "sortable", "facetable") if (field or {}).get(f, True)]
        if field is not None and flags:
            yield f"{selector['targetIndexName']}.{field['name']} holds long text but is {flags}"


def _parent_text_rules(definitions: DefinitionSet) -> Iterator[str]:
    """A parent's text copied into each child is for reading only (mode ``embedded``)."""
    for selector, mapping in _mappings(definitions):
        source = segments(mapping["source"])
        context_depth = segments(selector["sourceContext"]).count("*")
        if source[-1] != "text" or source.count("*") >= context_depth:
            continue
        field = _field(definitions.indexes.get(selector["targetIndexName"], {}), mapping["name"])
        if field is None:
            continue
        wrong = [
            f for f in ("searchable", "filterable", "sortable", "facetable") if field.get(f, True)
        ]
        if wrong or not field.get("retrievable", True):
            yield f"{selector['targetIndexName']}.{field['name']}: parent text is retrievable-only"


def _semantic_rules(definitions: DefinitionSet) -> Iterator[str]:
    for index in definitions.indexes.values():
        for config in index.get("semantic", {}).get("configurations", []):
            prioritized = config["prioritizedFields"]
            names = [prioritized.get("titleField", {}).get("fieldName")]
            names += [f["fieldName"] for f in prioritized.get("prioritizedContentFields", [])]
            names += [f["fieldName"] for f in prioritized.get("prioritizedKeywordsFields", [])]
            for name in filter(None, names):
                field = _field(index, name)
                if field is None or "Edm.String" not in field["type"]:
                    yield f"{index['name']}: semantic field {name!r} must be a string field"
                elif not field.get("searchable", True) or not field.get("retrievable", True):
                    yield f"{index['name']}: semantic field {name!r} must be searchable+retrievable"


def _wiring(definitions: DefinitionSet) -> Iterator[str]:
    indexer, skillset = definitions.indexer, definitions.skillset
    if indexer["dataSourceName"] != definitions.data_source["name"]:
        yield "the indexer reads a data source that is not in this set"
    if indexer["skillsetName"] != skillset["name"]:
        yield "the indexer runs a skillset that is not in this set"
    targets = {s["targetIndexName"] for s in _selectors(definitions)}
    if indexer["targetIndexName"] not in targets:
        yield "the indexer's target index must be one of the projection targets"
    for target in targets - set(definitions.indexes):
        yield f"a projection targets {target!r}, which is not in this set"
    mode = skillset.get("indexProjections", {}).get("parameters", {}).get("projectionMode")
    if mode != "skipIndexingParentDocuments":
        yield "projectionMode must be skipIndexingParentDocuments (else one empty doc per file)"
    if definitions.data_source.get("dataDeletionDetectionPolicy") is None:
        yield "without a deletion detection policy, deleting a file leaves its chunks behind"


def _field(index: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((f for f in index.get("fields", []) if f["name"] == name), None)
