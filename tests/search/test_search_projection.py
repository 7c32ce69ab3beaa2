"""Enrichment paths, index projections and schema validation: the simulation's building blocks."""

from __future__ import annotations

from typing import Any

import pytest

from skills.search.enrichment import PathError, instances, is_reachable, leaf_paths, resolve, set_at
from skills.search.projection import project
from skills.search.schema import validate_document

C = "/document/parents/*/children/*"


def tree() -> dict[str, Any]:
    return {
        "content": "AB CD",
        "metadata_storage_name": "f.md",
        "parents": [
            {"id": "p0", "text": "AB",
             "children": [{"id": "c0", "text": "A"}, {"id": "c1", "text": "B"}]},
            {"id": "p1", "text": "CD", "children": [{"id": "c2", "text": "CD"}]},
        ],
    }  # fmt: skip


def test_instances_bind_every_star_in_tree_order() -> None:
    assert [(bound, node["id"]) for bound, node in instances(tree(), C)] == [
        ((0, 0), "c0"), ((0, 1), "c1"), ((1, 0), "c2"),
    ]  # fmt: skip


def test_a_child_reads_its_own_parent_through_an_ancestor_path() -> None:
    assert resolve(tree(), "/document/parents/*/text", (1, 0), C) == "CD"
    assert resolve(tree(), "/document/metadata_storage_name", (1, 0), C) == "f.md"


def test_a_path_below_another_array_cannot_be_read_from_a_higher_context() -> None:
    assert not is_reachable(C + "/id", "/document/parents/*")
    with pytest.raises(PathError, match="cannot be read"):
        resolve(tree(), C + "/id", (0,), "/document/parents/*")


def test_missing_nodes_read_as_none() -> None:
    assert resolve(tree(), C + "/pages", (0, 0), C) is None


def test_a_skill_output_cannot_overwrite_a_node() -> None:
    document = tree()
    set_at(document, C, (0, 1), "vector", [1.0])
    assert document["parents"][0]["children"][1]["vector"] == [1.0]
    with pytest.raises(PathError, match="already exists"):
        set_at(document, C, (0, 1), "text", "x")


def test_leaf_paths_turn_object_arrays_into_stars_and_keep_scalar_lists() -> None:
    document = tree()
    document["parents"][1]["children"][0]["pages"] = [3]
    paths = leaf_paths(document)
    assert paths[C + "/id"] == "c0"
    assert paths[C + "/pages"] == [3]  # the informative example wins over a missing one
    assert "/document/parents/*/text" in paths


PROJECTIONS = {
    "selectors": [
        {
            "targetIndexName": "children", "parentKeyFieldName": "doc", "sourceContext": C,
            "mappings": [{"name": "chunkId", "source": C + "/id"},
                         {"name": "parentText", "source": "/document/parents/*/text"}],
        },
        {
            "targetIndexName": "parents", "parentKeyFieldName": "doc",
            "sourceContext": "/document/parents/*",
            "mappings": [{"name": "parentChunkId", "source": "/document/parents/*/id"}],
        },
    ]
}  # fmt: skip


def test_projection_writes_one_document_per_context_node_with_ancestor_values() -> None:
    out = project(tree(), "KEY", PROJECTIONS, {"children": "id", "parents": "id"})
    assert [(d["chunkId"], d["parentText"], d["doc"]) for d in out["children"]] == [
        ("c0", "AB", "KEY"), ("c1", "AB", "KEY"), ("c2", "CD", "KEY"),
    ]  # fmt: skip
    assert [d["parentChunkId"] for d in out["parents"]] == ["p0", "p1"]


def test_generated_keys_name_the_path_and_change_with_the_content() -> None:
    first = project(tree(), "KEY", PROJECTIONS, {"children": "id", "parents": "id"})
    changed = tree()
    changed["content"] = "AB CD!"
    second = project(changed, "KEY", PROJECTIONS, {"children": "id", "parents": "id"})
    key = first["children"][2]["id"]
    assert key.endswith("_KEY_parents_1_children_0")
    assert key != second["children"][2]["id"]
    assert first["children"][2]["chunkId"] == second["children"][2]["chunkId"]


INDEX = {
    "fields": [
        {"name": "id", "type": "Edm.String", "key": True},
        {"name": "n", "type": "Edm.Int32"},
        {"name": "tags", "type": "Collection(Edm.String)", "filterable": True},
        {"name": "long", "type": "Edm.String", "filterable": True},
        {"name": "free", "type": "Edm.String", "filterable": False, "sortable": False,
         "facetable": False},
        {"name": "v", "type": "Collection(Edm.Single)", "dimensions": 2},
    ]
}  # fmt: skip


def test_a_valid_document_passes() -> None:
    doc = {"id": "a_b-c=", "n": 3, "tags": ["x"], "long": "s", "free": "x" * 40000, "v": [0.1, 1]}
    assert validate_document(INDEX, doc) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"id": "a/b"}, "key 'id'"),
        ({"extra": 1}, "not in the index"),
        ({"n": 2**31}, "outside Int32"),
        ({"n": True}, "expected an integer"),
        ({"tags": "x"}, "expected a list"),
        ({"long": "x" * 40000}, "32 KB term limit"),
        ({"v": [0.1, 0.2, 0.3]}, "2 dimensions"),
        ({"v": ["a", "b"]}, "expected a number"),
    ],
)
def test_each_schema_rule_is_enforced(change: dict[str, Any], expected: str) -> None:
    problems = validate_document(INDEX, {"id": "a", **change})
    assert any(expected in problem for problem in problems), problems
