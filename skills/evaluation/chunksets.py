"""The one shape every chunker's output is converted to before it is searched and scored.

A :class:`ChunkSet` holds the *leaves* (what is embedded and searched, in document order) and,
for two-level strategies, the *parents* (sections a leaf hit can return). Everything is a span of
the source, so every strategy is scored the same way whatever library produced it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from skills.evaluation.spans import Span


@dataclass(frozen=True, slots=True)
class Leaf:
    """A searchable chunk: its span, the text it is embedded as, and its parent's index."""

    span: Span
    embed_text: str
    parent: int | None = None


@dataclass(frozen=True, slots=True)
class ChunkSet:
    """Leaves of all documents in document order (per document), and their parents; a parent's
    prefix (``parent_prefixes``, empty when the chunker gives none) is what its embedded text
    adds to its span, as a leaf's ``embed_text`` does."""

    leaves: tuple[Leaf, ...]
    parents: tuple[Span, ...] = ()
    warnings: tuple[str, ...] = field(default=())
    parent_prefixes: tuple[str, ...] = field(default=())
    _children: dict[int, list[int]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def parent_prefix(self, index: int) -> str:
        return self.parent_prefixes[index] if index < len(self.parent_prefixes) else ""

    def children(self) -> dict[int, list[int]]:
        """Parent index -> indices of its leaves, in document order (computed once)."""
        if not self._children:
            for index, leaf in enumerate(self.leaves):
                if leaf.parent is not None:
                    self._children.setdefault(leaf.parent, []).append(index)
        return self._children


def concatenate(parts: Mapping[str, ChunkSet]) -> ChunkSet:
    """One chunk set for the whole corpus from one per document, parent indices shifted."""
    leaves: list[Leaf] = []
    parents: list[Span] = []
    prefixes: list[str] = []
    warnings: list[str] = []
    for doc, part in parts.items():
        offset = len(parents)
        parents.extend(part.parents)
        prefixes.extend(part.parent_prefix(index) for index in range(len(part.parents)))
        leaves.extend(
            Leaf(leaf.span, leaf.embed_text, None if leaf.parent is None else leaf.parent + offset)
            for leaf in part.leaves
        )
        warnings.extend(f"{doc}: {warning}" for warning in part.warnings)
    return ChunkSet(tuple(leaves), tuple(parents), tuple(warnings), tuple(prefixes))
