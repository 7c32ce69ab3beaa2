"""Cut levels: how good a cut at a point is, one vocabulary for the parsers and the packer.

A parser gives every point where a cut *may* go a level; the packer cuts a range that does not
fit at the best level present inside it (higher is better: a heading beats a block start beats a
list item beats a line). ``Level`` names the fixed levels; levels that step down with depth (a
heading of depth d, a list nested k deep, a statement inside k definitions) come from its
helpers, so the arithmetic on them lives here alone. Levels are small ints: the outline keeps
them in a byte array, and a stored level reads back as a plain ``int``.

>>> Level.heading(2), Level.list_item(1), Level.block(0)
(98, 39, 50)
>>> Level.heading(2) > Level.DEEP_HEADING > Level.BLOCK > Level.list_item(0) > Level.LINE
True
"""

from __future__ import annotations

from enum import IntEnum

#: A list nested deeper than this cuts as one nested this deep (``Level.list_item``).
MAX_LIST_NESTING = 8
#: Code nested deeper than this cuts as code nested this deep (``Level.block``): generated code
#: nests thousands deep, and levels below ``BLOCK - MAX_BLOCK_NESTING`` would reach ``LINE``.
MAX_BLOCK_NESTING = 24


class Level(IntEnum):
    """The cut levels, worst first."""

    NO_CUT = 0  #: what ``Outline.level_at`` says where there is no cut point
    AVOID = 1  #: only when nothing better exists (inside a table header, at a fence's edge)
    WORD = 3  #: the space before a word, found by the packer inside a unit too big alone
    SENTENCE = 5  #: a sentence start, likewise
    LINE = 20  #: a line start, likewise (first in code and tables)
    LIST_ITEM = 40  #: a top-level list item; a nested one cuts lower (``list_item``)
    BLOCK = 50  #: a block start: paragraph, fence, table, quote; a top-level statement of code
    TOPIC_SHIFT = 55  #: where the semantic strategy's embeddings drift apart
    THEMATIC_BREAK = 60
    DEEP_HEADING = 61  #: a heading deeper than ``heading_depth``: a strong block break
    SECTION = 100  #: above every heading: a heading of depth d cuts at ``heading(d)``
    EDGE = 127  #: the ends of a range the packer cuts: above every level, never chosen

    @staticmethod
    def heading(depth: int) -> int:
        """A section heading (or a code definition) of ``depth`` (1: the outermost): one below
        ``SECTION`` per depth, never down to ``DEEP_HEADING``."""
        return max(Level.SECTION - depth, Level.DEEP_HEADING + 1)

    @staticmethod
    def list_item(nesting: int) -> int:
        """A list item inside ``nesting`` open items (0: top level): one below ``LIST_ITEM`` per
        item, so a nested list is cut before its parent list's items are."""
        return Level.LIST_ITEM - min(nesting, MAX_LIST_NESTING)

    @staticmethod
    def block(nesting: int) -> int:
        """A statement of code inside ``nesting`` definitions and compound statements (0: the
        file's own): one below ``BLOCK`` per enclosing one, so a function with a nested one is
        cut between its own statements first."""
        return Level.BLOCK - min(nesting, MAX_BLOCK_NESTING)
