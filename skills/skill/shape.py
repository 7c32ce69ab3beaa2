"""The engine's result as the skill's output ``data``: parents, each with its children.

The shape is the same for every strategy, so one set of index projections works for all of them:
``/document/parents/*`` for a parents index, ``/document/parents/*/children/*`` for the children.
Flat strategies (``fixed``, ``recursive``, ``structural``) have no parents; each leaf is then
wrapped in a parent of the same span, with the leaf's id plus :data:`WRAPPER_SUFFIX` as its id. A
leaf whose ``parent_id`` names no parent is wrapped the same way: nothing is ever dropped.

Only what something downstream reads is sent (an answer is several times its input, and every
byte is built, held, serialised and sent while the indexer waits): the fields the index
projections of ``index_definitions/`` map (a child's ``context`` note among them, empty without
one, and its ``prefix``, which the query sends before a passage), and a child's ``embedText`` for
the embedding skill.
A parent's ``embedText``, every ``tokens``, ``level`` and a child's ``parentId`` (nesting says it)
are not: they were 1.9 of the 7.6 bytes an answer weighed per input byte (``docs/skill.md``).

Hierarchical: ``{"parents": [{"id": P, "text": ..., "children": [{"id": C, ...}, ...]}]}``.
Every child also carries the document's ``language`` (``"python"``, ... for source code, null for
the other formats), which the children index keeps as a filterable field.
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
    shaped = [
        _parent(parent, parent.id, by_parent[parent.id], result.language)
        for parent in result.parents
    ]
    if orphans:
        shaped.extend(
            _parent(leaf, leaf.id + WRAPPER_SUFFIX, [leaf], result.language) for leaf in orphans
        )
        shaped.sort(key=lambda chunk: (chunk["start"], chunk["end"]))
    return shaped


def _parent(
    parent: Chunk, parent_id: str, children: list[Chunk], language: str | None
) -> dict[str, Any]:
    """A parent's projected fields and its children; a wrapper takes its one leaf's span."""
    out = _common(parent, parent_id)
    out["children"] = [_child(child, language) for child in children]
    return out


def _child(child: Chunk, language: str | None) -> dict[str, Any]:
    out = _common(child, child.id)
    out["embedText"] = child.embed_text
    out["language"] = language
    out["context"] = child.note  # always there: the children index projects it
    return out


def _common(chunk: Chunk, chunk_id: str) -> dict[str, Any]:
    return {
        "id": chunk_id,
        "ordinal": chunk.ordinal,
        "start": chunk.start,
        "end": chunk.end,
        "text": chunk.text,
        "prefix": chunk.prefix,  # what embedText adds: the query sends it before a passage
        "headings": list(chunk.headings),
        "pages": list(chunk.pages),
    }
