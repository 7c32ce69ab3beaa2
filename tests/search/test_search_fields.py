"""Every field the skill sends lands somewhere in every mode, and nothing is mapped that it does
not send (the field contract of :mod:`skills.search.fields`)."""

from __future__ import annotations

from typing import Any

import pytest

from skills.chunking import ChunkOptions, chunk_document
from skills.search.fields import (
    CHILDREN,
    CONSUMED_BY_SKILLS,
    METADATA,
    PARENTS,
    SENT_CHILD,
    SENT_PARENT,
    VECTOR,
    expected_mappings,
    unused_parent_fields,
)
from skills.search.schema import key_field
from skills.search.settings import MODES, Mode, SearchSettings
from skills.search.templates import DefinitionSet, render
from skills.skill.shape import record_data


def rendered(mode: Mode) -> DefinitionSet:
    return render(mode, SearchSettings(skill_function_key="k"))


def mappings(definitions: DefinitionSet) -> dict[str, dict[str, str]]:
    """``sourceContext`` -> index field -> source, as the rendered skillset maps it."""
    return {
        selector["sourceContext"]: {m["name"]: m["source"] for m in selector["mappings"]}
        for selector in definitions.skillset["indexProjections"]["selectors"]
    }


def fields_read(definitions: DefinitionSet, level: str) -> set[str]:
    """Names of the fields at ``level`` (parents or children) a mapping or skill input reads."""
    sources = [s for selector in mappings(definitions).values() for s in selector.values()]
    for skill in definitions.skillset["skills"]:
        sources += [entry["source"] for entry in skill.get("inputs", [])]
    return {path.rsplit("/", 1)[1] for path in sources if path.rsplit("/", 1)[0] == level}


def test_the_sent_fields_are_what_the_skill_really_answers() -> None:
    source = "# A\n\n" + " ".join(f"w{i}" for i in range(300)) + "\n\n# B\n\nend."
    result = chunk_document(source, document_key="k", options=ChunkOptions(child_max_tokens=64))
    parent = record_data(result, "k")["parents"][0]
    assert set(parent) == {*SENT_PARENT, "children"}
    assert set(parent["children"][0]) == set(SENT_CHILD)


@pytest.mark.parametrize("mode", MODES)
def test_the_skillset_maps_exactly_what_the_contract_says(mode: Mode) -> None:
    assert mappings(rendered(mode)) == expected_mappings(mode)


@pytest.mark.parametrize("mode", MODES)
def test_every_child_field_sent_is_mapped_or_read_by_a_skill(mode: Mode) -> None:
    definitions = rendered(mode)
    assert set(SENT_CHILD) - fields_read(definitions, CHILDREN) == set()
    types = {skill["@odata.type"] for skill in definitions.skillset["skills"]}
    assert set(CONSUMED_BY_SKILLS.values()) <= types


@pytest.mark.parametrize("mode", MODES)
def test_every_parent_field_sent_is_mapped_unless_the_mode_says_why_not(mode: Mode) -> None:
    assert set(SENT_PARENT) - fields_read(rendered(mode), PARENTS) == unused_parent_fields(mode)


@pytest.mark.parametrize("mode", MODES)
def test_nothing_is_mapped_that_the_skill_does_not_send(mode: Mode) -> None:
    sent = {f"{CHILDREN}/{name}" for name in SENT_CHILD} | {f"{PARENTS}/{n}" for n in SENT_PARENT}
    produced = sent | set(METADATA.values()) | set(VECTOR.values())
    for selector in mappings(rendered(mode)).values():
        assert set(selector.values()) - produced == set()


@pytest.mark.parametrize("mode", MODES)
def test_every_index_field_is_filled(mode: Mode) -> None:
    definitions = rendered(mode)
    for selector in definitions.skillset["indexProjections"]["selectors"]:
        index: dict[str, Any] = definitions.indexes[selector["targetIndexName"]]
        filled = {m["name"] for m in selector["mappings"]}
        filled |= {key_field(index), selector["parentKeyFieldName"]}
        assert {f["name"] for f in index["fields"]} == filled


def test_the_contract_catches_a_dropped_field() -> None:
    definitions = rendered("files")
    selector = definitions.skillset["indexProjections"]["selectors"][0]
    selector["mappings"] = [m for m in selector["mappings"] if m["name"] != "language"]
    assert mappings(definitions) != expected_mappings("files")
    assert "language" in set(SENT_CHILD) - fields_read(definitions, CHILDREN)


@pytest.mark.parametrize("mode", MODES)
def test_every_field_the_query_selects_is_one_the_projections_fill(mode: Mode) -> None:
    """The budgeted query reads ``prefix`` and ``parentPrefix``: in ``files`` and ``layout`` they
    were selected from an index that never received them."""
    from skills.search.query import CHILD_FIELDS, EMBEDDED_PARENT_FIELDS, PARENT_FIELDS
    from skills.search.settings import parents_in_children

    definitions = rendered(mode)
    filled: dict[str, set[str]] = {}
    for selector in definitions.skillset["indexProjections"]["selectors"]:
        names = {m["name"] for m in selector["mappings"]} | {selector["parentKeyFieldName"]}
        filled[selector["sourceContext"]] = names
    children = set(CHILD_FIELDS) | (
        set(EMBEDDED_PARENT_FIELDS) if parents_in_children(mode) else set()
    )
    assert children - filled[CHILDREN] == set()
    if not parents_in_children(mode):
        assert set(PARENT_FIELDS) - filled[PARENTS] == set()
