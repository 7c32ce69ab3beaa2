"""Our engine's output as a chunk set: leaves embedded with their ``embed_text``.

Every strategy of ``skills.chunking`` goes through here; for ``hierarchical`` each leaf keeps the
index of its parent so a hit can return the parent (or not: see ``returns``). ``semantic`` gets
its topic shifts from the run's embedder (``EmbeddingBoundaries``).
"""

from __future__ import annotations

from typing import Any

from skills.chunking import BoundaryModel, ChunkOptions, chunk_document
from skills.evaluation.chunksets import ChunkSet, Leaf
from skills.evaluation.spans import Span


def engine_chunks(
    doc: str,
    text: str,
    options: dict[str, Any],
    boundary_model: BoundaryModel | None = None,
    title: str | None = None,
) -> ChunkSet:
    """Chunk one document with the engine; ``options`` are ChunkOptions in wire (camelCase) form,
    plus ``format`` (``markdown``, ``rst`` or ``text``: e.g. to measure documents as plain text)."""
    settings = dict(options)
    result = chunk_document(
        text,
        title=title,
        document_key=doc,
        format=settings.pop("format", None),
        options=ChunkOptions.model_validate(settings),
        boundary_model=boundary_model,
    )
    parent_index = {parent.id: index for index, parent in enumerate(result.parents)}
    leaves = tuple(
        Leaf(
            Span(doc, leaf.start, leaf.end),
            leaf.embed_text,
            parent_index.get(leaf.parent_id) if leaf.parent_id else None,
        )
        for leaf in result.leaves
    )
    parents = tuple(Span(doc, p.start, p.end) for p in result.parents)
    prefixes = tuple(p.prefix for p in result.parents)
    return ChunkSet(leaves, parents, result.warnings, prefixes)
