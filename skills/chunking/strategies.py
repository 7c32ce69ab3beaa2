"""The strategies: each decides which outline to pack and at which budgets, nothing more.

- ``fixed``: windows of whole tokens with overlap, cut at the nearest safe position (the classic
  512 / 25 % baseline; it ignores structure but still carries the heading path).
- ``recursive``: paragraphs, lines, sentences, words, tokens; markup is read as plain text.
- ``structural``: sections, blocks, list items, rows and lines (of Markdown or reStructuredText),
  packed to the leaf budget.
- ``hierarchical``: structural parents packed to the parent budget, then leaves packed inside each
  parent to the leaf budget (with optional overlap), never crossing their parent.
- ``semantic``: hierarchical plus cut points where a ``BoundaryModel`` sees the topic change.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from skills.chunking.levels import Level
from skills.chunking.markup import MARKUPS, Reading, read_as_paragraphs
from skills.chunking.model import NO_PARENT, ChunkRows
from skills.chunking.newlines import line_view
from skills.chunking.options import ChunkOptions, Format, Strategy
from skills.chunking.outline import NO_SECTION, Outline
from skills.chunking.pack import Packer
from skills.chunking.piece import Piece, text_start
from skills.chunking.prefix import PrefixBuilder
from skills.chunking.token_index import SAFE, TokenIndex, last_safe

T = TypeVar("T")


class BoundaryModel(Protocol):
    """Where the topic changes: the seam for embedding-based (semantic) boundaries.

    Given the document and its block-level cut points (paragraphs, lists, code blocks, tables and
    headings start there), return those where consecutive passages drift apart; they become cut
    points stronger than any block boundary, weaker than a heading.
    ``skills.chunking.semantic.EmbeddingBoundaries`` is the one we ship.
    """

    def topic_shifts(self, text: str, candidates: list[int]) -> list[int]: ...


@dataclass(slots=True)
class Layout:
    """What a strategy produced: parents (maybe none) and leaves with their parent's index, kept
    as rows of numbers as each piece is packed (``ChunkRows``): the pieces of a large document
    are not all alive at once beside its token index and outline."""

    parents: ChunkRows = field(default_factory=ChunkRows)
    leaves: ChunkRows = field(default_factory=ChunkRows)
    warnings: list[str] = field(default_factory=list)

    def add_parent(self, piece: Piece) -> int:
        """Adds a parent; returns its index, for its leaves."""
        _add(self.parents, piece, NO_PARENT)
        return len(self.parents) - 1

    def add_leaf(self, piece: Piece, parent: int = NO_PARENT) -> None:
        _add(self.leaves, piece, parent)


def _add(rows: ChunkRows, piece: Piece, parent: int) -> None:
    rows.add(
        piece.start, piece.end, piece.tokens, piece.prefix, piece.headings, piece.path_chars, parent
    )


@dataclass(slots=True)
class Document:
    """One document prepared for packing: its token index, outline and prefix builder.

    ``text`` is the line view of the source (``newlines.line_view``): what the parser and the
    packer read. Tokens are counted on the source itself, at the same offsets."""

    text: str
    index: TokenIndex
    outline: Outline
    prefixes: PrefixBuilder

    @classmethod
    def prepare(
        cls,
        source: str,
        title: str | None,
        fmt: Format,
        options: ChunkOptions,
        language: str | None = None,
        boundary_model: BoundaryModel | None = None,
        untitled: str | None = None,
    ) -> Document:
        """The document read as ``fmt``; for the semantic strategy with a ``boundary_model``,
        with its topic shifts as cut points too; titled ``untitled`` when it has no title and
        no section of its own."""
        text = line_view(source)
        if options.strategy is Strategy.RECURSIVE:
            outline = read_as_paragraphs(text)
        else:  # fixed windows only need the heading paths
            sections_only = options.strategy is Strategy.FIXED
            reading = Reading(options.heading_depth, sections_only, language)
            outline = MARKUPS[fmt].parse(text, reading)
        if options.strategy is Strategy.SEMANTIC and boundary_model is not None:
            outline = with_topic_shifts(outline, text, boundary_model)
        if not title and not outline.sections:
            title = untitled
        return cls(
            text,
            TokenIndex(source),
            outline,
            PrefixBuilder(text, outline, title, options.include_headings),
        )

    def packer(self) -> Packer:
        return Packer(self.text, self.index, self.outline, self.prefixes)


def run_strategy(
    document: Document, options: ChunkOptions, boundary_model: BoundaryModel | None = None
) -> Layout:
    """Lay out ``document`` with the strategy ``options`` name; what its parser could not read
    as meant comes first among the warnings."""
    layout = _layout(document, options, boundary_model)
    layout.warnings[:0] = document.outline.warnings
    return layout


def _layout(
    document: Document, options: ChunkOptions, boundary_model: BoundaryModel | None
) -> Layout:
    strategy = options.strategy
    if strategy is Strategy.FIXED:
        return fixed_windows(document, options)
    if strategy in (Strategy.RECURSIVE, Strategy.STRUCTURAL):
        packer = document.packer()
        layout = Layout()
        for piece in packer.pack(packer.first, packer.end, options.leaf_budget):
            layout.add_leaf(piece)
        return layout
    layout = hierarchical(document, options)  # semantic: with the topic shifts ``prepare`` added
    if strategy is Strategy.SEMANTIC and boundary_model is None:
        layout.warnings.append(
            "semantic boundaries unavailable (no embedding model configured): "
            "used hierarchical chunking instead"
        )
    return layout


def with_topic_shifts(outline: Outline, text: str, model: BoundaryModel) -> Outline:
    """``outline`` with a cut point where ``model`` sees the topic change between two of its
    blocks (``Document.prepare`` adds them before the prefixes are built)."""
    cut_points = zip(outline.positions, outline.levels, strict=True)
    end = outline.content_end  # no topic shifts in the back matter: no chunk holds it
    blocks = [p for p, level in cut_points if level >= Level.BLOCK and p < end]
    return outline.with_cuts(model.topic_shifts(text[:end], blocks), Level.TOPIC_SHIFT)


def hierarchical(document: Document, options: ChunkOptions) -> Layout:
    """Parents by structure at the parent budget; leaves packed inside each parent, at the leaf
    budget or, for a parent of running prose, at ``prose_child_max_tokens`` (``_leaf_budget``)."""
    packer = document.packer()
    layout = Layout()
    if packer.is_empty:
        return layout
    overlap = options.child_overlap_tokens
    parents = packer.pack(packer.first, packer.end, options.parent_max_tokens)
    for parent in _drained(parents):
        number = layout.add_parent(parent)
        leaf_budget = _leaf_budget(document, options, parent)
        leaves = packer.pack(parent.cut, parent.end, leaf_budget, target=leaf_budget - overlap)
        if overlap:
            leaves = with_overlap(document, packer, leaves, parent.start, leaf_budget, overlap)
        for leaf in leaves:
            layout.add_leaf(leaf, number)
    return layout


def _leaf_budget(document: Document, options: ChunkOptions, parent: Piece) -> int:
    """The leaf budget inside ``parent``: ``prose_leaf_budget`` for running prose
    (``Outline.is_prose``), else ``leaf_budget``."""
    if options.prose_child_max_tokens and document.outline.is_prose(parent.cut, parent.end):
        return options.prose_leaf_budget
    return options.leaf_budget


def _drained(items: list[T]) -> Iterator[T]:
    """The items in order, each dropped from ``items`` as it is handed out: on a 50 MB
    document, the parent pieces alone hold a fifth of the text's size."""
    items.reverse()
    while items:
        yield items.pop()


def with_overlap(
    document: Document, packer: Packer, leaves: list[Piece], floor: int, budget: int, overlap: int
) -> list[Piece]:
    """Start each leaf earlier, inside the leaf before it, by at most ``overlap`` tokens.

    The new start is the earliest good cut point at or after ``floor`` (see
    ``Packer.overlap_starts``: never inside a code block or table unless the leaves are pieces
    of one) that keeps both the overlap and the whole leaf within their limits, that takes at
    most 80 % of the leaf before it, and that makes at most 80 % of the new leaf: an overlap
    that re-covers nearly all of the leaf before makes a near duplicate (on the runbook
    sample, 22 children began four characters after the one before), which costs an
    embedding and a k-NN slot for no new text.

    Nor does an overlap reach back across a heading in a document: a leaf keeps to the section it
    starts in (``_section_floor``), so a section's first leaf, which begins at its heading, gets
    none. A leaf that began with the tail of the section before would be prefixed with the path
    the two sections share, not its own: the guide's Authentication paragraph was embedded under
    the document's title alone, and lost "How do I authenticate" to a section named in its
    prefix. Code keeps its overlap across definitions (``Outline.whole_sections``): there the
    lines before a definition are often its caller's (``cnonce = self._get_client_nonce(...)``),
    and the code set lost 3 of 30 answers within 2,000 tokens without them.
    """
    index = document.index
    sections_open = document.outline.whole_sections  # code: definitions, see above
    result = leaves[:1]
    for previous, leaf in itertools.pairwise(leaves):
        low = floor if sections_open else max(floor, _section_floor(document.outline, leaf.start))
        # The overlap and the leaf only grow as the start moves back: estimate from the token
        # index where the limits are reached (the end of the token ``room`` tokens before the
        # leaf), then confirm with exact counts, moving forward.
        room = min(overlap, budget - leaf.tokens)
        back = index.tokens_before(leaf.start) - room
        earliest = int(index.ends[back - 1]) if back > 0 else 0
        # strictly after the previous leaf's start: a leaf never swallows the one before it
        cuts = packer.overlap_starts(max(low, previous.start + 1), leaf.start, earliest)
        result.append(leaf)
        for cut in cuts:
            start = text_start(document.text, cut, leaf.end)
            if start >= leaf.start:
                continue
            shared = index.count(start, leaf.start)
            if shared > min(overlap, previous.text_tokens * 4 // 5):
                continue
            if shared > 4 * leaf.text_tokens:  # the new leaf would be 80 % the one before
                continue
            candidate = packer.measure(leaf.cut, leaf.end, budget, start=start)
            if candidate is not None and candidate.tokens <= budget:
                result[-1] = candidate
                break
    return result


def _section_floor(outline: Outline, position: int) -> int:
    """Where the innermost section holding ``position`` starts (0 before the first heading)."""
    section = outline.section_at(position)
    return 0 if section == NO_SECTION else outline.sections[section].start


def fixed_windows(document: Document, options: ChunkOptions) -> Layout:
    """Token windows of ``child_max_tokens`` (heading path included) overlapping by
    ``child_overlap_tokens``, each ended at the last safe position inside the window."""
    text, index = document.text, document.index
    budget, overlap = options.leaf_budget, options.child_overlap_tokens
    packer = document.packer()
    layout = Layout()
    position = packer.first
    end_of_text = packer.end  # before any back matter
    ends = index.ends
    while position < end_of_text:
        room = max(1, budget - document.prefixes.upper_bound(position, budget))
        first_token = index.tokens_before(position)
        last_token = first_token + room
        stop = end_of_text if last_token >= index.total else int(ends[last_token - 1])
        if stop >= end_of_text:
            stop = end_of_text
        else:
            safe = last_safe(text, position, stop)
            stop = safe if safe > position else stop
        piece = packer.measure(position, stop, budget)
        if piece is None:  # only spaces left in this window
            position = stop
            continue
        # an unsafe cut (a run without spaces) can be miscounted: then pack the window
        pieces = packer.pack(position, stop, budget) if piece.tokens > budget else [piece]
        for each in pieces:
            layout.add_leaf(each)
        if stop >= end_of_text:
            break
        position = _overlap_start(document, position, stop, overlap)
    return layout


def _overlap_start(document: Document, previous: int, stop: int, overlap: int) -> int:
    """Where the window after ``[previous, stop)`` starts: the first safe position from which at
    most ``overlap`` tokens lead to ``stop`` (``stop`` itself without overlap)."""
    if not overlap:
        return stop
    index = document.index
    back = index.tokens_before(stop) - overlap
    if back <= 0:
        return stop
    target = max(previous + 1, int(index.ends[back - 1]))
    match = SAFE.search(document.text, target, stop)
    return match.start() if match else stop
