"""Shaping the engine's result: one projection shape for every strategy, nothing dropped."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from skills.chunking import Chunking, ChunkOptions, chunk_document
from skills.local.devserver import PROJECT_ROOT
from skills.skill.contract import ChildOut, ParentOut
from skills.skill.shape import WRAPPER_SUFFIX, parents_with_children, record_data

SOURCE = "\n\n".join(
    f"# Part {n}\n\n" + " ".join(f"w{n}x{i}" for i in range(150)) for n in range(3)
)


def hierarchical() -> Chunking:
    result = chunk_document(SOURCE, document_key="k", options=ChunkOptions(child_max_tokens=64))
    assert len(result.parents) >= 2 and len(result.leaves) > len(result.parents)
    return result


def leaf_ids(shaped: list[dict[str, Any]]) -> list[str]:
    return [child["id"] for parent in shaped for child in parent["children"]]


def test_leaves_go_under_their_parent_in_order() -> None:
    result = hierarchical()
    shaped = parents_with_children(result)
    assert [p["id"] for p in shaped] == [p.id for p in result.parents]
    assert leaf_ids(shaped) == [leaf.id for leaf in result.leaves]
    for parent in shaped:
        children = [leaf.id for leaf in result.leaves if leaf.parent_id == parent["id"]]
        assert [child["id"] for child in parent["children"]] == children


def test_a_leaf_without_a_known_parent_is_wrapped_not_dropped() -> None:
    result = hierarchical()
    orphan = replace(result.leaves[-1], parent_id="gone")
    shaped = parents_with_children(replace(result, leaves=(*result.leaves[:-1], orphan)))
    assert sorted(leaf_ids(shaped)) == sorted(leaf.id for leaf in result.leaves)
    (wrapper,) = [p for p in shaped if p["id"] == orphan.id + WRAPPER_SUFFIX]
    assert wrapper["children"][0]["id"] == orphan.id
    assert (wrapper["start"], wrapper["end"], wrapper["text"]) == (
        orphan.start,
        orphan.end,
        orphan.text,
    )


def test_wrappers_are_sorted_among_parents_by_position() -> None:
    result = hierarchical()
    orphan = replace(result.leaves[0], parent_id=None)
    shaped = parents_with_children(replace(result, leaves=(orphan, *result.leaves[1:])))
    starts = [p["start"] for p in shaped]
    assert starts == sorted(starts)


def test_a_parent_without_leaves_is_kept_with_no_children() -> None:
    result = hierarchical()
    shaped = parents_with_children(replace(result, leaves=()))
    assert len(shaped) == len(result.parents)
    assert all(parent["children"] == [] for parent in shaped)


def test_record_data_carries_the_document_key() -> None:
    assert record_data(Chunking((), (), "text"), "docs/a.md") == {
        "documentKey": "docs/a.md",
        "parents": [],
    }


def _sources(node: object) -> set[str]:
    """Every ``source`` path a skillset definition reads (skill inputs and projection mappings)."""
    if isinstance(node, dict):
        found = {node["source"]} if isinstance(node.get("source"), str) else set()
        return found.union(*(_sources(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_sources(value) for value in node))
    return set()


def test_every_field_sent_is_read_by_a_shipped_skillset() -> None:
    read: set[str] = set()
    for skillset in sorted((PROJECT_ROOT / "index_definitions").glob("*/skillset.json")):
        read |= _sources(json.loads(skillset.read_text(encoding="utf-8")))
    sent = {f"/document/parents/*/{name}" for name in ParentOut.model_fields} - {
        "/document/parents/*/children"
    }
    sent |= {f"/document/parents/*/children/*/{name}" for name in ChildOut.model_fields}
    assert sent - read == set()
    shaped = parents_with_children(hierarchical())
    assert set(shaped[0]) == set(ParentOut.model_fields)
    assert set(shaped[0]["children"][0]) == set(ChildOut.model_fields)
