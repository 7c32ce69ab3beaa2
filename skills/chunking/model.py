"""The engine's input and output types."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Chunk:
    """A span of the source document, with what it is embedded as.

    Guarantees (checked as properties by the tests):
    ``source[start:end] == text``; ``tokens == count_tokens(embed_text)`` (or above it, by a
    token or two, for a chunk over a run of 32,000 characters with no safe cut:
    ``token_index``) and never above the strategy's limit; children lie inside their parent.
    ``embed_text`` is ``text`` preceded by ``prefix``, the context it needs to stand alone: the
    heading path, and where a table or code block was cut, the table's header rows or the code
    fence's opening line.

    A chunk keeps a reference to the source rather than copies of its text, so chunking a large
    document does not hold it in memory four times over (parents and children, text and embedded
    text); ``text`` and ``embed_text`` are sliced when asked for.
    """

    id: str
    parent_id: str | None
    level: int  # 0: parent (a section, for the prompt); 1: leaf (embedded and searched)
    ordinal: int  # position among the chunks of its level in the document, from 0
    start: int
    end: int
    tokens: int
    source: str = field(repr=False, compare=False)
    prefix: str = ""
    headings: tuple[str, ...] = ()
    pages: tuple[int, ...] = ()
    path_chars: int = 0  # ``prefix[:path_chars]`` is the heading path line and its blank line
    note: str = ""  # a context note placed after the heading path (``context.with_note``)

    @property
    def text(self) -> str:
        return self.source[self.start : self.end]

    @property
    def embed_text(self) -> str:
        return self.prefix + self.source[self.start : self.end]

    def to_dict(self) -> dict[str, Any]:
        """The wire shape: camelCase keys, lists instead of tuples."""
        return {
            "id": self.id,
            "parentId": self.parent_id,
            "level": self.level,
            "ordinal": self.ordinal,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "embedText": self.embed_text,
            "prefix": self.prefix,
            "tokens": self.tokens,
            "headings": list(self.headings),
            "pages": list(self.pages),
        }


@dataclass(frozen=True, slots=True)
class Chunking:
    """The result for one document.

    ``parents`` is empty for single-level strategies; ``leaves`` are the chunks that get embedded.
    For ``hierarchical``, every leaf has the id of its parent in ``parent_id``. ``language`` is
    the programming language of a document in the ``code`` format (None for the others).
    """

    parents: tuple[Chunk, ...]
    leaves: tuple[Chunk, ...]
    format: str
    warnings: tuple[str, ...] = field(default=())
    language: str | None = None

    def children_by_parent(self) -> dict[str, list[Chunk]]:
        """Leaves grouped under their parent's id, in order: one pass for all parents."""
        groups: dict[str, list[Chunk]] = {}
        for leaf in self.leaves:
            if leaf.parent_id is not None:
                groups.setdefault(leaf.parent_id, []).append(leaf)
        return groups

    def children_of(self, parent: Chunk) -> list[Chunk]:
        """The leaves of one parent; a pass over all leaves (``children_by_parent`` for many)."""
        return [leaf for leaf in self.leaves if leaf.parent_id == parent.id]
