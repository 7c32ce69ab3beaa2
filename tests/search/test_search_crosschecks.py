"""The pieces fit together: checked against what the skill really emits for the samples.

The path vocabulary comes from running the real skill (over HTTP, as the indexer calls it) on
``samples/`` and embedding its children; then each common mistake is made on purpose, one at a
time, and the cross-check must name it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from search_fixtures import MODES, SAMPLES, HashEmbedder, enrich, local_definitions

from skills.search.checks import cross_check
from skills.search.enrichment import leaf_paths
from skills.search.local_run import skill_server
from skills.search.settings import Mode
from skills.search.templates import Definition, DefinitionSet

DIMENSIONS = 12


@pytest.fixture(scope="module")
def skill_url() -> Iterator[str]:
    with skill_server() as url:
        yield url


@pytest.fixture(scope="module")
def emitted(skill_url: str) -> dict[Mode, dict[str, Any]]:
    """Mode -> every path (with an example value) of the samples' real enriched trees."""
    vocabulary: dict[Mode, dict[str, Any]] = {}
    for mode in MODES:
        found: dict[str, Any] = {}
        for document in enrich(
            local_definitions(mode, skill_url, DIMENSIONS), HashEmbedder(DIMENSIONS)
        ):
            for path, value in leaf_paths(document.tree).items():
                if found.get(path) in (None, [], ""):
                    found[path] = value
        vocabulary[mode] = found
    return vocabulary


def test_the_samples_exist() -> None:
    assert len(SAMPLES) >= 2


@pytest.mark.parametrize("mode", MODES)
def test_definitions_pass_every_cross_check(
    mode: Mode, skill_url: str, emitted: dict[Mode, dict[str, Any]]
) -> None:
    definitions = local_definitions(mode, skill_url, DIMENSIONS)
    assert cross_check(definitions, emitted[mode]) == []


@pytest.mark.parametrize("mode", MODES)
def test_the_skill_emits_every_projected_path_with_a_value(
    mode: Mode, skill_url: str, emitted: dict[Mode, dict[str, Any]]
) -> None:
    definitions = local_definitions(mode, skill_url, DIMENSIONS)
    sources = {
        m["source"]
        for s in definitions.skillset["indexProjections"]["selectors"]
        for m in s["mappings"]
    }
    assert sources <= set(emitted[mode])
    assert all(emitted[mode][source] is not None for source in sources)


def _edit(definitions: DefinitionSet, change: Callable[[DefinitionSet], object]) -> DefinitionSet:
    copied = DefinitionSet(
        definitions.mode,
        tuple(Definition(i.kind, i.template, copy.deepcopy(i.body)) for i in definitions.items),
    )
    change(copied)
    return copied


def _children(d: DefinitionSet) -> dict[str, Any]:
    return d.indexes[d.indexer["targetIndexName"]]


def _field(d: DefinitionSet, name: str) -> dict[str, Any]:
    return next(f for f in _children(d)["fields"] if f["name"] == name)


def _mappings(d: DefinitionSet) -> list[dict[str, Any]]:
    mappings: list[dict[str, Any]] = d.skillset["indexProjections"]["selectors"][0]["mappings"]
    return mappings


def _mapping(d: DefinitionSet, name: str) -> dict[str, Any]:
    return next(m for m in _mappings(d) if m["name"] == name)


def _embedding(d: DefinitionSet) -> dict[str, Any]:
    skill: dict[str, Any] = d.skillset["skills"][1]
    return skill


MISTAKES: dict[str, tuple[Callable[[DefinitionSet], object], str]] = {
    "source the skill never emits": (
        lambda d: _mapping(d, "text").update(source="/document/parents/*/children/*/content"),
        "is not a path the enrichment emits",
    ),
    "context above the mapped children": (
        lambda d: d.skillset["indexProjections"]["selectors"][0].update(
            sourceContext="/document/parents/*"
        ),
        "cannot be read from context /document/parents/*",
    ),
    "mapping onto the key": (
        lambda d: d.skillset["indexProjections"]["selectors"][0]["mappings"].append(
            {"name": "id", "source": "/document/parents/*/children/*/id"}
        ),
        "nothing may be mapped onto the key field",
    ),
    "mapping the parent key": (
        lambda d: d.skillset["indexProjections"]["selectors"][0]["mappings"].append(
            {"name": "documentKey", "source": "/document/metadata_storage_path"}
        ),
        "filled by the service, do not map it",
    ),
    "key without keyword analyzer": (
        lambda d: _field(d, "id").pop("analyzer"),
        "keyword analyzer",
    ),
    "field missing from the index": (
        lambda d: _children(d)["fields"].remove(_field(d, "ordinal")),
        "no such field",
    ),
    "incompatible type": (
        lambda d: _field(d, "ordinal").update(type="Edm.String"),
        "expected a string, got int",
    ),
    "field never mapped": (
        lambda d: _mappings(d).remove(_mapping(d, "pages")),
        "never mapped",
    ),
    "dimensions differ from the embedding skill": (
        lambda d: _embedding(d).update(dimensions=DIMENSIONS + 1),
        "dimensions",
    ),
    "vectorizer on another deployment": (
        lambda d: _children(d)["vectorSearch"]["vectorizers"][0]["azureOpenAIParameters"].update(
            deploymentId="other"
        ),
        "vectorizer deploymentId",
    ),
    "long text filterable": (
        lambda d: _field(d, "text").update(filterable=True),
        "holds long text",
    ),
    "long text with REST defaults": (
        lambda d: [_field(d, "text").pop(flag) for flag in ("sortable", "facetable")],
        "holds long text",
    ),
    "semantic field not searchable": (
        lambda d: _field(d, "headings").update(searchable=False),
        "semantic field 'headings'",
    ),
    "projection mode includes parents": (
        lambda d: d.skillset["indexProjections"]["parameters"].update(
            projectionMode="includeIndexingParentDocuments"
        ),
        "skipIndexingParentDocuments",
    ),
    "no deletion detection": (
        lambda d: d.data_source.pop("dataDeletionDetectionPolicy"),
        "deletion detection",
    ),
    "indexer on another skillset": (
        lambda d: d.indexer.update(skillsetName="other"),
        "skillset that is not in this set",
    ),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_cross_check_names_the_mistake(
    mode: Mode, mistake: str, skill_url: str, emitted: dict[Mode, dict[str, Any]]
) -> None:
    change, expected = MISTAKES[mistake]
    broken = _edit(local_definitions(mode, skill_url, DIMENSIONS), change)
    problems = cross_check(broken, emitted[mode])
    assert problems, f"{mistake} went unnoticed"
    assert any(expected in problem for problem in problems), problems


def test_embedded_parent_text_must_be_retrievable_only(
    skill_url: str, emitted: dict[Mode, dict[str, Any]]
) -> None:
    broken = _edit(
        local_definitions("embedded", skill_url, DIMENSIONS),
        lambda d: _field(d, "parentText").update(searchable=True),
    )
    problems = cross_check(broken, emitted["embedded"])
    assert any("parentText: parent text is retrievable-only" in p for p in problems), problems


def test_embedded_parent_text_with_rest_defaults_is_caught(
    skill_url: str, emitted: dict[Mode, dict[str, Any]]
) -> None:
    def strip_flags(d: DefinitionSet) -> None:
        field = _field(d, "parentText")
        for flag in ("searchable", "filterable", "sortable", "facetable"):
            field.pop(flag)

    broken = _edit(local_definitions("embedded", skill_url, DIMENSIONS), strip_flags)
    problems = cross_check(broken, emitted["embedded"])
    assert any("parentText" in p for p in problems), problems


def test_reference_parents_index_holds_parent_text_once_per_parent(
    skill_url: str, emitted: dict[Mode, dict[str, Any]]
) -> None:
    definitions = local_definitions("reference", skill_url, DIMENSIONS)
    selectors = definitions.skillset["indexProjections"]["selectors"]
    contexts = {s["targetIndexName"]: s["sourceContext"] for s in selectors}
    assert sorted(contexts.values()) == ["/document/parents/*", "/document/parents/*/children/*"]
    children = _children(definitions)
    assert all(f["name"] != "parentText" for f in children["fields"])
