"""What the parsers find in a document: levelled cut points, sections and containers.

A parser does not cut anything. It says where a cut *may* go and how good a cut there is (its
level: higher is better, a heading beats a paragraph break beats a line break beats a code line),
which sections the document has (for heading paths) and which containers (a fenced code block, a
table) need their opening lines repeated when a piece of them stands alone. One packer
(``pack.py``) then makes every cutting decision from this outline.
"""

from __future__ import annotations

import re
import sys
from array import array
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

# Cut levels, best first. A section heading of depth d cuts at ``SECTION - d``.
SECTION = 100
DEEP_HEADING = 61  # a heading deeper than ``heading_depth``: a strong block break
THEMATIC_BREAK = 60
TOPIC_SHIFT = 55  # where the semantic strategy's embeddings drift apart
BLOCK = 50
LIST_ITEM = 40  # a nested item of depth k cuts at LIST_ITEM - k
LINE = 20
CODE_LINE = 10
SENTENCE = 5
WORD = 3
AVOID = 1  # allowed only when nothing better exists (inside a table header, at a fence's edge)

#: The longest section title kept, in characters. A title is a line of a few words (the longest
#: of the dev set's 426 has 86 characters); a longer line made a heading is cut at a word, so that
#: the heading path every chunk of its section carries (``Chunk.headings``, its id, its prefix)
#: stays small: repeated whole, a 160 KB heading made 89 MB of output.
MAX_TITLE_CHARS = 200
ELLIPSIS = "…"


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
    parent: int  # index of the enclosing section in ``Outline.sections``, -1 for none


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
    #: inside a row after it reopens it too (``ContextBuilder``)
    row_key: re.Pattern[str] | None = None


@dataclass(slots=True)
class Outline:
    """Cut points, sorted: ``positions`` (starts of non-blank lines) and their ``levels``.

    Compact arrays rather than a dict: a 50 MB document has over a million cut points.
    """

    length: int
    #: Where the document's text begins: after its front matter, which is metadata, not text.
    content_start: int = 0
    #: What leads the chunks that begin where the text does (the front matter's description).
    lead: str = ""
    positions: array[int] = field(default_factory=lambda: array("q"))
    levels: array[int] = field(default_factory=lambda: array("b"))
    sections: list[Section] = field(default_factory=list)
    containers: list[Container] = field(default_factory=list)
    #: Lines that never make a piece alone, start -> end of the line, by kind; which neighbour
    #: each kind stays with is ``attached_line``'s to say. Heading lines, and labels (a list
    #: item's first line when its nested list follows at once: ``* **HTTPS**``), lead into what
    #: follows them. Bare lines, with nothing to read (a thematic break, a line of bare HTML tags
    #: such as an anchor), stay with what precedes them.
    heading_lines: dict[int, int] = field(default_factory=dict)
    label_lines: dict[int, int] = field(default_factory=dict)
    bare_lines: dict[int, int] = field(default_factory=dict)
    #: What the parser could not read as meant (a syntax error in code), for the result's warnings.
    warnings: list[str] = field(default_factory=list)
    _section_starts: list[int] = field(default_factory=list)
    _container_starts: list[int] = field(default_factory=list)
    _heading_starts: list[int] = field(default_factory=list)
    _attached_starts: list[int] = field(default_factory=list)

    def add_break(self, position: int, level: int) -> None:
        """Record a cut point, in any order; ``freeze`` sorts them, and a position keeps the best
        level any rule gave it."""
        if 0 < position < self.length:
            self.positions.append(position)
            self.levels.append(level)

    def level_at(self, position: int) -> int:
        """The level of the cut point at ``position``, 0 where there is none."""
        index = bisect_left(self.positions, position)
        found = index < len(self.positions) and self.positions[index] == position
        return self.levels[index] if found else 0

    def freeze(self) -> None:
        """Sort the cut points and build the lookup tables once parsing is done."""
        positions = np.frombuffer(self.positions, dtype=np.int64)
        levels = np.frombuffer(self.levels, dtype=np.int8)
        order = np.lexsort((-levels.astype(np.int16), positions))  # by position, best level first
        positions, levels = positions[order], levels[order]
        first = np.ones(len(positions), dtype=bool)
        first[1:] = positions[1:] != positions[:-1]
        self.positions = array("q", positions[first].tobytes())
        self.levels = array("b", levels[first].tobytes())
        self._section_starts = [section.start for section in self.sections]
        self._container_starts = [container.start for container in self.containers]
        self._heading_starts = sorted(self.heading_lines)
        self._attached_starts = sorted({*self.heading_lines, *self.label_lines, *self.bare_lines})

    def section_at(self, position: int) -> int:
        """Index of the innermost section containing ``position``, -1 for the preamble."""
        index = bisect_right(self._section_starts, position) - 1
        while index >= 0 and self.sections[index].end <= position:
            index = self.sections[index].parent
        return index

    def section_spanning(self, start: int, end: int) -> int:
        """Index of the innermost section holding all of ``[start, end)``, -1 for none."""
        index = self.section_at(start)
        while index >= 0 and self.sections[index].end < end:
            index = self.sections[index].parent
        return index

    def heading_path(self, section: int) -> tuple[str, ...]:
        """Titles from the outermost section down to ``section``. An empty heading (a lone ``#``,
        as config comments and ASCII art make) still opens a section but names nothing."""
        titles: list[str] = []
        while section >= 0:
            if self.sections[section].title:
                titles.append(self.sections[section].title)
            section = self.sections[section].parent
        return tuple(reversed(titles))

    def attached_line(self, start: int) -> tuple[int, Attach] | None:
        """The end of the line at ``start`` that never makes a piece alone, and the neighbour it
        stays with; None for any other position.

        >>> outline = Outline(20, heading_lines={0: 9}, bare_lines={11: 14})
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

    def attached_starts(self, start: int, end: int) -> list[int]:
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


class SectionTree:
    """The sections a parser opens as it walks the document: a heading closes the open sections
    at its depth or deeper, and becomes the child of the one left open. A heading deeper than
    ``heading_depth`` opens no section; it is still a strong block break."""

    def __init__(self, outline: Outline, heading_depth: int) -> None:
        self.outline = outline
        self.heading_depth = heading_depth
        self.open: list[int] = []  # indices into ``outline.sections``, outermost first
        self.variants: dict[int, str] = {}  # open sections that are variants -> their kind

    def heading(self, start: int, depth: int, title: str) -> None:
        if depth > self.heading_depth:
            self.outline.add_break(start, DEEP_HEADING)
            return
        self.outline.add_break(start, SECTION - depth)
        sections = self.outline.sections
        while self.open and self._closed_by(self.open[-1], depth):
            self._close(start)
        parent = self.open[-1] if self.open else -1
        self.open.append(len(sections))
        sections.append(Section(start, start, depth, cut_at_word(title, MAX_TITLE_CHARS), parent))

    def _closed_by(self, index: int, depth: int) -> bool:
        """Whether a heading of ``depth`` closes the open section ``index``: one of its depth or
        deeper, and a variant when it closes the variant's section (a heading inside a tab or a
        zone nests in it)."""
        section = self.outline.sections[index]
        if index not in self.variants:
            return section.depth >= depth
        return section.parent < 0 or self.outline.sections[section.parent].depth >= depth

    def variant(self, start: int, title: str, kind: str) -> None:
        """Open a labelled variant of the open section (a DocFX tab ``# [Bash](#tab/bash)``, a
        zone pivot): a section one level inside it, whatever its marker's ``#``s say, that the
        headings under it nest in. It is closed by the next variant of its ``kind`` (``tab``,
        ``zone``), by ``close_variant``, or by a heading that closes its section. So a child of
        the Bash tab of "Create > Prerequisites" reads ``Create > Prerequisites > Bash``, and
        the sections after the group are not under its last tab."""
        sections = self.outline.sections
        self.close_variant(start, kind)  # the group's previous variant
        depth = sections[self.open[-1]].depth + 1 if self.open else 1
        self.outline.add_break(start, SECTION - depth)
        self.variants[len(sections)] = kind
        self.open.append(len(sections))
        parent = self.open[-2] if len(self.open) > 1 else -1
        sections.append(Section(start, start, depth, title, parent))

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

    def enclose(self, title: str) -> None:
        """Put the whole document, once closed, in one outermost section named ``title``: the
        page title a document gives outside its headings (YAML front matter's ``title:``)."""
        sections = self.outline.sections
        sections[:] = [
            Section(0, self.outline.length, 1, cut_at_word(title, MAX_TITLE_CHARS), -1),
            *(Section(s.start, s.end, s.depth, s.title, s.parent + 1) for s in sections),
        ]

    def _close(self, end: int) -> None:
        index = self.open.pop()
        old = self.outline.sections[index]
        self.outline.sections[index] = Section(old.start, end, old.depth, old.title, old.parent)


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
