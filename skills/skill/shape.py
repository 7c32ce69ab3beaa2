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
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from skills.chunking import Chunk, Chunking
from skills.skill.answer import Stream

#: Appended to a leaf id to name the parent that wraps it; keeps ids valid Azure Search keys.
WRAPPER_SUFFIX = "-w"


def record_data(result: Chunking, document_key: str) -> dict[str, Any]:
    """``{"documentKey": ..., "parents": [{...parent, "children": [...]}, ...]}``, every parent
    built at once (what a test compares with an answer)."""
    return _data(document_key, parents_with_children(result))


def streamed_record_data(result: Chunking, document_key: str) -> dict[str, Any]:
    """:func:`record_data` with its parents shaped one at a time as the answer writes them: a
    50 MB record's shaped parents, held at once, weighed 7x the document (``docs/skill.md``,
    "Memory"). The JSON written is the same, byte for byte."""
    order = _order(result)
    return _data(document_key, Stream(lambda: _shaped(result, order), len(order.rows)))


def parents_with_children(result: Chunking) -> list[dict[str, Any]]:
    """Every leaf exactly once, under its parent or under a wrapper of its own span."""
    return list(_shaped(result, _order(result)))


def _data(document_key: str, parents: list[dict[str, Any]] | Stream) -> dict[str, Any]:
    return {"documentKey": document_key, "parents": parents}


@dataclass(frozen=True, slots=True)
class _Order:
    """Where each leaf goes, as row numbers, so that a chunk is made only for its parent's turn.
    ``rows`` lists what to write, in order: ``r < len(result.parents)`` is that parent, any other
    ``r`` the wrapper of the leaf at row ``orphans[r - len(result.parents)]``."""

    rows: list[int]
    children: dict[str, list[int]]  # a parent's id -> its leaves' rows, in order
    orphans: list[int]  # the rows of the leaves whose parent_id names no parent


def _order(result: Chunking) -> _Order:
    """Parents in order; with orphans, the wrappers among them by ``(start, end)`` (a stable
    sort: a parent comes before a wrapper of the same span, wrappers in leaf order)."""
    known: set[str] = set()
    spans: list[tuple[int, int]] = []
    for parent in result.parents:
        known.add(parent.id)
        spans.append((parent.start, parent.end))
    children: dict[str, list[int]] = defaultdict(list)
    orphans: list[int] = []
    for row, leaf in enumerate(result.leaves):
        if leaf.parent_id is not None and leaf.parent_id in known:
            children[leaf.parent_id].append(row)
        else:
            orphans.append(row)
            spans.append((leaf.start, leaf.end))
    rows = list(range(len(spans)))
    if orphans:
        rows.sort(key=spans.__getitem__)
    return _Order(rows, children, orphans)


def _shaped(result: Chunking, order: _Order) -> Iterator[dict[str, Any]]:
    """The parents of ``order``, each shaped when asked for."""
    parents, leaves = result.parents, result.leaves
    for row in order.rows:
        if row < len(parents):
            parent = parents[row]
            mine = [leaves[leaf] for leaf in order.children.get(parent.id, ())]
            yield _parent(parent, parent.id, mine, result.language)
        else:
            leaf = leaves[order.orphans[row - len(parents)]]
            yield _parent(leaf, leaf.id + WRAPPER_SUFFIX, [leaf], result.language)


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
