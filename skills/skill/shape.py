"""The engine's result as the skill's output ``data``: parents, each with its children.

The shape is the same for every strategy, so one set of index projections works for all of them:
``/document/parents/*`` for a parents index, ``/document/parents/*/children/*`` for the children.
Flat strategies (``fixed``, ``recursive``, ``structural``) have no parents; each leaf is then
wrapped in a parent of the same span, with the leaf's id plus :data:`WRAPPER_SUFFIX` as its id. A
leaf whose ``parent_id`` names no parent is wrapped the same way: nothing is ever dropped.

Hierarchical: ``{"parents": [{"id": P, ..., "children": [{"id": C, "parentId": P}, ...]}]}``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from skills.chunking import Chunk, Chunking

#: Appended to a leaf id to name the parent that wraps it; keeps ids valid Azure Search keys.
WRAPPER_SUFFIX = "-w"


def record_data(result: Chunking, document_key: str) -> dict[str, Any]:
    """``{"documentKey": ..., "parents": [{...parent, "children": [...]}, ...]}``."""
    return {"documentKey": document_key, "parents": parents_with_children(result)}


def parents_with_children(result: Chunking) -> list[dict[str, Any]]:
    """Every leaf exactly once, under its parent or under a wrapper of its own span."""
    by_parent: dict[str, list[Chunk]] = defaultdict(list)
    known = {parent.id for parent in result.parents}
    orphans: list[Chunk] = []
    for leaf in result.leaves:
        if leaf.parent_id is not None and leaf.parent_id in known:
            by_parent[leaf.parent_id].append(leaf)
        else:
            orphans.append(leaf)
    shaped = [_parent(parent, by_parent[parent.id]) for parent in result.parents]
    if orphans:
        shaped.extend(_wrapper(leaf) for leaf in orphans)
        shaped.sort(key=lambda chunk: (chunk["start"], chunk["end"]))
    return shaped


def _parent(parent: Chunk, children: list[Chunk]) -> dict[str, Any]:
    out = parent.to_dict()
    out["children"] = [child.to_dict() for child in children]
    return out


def _wrapper(leaf: Chunk) -> dict[str, Any]:
    """A level-0 parent with the leaf's span and content, holding that one leaf."""
    wrapper_id = leaf.id + WRAPPER_SUFFIX
    out = leaf.to_dict()
    out.update(id=wrapper_id, parentId=None, level=0)
    child = leaf.to_dict()
    child["parentId"] = wrapper_id
    out["children"] = [child]
    return out
