"""One validated options object for every chunking strategy.

Options are checked once, at construction, with messages a user can act on; at run time the engine
then only has invariants to keep. Field names are snake_case in Python and camelCase on the wire
(``childMaxTokens``), the names the skill accepts from an indexer record.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

#: text-embedding-3-* and ada-002 accept at most 8191 input tokens.
MAX_EMBEDDING_TOKENS = 8191
#: Below this a chunk cannot hold its heading path and a useful amount of text.
MIN_CHUNK_TOKENS = 16
DEFAULT_CHILD_TOKENS = 160
DEFAULT_PARENT_TOKENS = 1024


class Strategy(StrEnum):
    """How a document is cut; ``hierarchical`` is the default."""

    FIXED = "fixed"
    RECURSIVE = "recursive"
    STRUCTURAL = "structural"
    HIERARCHICAL = "hierarchical"
    SEMANTIC = "semantic"


class Format(StrEnum):
    """The input's syntax: Markdown and reStructuredText are parsed for structure, text only for
    paragraphs and lines, code by its syntax tree (its language from the document's suffix,
    ``languages.py``)."""

    MARKDOWN = "markdown"
    RST = "rst"
    TEXT = "text"
    CODE = "code"


#: Unless given, a strategy's leaves overlap by this share of their budget: ``fixed`` by a quarter
#: (128 of 512, the classic fixed-window baseline), the strategies that nest leaves in sections by
#: a fifth (32 of the default 160), the overlap chosen with their sizes (``docs/evaluation.md``,
#: *The top-1 goal and the children's neighbours*).
DEFAULT_OVERLAP_DIVISOR = {Strategy.FIXED: 4, Strategy.HIERARCHICAL: 5, Strategy.SEMANTIC: 5}

#: The others cut at structure only: they never overlap, so their default overlap is 0 and a
#: given one is reported as ignored (a warning on the result), never applied silently.
NON_OVERLAPPING = tuple(s for s in Strategy if s not in DEFAULT_OVERLAP_DIVISOR)


class ChunkOptions(BaseModel):
    """Sizes are in ``cl100k_base`` tokens of the *embedded* text (heading path included).

    ``child*`` options size the leaf chunks of every strategy (the chunks that are embedded and
    searched); ``parent_max_tokens`` bounds the sections that ``hierarchical`` returns as context.
    Overlap applies to ``hierarchical`` and ``semantic`` (inside each parent) and ``fixed``;
    ``structural`` and ``recursive`` cut at structure and do not overlap (see ``NON_OVERLAPPING``).
    """

    model_config = ConfigDict(
        frozen=True, extra="forbid", alias_generator=to_camel, populate_by_name=True
    )

    strategy: Strategy = Strategy.HIERARCHICAL
    parent_max_tokens: int = Field(
        default=DEFAULT_PARENT_TOKENS, ge=MIN_CHUNK_TOKENS, le=MAX_EMBEDDING_TOKENS
    )
    child_max_tokens: int = Field(
        default=DEFAULT_CHILD_TOKENS, ge=MIN_CHUNK_TOKENS, le=MAX_EMBEDDING_TOKENS
    )
    child_overlap_tokens: int = Field(default=0, ge=0, le=MAX_EMBEDDING_TOKENS)
    #: The leaf budget of a ``hierarchical`` parent that is running prose (paragraphs only: no
    #: list, table, code or line structure, ``Outline.is_prose``); None: ``child_max_tokens``.
    #: Prose can take longer leaves than a table row or a list item.
    prose_child_max_tokens: int | None = Field(
        default=None, ge=MIN_CHUNK_TOKENS, le=MAX_EMBEDDING_TOKENS
    )
    #: Whether a document without a single heading, and given no title, is titled by its
    #: ``documentKey``'s file name (``sotu/1988_reagan.txt`` -> ``1988 reagan``): a transcript's
    #: chunks otherwise say nothing of which document they are from (``chunker.key_title``;
    #: measured leave-one-set-out in ``docs/evaluation.md``).
    title_from_key: bool = True
    heading_depth: int = Field(default=6, ge=1, le=6)
    include_headings: bool = True
    #: Room kept free in every leaf for a context note written after chunking (``with_note``):
    #: leaves are packed to ``child_max_tokens - note_tokens`` so that the note fits the cap.
    note_tokens: int = Field(default=0, ge=0, le=MAX_EMBEDDING_TOKENS)

    @model_validator(mode="before")
    @classmethod
    def _overlap_defaults_to_a_share_of_the_leaf(cls, data: Any) -> Any:
        """Unless given, the overlap is the strategy's share of the leaf budget
        (``DEFAULT_OVERLAP_DIVISOR``), so that a record setting only ``childMaxTokens`` or
        ``noteTokens`` keeps an overlap its leaves can hold."""
        overlap_names = {"child_overlap_tokens", "childOverlapTokens"}
        if not isinstance(data, dict) or overlap_names & data.keys():
            return data
        strategy = _strategy(data.get("strategy", Strategy.HIERARCHICAL))
        divisor = None if strategy is None else DEFAULT_OVERLAP_DIVISOR.get(strategy)
        if divisor is None:
            return data
        leaf = _whole(
            data.get("child_max_tokens", data.get("childMaxTokens", DEFAULT_CHILD_TOKENS))
        )
        note = _whole(data.get("note_tokens", data.get("noteTokens", 0)))
        if leaf is not None and note is not None:
            data = {**data, "child_overlap_tokens": max(0, leaf - max(0, note)) // divisor}
        return data

    @property
    def leaf_budget(self) -> int:
        """What a leaf is packed to: its cap less the room kept for a context note."""
        return self.child_max_tokens - self.note_tokens

    @property
    def prose_leaf_budget(self) -> int:
        """What a leaf of running prose is packed to (``prose_child_max_tokens``, less the
        room kept for a note)."""
        return (self.prose_child_max_tokens or self.child_max_tokens) - self.note_tokens

    @property
    def ignored_overlap(self) -> bool:
        """An overlap was asked of a strategy that cuts at structure only and cannot apply it."""
        return bool(self.child_overlap_tokens) and self.strategy in NON_OVERLAPPING

    @model_validator(mode="after")
    def _sizes_are_consistent(self) -> Self:
        if self.note_tokens * 2 > self.child_max_tokens:
            raise ValueError(
                f"noteTokens ({self.note_tokens}) must be at most half of "
                f"childMaxTokens ({self.child_max_tokens})"
            )
        if self.child_overlap_tokens * 2 > self.leaf_budget:
            less_note = f" less noteTokens ({self.note_tokens})" if self.note_tokens else ""
            raise ValueError(
                f"childOverlapTokens ({self.child_overlap_tokens}) must be at most half of "
                f"childMaxTokens ({self.child_max_tokens}){less_note}"
            )
        if (
            self.strategy is Strategy.HIERARCHICAL
            and self.parent_max_tokens < self.child_max_tokens
        ):
            raise ValueError(
                f"parentMaxTokens ({self.parent_max_tokens}) must be at least "
                f"childMaxTokens ({self.child_max_tokens})"
            )
        prose = self.prose_child_max_tokens
        if prose is not None and not self.child_max_tokens <= prose <= self.parent_max_tokens:
            raise ValueError(
                f"proseChildMaxTokens ({prose}) must be between childMaxTokens "
                f"({self.child_max_tokens}) and parentMaxTokens ({self.parent_max_tokens})"
            )
        return self


def _strategy(value: Any) -> Strategy | None:
    """The strategy a raw value names, else None (the field's own validation reports it)."""
    try:
        return Strategy(value)
    except ValueError:
        return None


def _whole(value: Any) -> int | None:
    """A whole number as pydantic's lax mode reads it (``"128"`` too), else None."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else None
