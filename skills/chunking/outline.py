"""What the parsers find in a document: levelled cut points, sections and containers.

A parser does not cut anything. It says where a cut *may* go and how good a cut there is (its
level, see ``levels``: higher is better, a heading beats a paragraph break beats a line break),
which sections the document has (for heading paths) and which containers (a fenced code block, a
table) need their opening lines repeated when a piece of them stands alone. One packer
(``pack.py``) then makes every cutting decision from this outline. A parser writes it through an
``OutlineBuilder`` (the calls are the contract of ``docs/dev/ENGINE_CONTRACT.md``), whose
``build()`` gives the ``Outline``, read-only from then on.
"""

from __future__ import annotations

import re
import sys
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

import numpy as np

from skills.chunking.levels import Level

#: The index of no section: the parent of an outermost section, and where the preamble lies.
NO_SECTION = -1

#: The longest section title kept, in characters. A title is a line of a few words (the longest
#: of the dev set's 426 has 86 characters); a longer line made a heading is cut at a word, so that
#: the heading path every chunk of its section carries (``Chunk.headings``, its id, its prefix)
#: stays small: repeated whole, a 160 KB heading made 89 MB of output.
MAX_TITLE_CHARS = 200
ELLIPSIS = "…"


def as_written(text: str) -> str:
    """``text`` itself: how a span reads in a markup without links or other hidden parts."""
    return text


def cut_at_word(text: str, length: int) -> str:
    """``text`` when it has at most ``length`` characters, else its start cut at the last space
    within ``length`` characters (within them anyway when the space would keep less than half),
    marked with an ellipsis.

    >>> cut_at_word("Configure the retry policy of the client", 20)
    'Configure the retry…'
    """
    if len(text) <= length:
        return text
    space = text.rfind(" ", 0, length + 1)
    head = text[:space] if space > length // 2 else text[:length]
    return head.rstrip() + ELLIPSIS


class Attach(Enum):
    """Which neighbour a line that never makes a piece alone stays with: the one rule behind
    "a heading stays with what it introduces" and "a line with nothing to read stays with the
    piece before it". Parsers say which lines never make a piece alone, by kind; the kinds'
    directions are stated once, in ``Outline.attached_line``, and the packer decides where a
    piece may end from them in one place (``Packer._boundaries``)."""

    NEXT = "next"  # a heading, a label (``* **HTTPS**`` before its nested list): leads in
    PREVIOUS = "previous"  # a bare line (``---``, an HTML anchor): trails


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and everything up to the next heading of the same or a lower depth."""

    start: int
    end: int
    depth: int
    title: str
    parent: int  # index of the enclosing section in ``Outline.sections``, or ``NO_SECTION``


@dataclass(frozen=True, slots=True)
class Container:
    """A block whose pieces need its opening lines (``reopen``) to be read on their own.

    Inside it a piece begins only at a line start not in ``avoid`` (after the opening lines, the
    closing fence) and, when ``row_start`` is given, only at a line it matches: an HTML table's
    rows may span lines, and listing every line inside them would cost memory on big tables."""

    start: int
    body_start: int  # a piece starting at or after here (and before ``end``) is prefixed
    end: int
    reopen: str  # a fence line, a table's header rows (and delimiter row or ``<table>`` and
    # caption), ending with a newline; empty for indented code, which has nothing to reopen
    avoid: tuple[int, ...] = ()
    row_start: re.Pattern[str] | None = None
    #: a row's first cell, from its line start (a pipe table's key column): a piece that starts
    #: inside a row after it reopens it too (``PrefixBuilder``)
    row_key: re.Pattern[str] | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Outline:
    """What a parser found, read by the packer and the prefix builder; made by an
    ``OutlineBuilder`` and never changed (``with_cuts`` derives a new one).

    Cut points are sorted, one level per position: ``positions`` (starts of non-blank lines)
    and their ``levels``, compact arrays rather than a dict: a 50 MB document has over a million
    cut points. Sections and containers are in document order.
    """

    length: int
    positions: array[int]
    levels: array[int]
    sections: tuple[Section, ...] = ()
    containers: tuple[Container, ...] = ()
    #: Lines that never make a piece alone, start -> end of the line, by kind; which neighbour
    #: each kind stays with is ``attached_line``'s to say. Heading lines, and labels (a list
    #: item's first line when its nested list follows at once: ``* **HTTPS**``), lead into what
    #: follows them. Bare lines, with nothing to read (a thematic break, a line of bare HTML tags
    #: such as an anchor), stay with what precedes them.
    heading_lines: Mapping[int, int] = field(default_factory=dict)
    label_lines: Mapping[int, int] = field(default_factory=dict)
    bare_lines: Mapping[int, int] = field(default_factory=dict)
    #: What the parser could not read as meant (a syntax error in code), for the result's warnings.
    warnings: tuple[str, ...] = ()
    #: Where the document's text begins: after its front matter, which is metadata, not text.
    content_start: int = 0
    #: Where it ends: before its back matter (link reference definitions), metadata too; -1
    #: (the default) is read as the document's end.
    content_end: int = -1
    #: What leads the chunks that begin where the text does (the front matter's description).
    lead: str = ""
    #: The text of a span as a reader reads it (Markdown: a link as its text, a link reference
    #: definition as nothing); the packer weighs what a piece says by it (``Packer``), so it
    #: needs no parser of its own. As written unless the parser says otherwise.
    readable: Callable[[str], str] = as_written
    #: Whether a section that fits a piece's limit is one piece, even past the target merging
    #: aims for (the room kept for an overlap): code's sections are definitions, and a function
    #: that fits a child is one child (``Packer._pack``). A document's sections are not: a long
    #: one is shared out in even parts.
    whole_sections: bool = False
    _section_starts: Sequence[int] = field(init=False, repr=False)
    _container_starts: Sequence[int] = field(init=False, repr=False)
    _heading_starts: Sequence[int] = field(init=False, repr=False)
    _attached_starts: Sequence[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        """The lookup tables, built once (the dataclass is frozen: set through ``object``)."""
        lines = {*self.heading_lines, *self.label_lines, *self.bare_lines}
        if self.content_end < 0:
            object.__setattr__(self, "content_end", self.length)
        object.__setattr__(self, "_section_starts", [s.start for s in self.sections])
        object.__setattr__(self, "_container_starts", [c.start for c in self.containers])
        object.__setattr__(self, "_heading_starts", sorted(self.heading_lines))
        object.__setattr__(self, "_attached_starts", sorted(lines))

    def with_cuts(self, positions: Iterable[int], level: int) -> Outline:
        """This outline with cut points of ``level`` added at ``positions`` (the semantic
        strategy's topic shifts); a position that already has one keeps the better level."""
        added = array("q", (p for p in positions if 0 < p < self.length))
        merged = _best_first(self.positions + added, self.levels + array("b", [level]) * len(added))
        return replace(self, positions=merged[0], levels=merged[1])

    def level_at(self, position: int) -> int:
        """The level of the cut point at ``position``, ``Level.NO_CUT`` where there is none."""
        index = bisect_left(self.positions, position)
        found = index < len(self.positions) and self.positions[index] == position
        return self.levels[index] if found else Level.NO_CUT

    def section_at(self, position: int) -> int:
        """Index of the innermost section containing ``position`` (``NO_SECTION``: the preamble)."""
        index = bisect_right(self._section_starts, position) - 1
        while index != NO_SECTION and self.sections[index].end <= position:
            index = self.sections[index].parent
        return index

    def section_ends(self, start: int) -> list[int]:
        """Where the sections that start at ``start`` end, outermost first."""
        index = bisect_left(self._section_starts, start)
        ends = []
        while index < len(self.sections) and self.sections[index].start == start:
            ends.append(self.sections[index].end)
            index += 1
        return ends

    def section_spanning(self, start: int, end: int) -> int:
        """Index of the innermost section holding all of ``[start, end)``, or ``NO_SECTION``."""
        index = self.section_at(start)
        while index != NO_SECTION and self.sections[index].end < end:
            index = self.sections[index].parent
        return index

    def heading_path(self, section: int) -> tuple[str, ...]:
        """Titles from the outermost section down to ``section``. An empty heading (a lone ``#``,
        as config comments and ASCII art make) still opens a section but names nothing."""
        titles: list[str] = []
        while section != NO_SECTION:
            if self.sections[section].title:
                titles.append(self.sections[section].title)
            section = self.sections[section].parent
        return tuple(reversed(titles))

    def attached_line(self, start: int) -> tuple[int, Attach] | None:
        """The end of the line at ``start`` that never makes a piece alone, and the neighbour it
        stays with; None for any other position.

        >>> outline = Outline(20, array("q"), array("b"), heading_lines={0: 9}, bare_lines={11: 14})
        >>> outline.attached_line(0), outline.attached_line(11), outline.attached_line(5)
        ((9, <Attach.NEXT: 'next'>), (14, <Attach.PREVIOUS: 'previous'>), None)
        """
        for lines, attach in (
            (self.heading_lines, Attach.NEXT),
            (self.label_lines, Attach.NEXT),
            (self.bare_lines, Attach.PREVIOUS),
        ):
            end = lines.get(start)
            if end is not None:
                return end, attach
        return None

    def attached_starts(self, start: int, end: int) -> Sequence[int]:
        """Where the lines that never make a piece alone start in ``[start, end)``, in order."""
        starts = self._attached_starts
        return starts[bisect_left(starts, start) : bisect_left(starts, end)]

    def touches_heading(self, start: int, end: int) -> bool:
        """Whether a heading line overlaps ``[start, end]`` (heading lines never overlap, so the
        last one starting by ``end`` tells)."""
        index = bisect_right(self._heading_starts, end) - 1
        return index >= 0 and self.heading_lines[self._heading_starts[index]] > start

    def heading_around(self, position: int) -> tuple[int, int] | None:
        """The heading line (start, end) that ``position`` lies in, after its start."""
        index = bisect_left(self._heading_starts, position) - 1
        if index < 0:
            return None
        start = self._heading_starts[index]
        end = self.heading_lines[start]
        return (start, end) if position < end else None

    def is_prose(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` is running prose: no container (code, table) and no cut
        point below a block start inside it (a list item, a line of a plain-text table), so
        that only paragraph and heading starts, and the sentences the packer finds, cut it."""
        low, high = bisect_right(self.positions, start), bisect_left(self.positions, end)
        if any(level < Level.BLOCK for level in self.levels[low:high]):
            return False
        return not self.overlaps_container(start, end)

    def overlaps_container(self, start: int, end: int) -> bool:
        """Whether any container lies (partly) inside ``[start, end)``."""
        index = bisect_right(self._container_starts, end - 1) - 1
        return index >= 0 and self.containers[index].end > start

    def container_starting_in(self, start: int, end: int) -> Container | None:
        """The first container that starts in ``[start, end)``."""
        index = bisect_left(self._container_starts, start)
        if index < len(self.containers) and self.containers[index].start < end:
            return self.containers[index]
        return None

    def container_at(self, position: int) -> Container | None:
        """The container whose body holds ``position`` (a piece starting here must reopen it)."""
        index = bisect_right(self._container_starts, position) - 1  # containers never nest
        if index < 0:
            return None
        container = self.containers[index]
        return container if container.body_start <= position < container.end else None


class OutlineBuilder:
    """What a parser calls as it reads a document; ``build()`` makes the ``Outline``.

    The calls may come in any order (``docs/dev/ENGINE_CONTRACT.md`` says when to make which):
    ``cut`` a point where a piece may begin, with its level (a position keeps the best level any
    rule gave it; one at the text's start or end, where nothing is cut, is dropped);
    ``section`` and ``end_section`` (or a ``SectionTree``, which opens and closes them by
    depth); ``heading_line``, ``label_line`` and ``bare_line`` for lines that never make a piece
    alone; ``container`` for a block whose pieces reopen its first lines; ``front_matter``;
    ``back_matter``; ``warn``. ``build`` sorts and indexes it all once, hands it to the outline
    and leaves the builder empty, so the outline never changes after it.

    >>> builder = OutlineBuilder(length=20)
    >>> builder.cut(9, Level.BLOCK)
    >>> builder.cut(9, Level.heading(2))
    >>> builder.cut(4, Level.LINE)
    >>> outline = builder.build()
    >>> list(outline.positions), list(outline.levels)
    ([4, 9], [20, 98])
    """

    def __init__(self, length: int) -> None:
        self.length = length
        self._clear()

    def _clear(self) -> None:
        """Start empty: at creation, and after ``build`` has handed everything to an outline."""
        self._positions: array[int] = array("q")
        self._levels: array[int] = array("b")
        self._sections: list[Section] = []
        self._containers: list[Container] = []
        self._heading_lines: dict[int, int] = {}
        self._label_lines: dict[int, int] = {}
        self._bare_lines: dict[int, int] = {}
        self._warnings: list[str] = []
        self._content_start = 0
        self._content_end = self.length
        self._lead = ""
        self._readable: Callable[[str], str] = as_written
        self._whole_sections = False

    def cut(self, position: int, level: int) -> None:
        """A cut point: a piece may begin at ``position``, as good a place as ``level`` says."""
        if 0 < position < self.length:
            self._positions.append(position)
            self._levels.append(level)

    def heading_line(self, start: int, end: int) -> None:
        """``[start, end)`` is a heading's line (or a lead-in like it): it leads into what
        follows, no piece ends right after it, and a sentence cut never falls inside it."""
        self._heading_lines[start] = end

    def label_line(self, start: int, end: int) -> None:
        """``[start, end)`` is a label (a list item's first line before its nested list, a
        definition's term): it leads into what follows, as a heading line does."""
        self._label_lines[start] = end

    def bare_line(self, start: int, end: int) -> None:
        """``[start, end)`` has nothing to read (a thematic break, an anchor, a closing brace):
        it stays with what precedes it."""
        self._bare_lines[start] = end

    def container(self, container: Container) -> None:
        """A block whose pieces reopen its opening lines (containers never overlap)."""
        self._containers.append(container)

    def section(self, start: int, end: int, depth: int, title: str, parent: int) -> int:
        """A section, added in document order (a parent before its children: ``parent`` is an
        index this returned, or ``NO_SECTION``); returns its index. ``end`` may be set later
        (``end_section``)."""
        self._sections.append(Section(start, end, depth, title, parent))
        return len(self._sections) - 1

    def end_section(self, index: int, end: int) -> None:
        """Where the section ``index`` ends, once the parser knows."""
        old = self._sections[index]
        self._sections[index] = Section(old.start, end, old.depth, old.title, old.parent)

    def enclose(self, title: str) -> None:
        """Put the whole document, once its sections are closed, in one outermost section
        named ``title``: the page title a document gives outside its headings (YAML front
        matter's ``title:``)."""
        outer = Section(0, self.length, 1, cut_at_word(title, MAX_TITLE_CHARS), NO_SECTION)
        self._sections[:] = [
            outer,
            *(Section(s.start, s.end, s.depth, s.title, s.parent + 1) for s in self._sections),
        ]

    def front_matter(self, end: int, lead: str) -> None:
        """The document's text begins at ``end``, after its front matter (metadata, not text);
        ``lead`` (its description) leads the chunks that begin there."""
        self._content_start = end
        self._lead = lead

    def back_matter(self, start: int) -> None:
        """The document's text ends at ``start``, before its back matter (metadata, not text)."""
        self._content_end = start

    def reads_as(self, readable: Callable[[str], str]) -> None:
        """A span of this document reads as ``readable(span)`` (``Outline.readable``)."""
        self._readable = readable

    def keep_sections_whole(self) -> None:
        """A section that fits a piece's limit is one piece (``Outline.whole_sections``)."""
        self._whole_sections = True

    def warn(self, message: str) -> None:
        """Something the parser could not read as meant (a syntax error in code)."""
        self._warnings.append(message)

    @property
    def sections(self) -> Sequence[Section]:
        """The sections added so far (a parser reads where the open one ends, or its depth)."""
        return self._sections

    @property
    def heading_lines(self) -> Mapping[int, int]:
        """The heading lines added so far (a comment right under one leads in too)."""
        return self._heading_lines

    @property
    def label_lines(self) -> Mapping[int, int]:
        """The label lines added so far (a title's target above it is one)."""
        return self._label_lines

    def build(self) -> Outline:
        """The outline of what was added: cut points sorted, one per position with its best
        level, containers in document order. The builder is empty afterwards."""
        positions, levels = _best_first(self._positions, self._levels)
        outline = Outline(
            self.length,
            positions,
            levels,
            tuple(self._sections),
            tuple(sorted(self._containers, key=lambda container: container.start)),
            self._heading_lines,
            self._label_lines,
            self._bare_lines,
            tuple(self._warnings),
            self._content_start,
            self._content_end,
            self._lead,
            self._readable,
            self._whole_sections,
        )
        self._clear()
        return outline


def _best_first(positions: array[int], levels: array[int]) -> tuple[array[int], array[int]]:
    """The cut points sorted by position, each position once, with the best level given it."""
    at = np.frombuffer(positions, dtype=np.int64)
    level = np.frombuffer(levels, dtype=np.int8)
    order = np.lexsort((-level.astype(np.int16), at))  # by position, best level first
    at, level = at[order], level[order]
    first = np.ones(len(at), dtype=bool)
    first[1:] = at[1:] != at[:-1]
    return array("q", at[first].tobytes()), array("b", level[first].tobytes())


class SectionTree:
    """The sections a parser opens as it walks the document: a heading closes the open sections
    at its depth or deeper, and becomes the child of the one left open. A heading deeper than
    ``heading_depth`` opens no section; it is still a strong block break."""

    def __init__(self, builder: OutlineBuilder, heading_depth: int) -> None:
        self.builder = builder
        self.heading_depth = heading_depth
        self.open: list[int] = []  # indices into ``builder.sections``, outermost first
        self.variants: dict[int, str] = {}  # open sections that are variants -> their kind

    def heading(self, start: int, depth: int, title: str) -> None:
        if depth > self.heading_depth:
            self.builder.cut(start, Level.DEEP_HEADING)
            return
        self.builder.cut(start, Level.heading(depth))
        while self.open and self._closed_by(self.open[-1], depth):
            self._close(start)
        parent = self.open[-1] if self.open else NO_SECTION
        title = cut_at_word(title, MAX_TITLE_CHARS)
        self.open.append(self.builder.section(start, start, depth, title, parent))

    def _closed_by(self, index: int, depth: int) -> bool:
        """Whether a heading of ``depth`` closes the open section ``index``: one of its depth or
        deeper, and a variant when it closes the variant's section (a heading inside a tab or a
        zone nests in it)."""
        sections = self.builder.sections
        section = sections[index]
        if index not in self.variants:
            return section.depth >= depth
        return section.parent == NO_SECTION or sections[section.parent].depth >= depth

    def variant(self, start: int, title: str, kind: str) -> None:
        """Open a labelled variant of the open section (a DocFX tab ``# [Bash](#tab/bash)``, a
        zone pivot): a section one level inside it, whatever its marker's ``#``s say, that the
        headings under it nest in. It is closed by the next variant of its ``kind`` (``tab``,
        ``zone``), by ``close_variant``, or by a heading that closes its section. So a child of
        the Bash tab of "Create > Prerequisites" reads ``Create > Prerequisites > Bash``, and
        the sections after the group are not under its last tab."""
        self.close_variant(start, kind)  # the group's previous variant
        depth = self.builder.sections[self.open[-1]].depth + 1 if self.open else 1
        self.builder.cut(start, Level.heading(depth))
        parent = self.open[-1] if self.open else NO_SECTION
        index = self.builder.section(start, start, depth, title, parent)
        self.variants[index] = kind
        self.open.append(index)

    def close_variant(self, end: int, kind: str) -> bool:
        """Close the innermost open variant, if it is of ``kind``, and what it holds at ``end``;
        False when there is none (a ``---`` outside a tab group is a thematic break)."""
        innermost = next((i for i in reversed(self.open) if i in self.variants), None)
        if innermost is None or self.variants[innermost] != kind:
            return False
        while self.open[-1] not in self.variants:
            self._close(end)
        self._close(end)
        return True

    def close_all(self, end: int) -> None:
        """Close what is still open at the end of the document."""
        while self.open:
            self._close(end)

    def _close(self, end: int) -> None:
        self.builder.end_section(self.open.pop(), end)


class Spans:
    """Disjoint spans (code blocks, tables), sorted once, asked where a position lies."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = sorted(spans)
        self.starts = [first for first, _ in self.spans]

    def hold(self, position: int) -> bool:
        """Whether ``position`` lies inside one of the spans."""
        index = bisect_right(self.starts, position) - 1
        return index >= 0 and position < self.spans[index][1]

    def first_start_after(self, position: int) -> int:
        """Where the first span starting after ``position`` starts (infinity when none does)."""
        index = bisect_right(self.starts, position)
        return self.starts[index] if index < len(self.starts) else sys.maxsize
